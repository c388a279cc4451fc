/**
 * Opaque access tokens, checked by RFC 7662 token introspection through
 * openid-client (client authentication with the configured id and secret).
 * An active token must be meant for us (its `aud` holds an accepted
 * audience: a token without one is refused, RFC 8707) and not expired.
 * Answers are kept a short while (`cacheMs`, never past the token's `exp`),
 * keyed by the token's digest, in a bounded LRU. Refusals are kept too, in
 * an LRU of their own (so a client sending garbage cannot push out the
 * active tokens) and for at most {@link REFUSAL_CACHE_MAX_MS}: a client
 * repeating an inactive or foreign token does not reach the identity
 * provider on every request. A failed introspection is never kept.
 */
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import * as oidc from 'openid-client';
import { OAuthError, OAuthErrorCode } from '@modelcontextprotocol/server';
import type { GatewayConfig } from '../../../platform/config/gatewayConfig.js';
import type { AuthorizationServers } from './authorizationServers.js';

/** What an introspected token gives the verifier. */
export interface IntrospectedToken {
  claims: Record<string, unknown>;
  issuer: string;
  expiresAt: number | undefined;
}

const MAX_CACHED = 10_000;
/** Refusals kept (their keys are digests: about 100 bytes each). */
const MAX_REFUSALS = 10_000;
/** A refusal is kept at most this long (a token an identity provider's replica did not know yet may be active soon). */
export const REFUSAL_CACHE_MAX_MS = 10_000;

function refused(reason: string): OAuthError {
  return new OAuthError(OAuthErrorCode.InvalidToken, reason);
}

/** RFC 7662 against the configured issuer; see the module comment. */
export class TokenIntrospection {
  private readonly cache = new LRUCache<string, IntrospectedToken>({ max: MAX_CACHED });
  /** Why a token was refused, by its digest. */
  private readonly refusals: LRUCache<string, string> | undefined;
  private readonly issuer: string;

  constructor(
    private readonly gateway: GatewayConfig & { introspection: NonNullable<GatewayConfig['introspection']> },
    private readonly servers: AuthorizationServers,
  ) {
    this.issuer = gateway.introspection.issuer ?? gateway.authorizationServers[0]!;
    const refusalTtl = Math.min(gateway.introspection.cacheMs, REFUSAL_CACHE_MAX_MS);
    this.refusals = refusalTtl > 0 ? new LRUCache({ max: MAX_REFUSALS, ttl: refusalTtl }) : undefined;
  }

  /** The token's claims when it is active and meant for one of `audiences`; throws invalid_token otherwise. */
  async check(token: string, audiences: readonly string[]): Promise<IntrospectedToken> {
    const key = createHash('sha256').update(token).digest('base64url');
    const cached = this.cache.get(key);
    if (cached) return cached;
    const refusal = this.refusals?.get(key);
    if (refusal !== undefined) throw refused(refusal);
    const answer = await this.introspect(token);
    const reason = this.refusalOf(answer, audiences);
    if (reason !== undefined) {
      this.refusals?.set(key, reason);
      throw refused(reason);
    }
    const issuer = typeof answer.iss === 'string' ? answer.iss : this.issuer;
    const result = { claims: answer as Record<string, unknown>, issuer, expiresAt: answer.exp };
    const ttl = Math.min(
      this.gateway.introspection.cacheMs,
      typeof answer.exp === 'number' ? Math.max(0, answer.exp * 1000 - Date.now()) : Infinity,
    );
    if (ttl > 0) this.cache.set(key, result, { ttl });
    return result;
  }

  /** Why an introspection answer is refused, or undefined when the token is good here. */
  private refusalOf(answer: oidc.IntrospectionResponse, audiences: readonly string[]): string | undefined {
    if (answer.active !== true) return 'the token is not active';
    const audience = answer.aud === undefined ? [] : Array.isArray(answer.aud) ? answer.aud : [answer.aud];
    if (!audience.some((aud) => audiences.includes(String(aud)))) return 'the token is meant for another resource';
    const now = Math.floor(Date.now() / 1000);
    if (typeof answer.exp === 'number' && answer.exp + this.gateway.clockSkewSeconds < now)
      return 'the token has expired';
    const issuer = typeof answer.iss === 'string' ? answer.iss : this.issuer;
    if (!this.servers.accepts(issuer)) return 'the token was not issued by an accepted authorization server';
    return undefined;
  }

  private async introspect(token: string) {
    const server = await this.servers.get(this.issuer);
    try {
      return await oidc.tokenIntrospection(server.config, token);
    } catch (error) {
      throw new OAuthError(OAuthErrorCode.ServerError, `token introspection failed: ${(error as Error).message}`);
    }
  }
}
