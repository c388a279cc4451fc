/**
 * Checks an access token presented to the gateway and says who it names.
 * A JWT is verified with jose against its issuer's JWKS (authorizationServers.ts):
 * an accepted issuer, an audience we accept (RFC 8707: our resource URL by
 * default), `exp`/`nbf` within the clock skew, an allowed algorithm. Any
 * other token goes to RFC 7662 introspection (tokenIntrospection.ts) when
 * configured. A refused token throws the SDK's `invalid_token` OAuthError
 * with a short reason that never quotes the token.
 */
import { createHash } from 'node:crypto';
import { decodeJwt, errors as joseErrors, jwtVerify } from 'jose';
import { OAuthError, OAuthErrorCode, type AuthInfo, type OAuthTokenVerifier } from '@modelcontextprotocol/server';
import type { GatewayConfig } from '../../../platform/config/gatewayConfig.js';
import type { Principal } from '../../../catalog/policy/principal.js';
import type { AuthorizationServers } from './authorizationServers.js';
import { principalOf } from './principalClaims.js';
import type { TokenIntrospection } from './tokenIntrospection.js';

/** What a verified token gives: the SDK's AuthInfo with our principal in `extra`. */
export type GatewayAuthInfo = AuthInfo & {
  /** `expiresAt` is the token's own `exp` (the SDK's field allows for the clock skew). */
  extra: { principal: Principal; expiresAt: number | undefined };
};

function refused(reason: string): OAuthError {
  return new OAuthError(OAuthErrorCode.InvalidToken, reason);
}

/** A jose failure as the reason a client (and the log) is told. */
function reasonOf(error: unknown): string {
  if (error instanceof joseErrors.JWTExpired) return 'the token has expired';
  if (error instanceof joseErrors.JWTClaimValidationFailed) {
    if (error.claim === 'aud') return 'the token is meant for another resource';
    if (error.claim === 'nbf') return 'the token is not valid yet';
    return `the token's "${error.claim}" claim is not accepted`;
  }
  if (error instanceof joseErrors.JWKSNoMatchingKey) return 'no current key of the issuer signed the token';
  if (error instanceof joseErrors.JWSSignatureVerificationFailed) return 'the token signature does not verify';
  if (error instanceof joseErrors.JOSEAlgNotAllowed) return 'the token is signed with an algorithm not accepted';
  if (error instanceof joseErrors.JOSEError) return `the token is not valid (${error.code})`;
  return 'the token could not be checked';
}

/** Whether a token has the shape of a JWS compact JWT (three base64url parts). */
function looksLikeJwt(token: string): boolean {
  return /^[\w-]+\.[\w-]+\.[\w-]*$/.test(token);
}

/** The gateway's token check (see the module comment); an OAuthTokenVerifier for the SDK's bearer helpers. */
export class TokenVerifier implements OAuthTokenVerifier {
  private readonly audiences: string[];

  constructor(
    private readonly gateway: GatewayConfig,
    private readonly servers: AuthorizationServers,
    private readonly introspection: TokenIntrospection | undefined,
  ) {
    this.audiences = gateway.audiences ?? [gateway.resource];
  }

  async verifyAccessToken(token: string): Promise<GatewayAuthInfo> {
    if (looksLikeJwt(token)) return this.verifyJwt(token);
    if (this.introspection) return this.authInfo(token, await this.introspection.check(token, this.audiences));
    throw refused('the token is not a JWT and this gateway has no token introspection');
  }

  private async verifyJwt(token: string): Promise<GatewayAuthInfo> {
    let issuer: unknown;
    try {
      issuer = decodeJwt(token).iss;
    } catch {
      throw refused('the token is not a readable JWT');
    }
    if (typeof issuer !== 'string' || !this.servers.accepts(issuer)) {
      // An opaque token from an introspecting server may still look like a JWT to us.
      if (this.introspection) return this.authInfo(token, await this.introspection.check(token, this.audiences));
      throw refused('the token was not issued by an accepted authorization server');
    }
    const server = await this.servers.get(issuer).catch((error: unknown) => {
      throw new OAuthError(OAuthErrorCode.ServerError, `cannot reach ${issuer}: ${(error as Error).message}`);
    });
    try {
      const { payload } = await jwtVerify(token, server.keys, {
        issuer,
        audience: this.audiences,
        algorithms: this.gateway.algorithms,
        clockTolerance: this.gateway.clockSkewSeconds,
        requiredClaims: ['exp'],
      });
      return this.authInfo(token, { claims: payload, issuer, expiresAt: payload.exp });
    } catch (error) {
      throw refused(reasonOf(error));
    }
  }

  /** The SDK's AuthInfo of verified claims (`resource` is ours: the audience matched). */
  private authInfo(
    token: string,
    verified: { claims: Record<string, unknown>; issuer: string; expiresAt: number | undefined },
  ): GatewayAuthInfo {
    const principal = principalOf(verified.claims, verified.issuer, this.gateway.claims);
    if (!principal) throw refused(`the token names no subject ("${this.gateway.claims.subject}" claim)`);
    const clientId = verified.claims['client_id'] ?? verified.claims['azp'];
    return {
      // The SDK's type wants the token; we keep only a digest (nothing downstream reads it).
      token: createHash('sha256').update(token).digest('base64url'),
      clientId: typeof clientId === 'string' ? clientId : '',
      scopes: principal.scopes,
      // The skew allowed for exp is allowed here too (the SDK compares expiresAt with now).
      ...(verified.expiresAt !== undefined ? { expiresAt: verified.expiresAt + this.gateway.clockSkewSeconds } : {}),
      resource: new URL(this.gateway.resource),
      extra: { principal, expiresAt: verified.expiresAt },
    };
  }
}
