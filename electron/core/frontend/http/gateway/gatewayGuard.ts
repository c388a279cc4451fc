/**
 * Gateway mode at the HTTP endpoint: everything `/mcp` needs to be an OAuth
 * 2.1 protected resource, loaded only when the config has a `gateway`
 * section (httpEndpoint.ts imports this file lazily). It checks Host and
 * Origin against our public URL, serves the Protected Resource Metadata,
 * verifies each request's access token (the SDK's bearer check around our
 * TokenVerifier), binds the principal to its client profile
 * (catalog/policy/principalBinding.ts), and answers a tools/call whose token
 * lacks a tool's scope with 403 and a step-up challenge before any server
 * is built for it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { hostHeaderValidation, originValidation } from '@modelcontextprotocol/node';
import {
  OAuthError,
  OAuthErrorCode,
  verifyBearerToken,
  type CallToolRequestParams,
} from '@modelcontextprotocol/server';
import * as oidc from 'openid-client';
import { ErrorCode } from '../../../../../shared/errors.js';
import type { GatewayConfig } from '../../../platform/config/gatewayConfig.js';
import { resolveValues } from '../../../platform/secrets/resolve.js';
import type { FrontendCore } from '../../../api/services.js';
import type { Principal } from '../../../catalog/policy/principal.js';
import { profileFor, unboundMessage } from '../../../catalog/policy/principalBinding.js';
import { callerIdentityOf, callerKey } from '../../../catalog/policy/callerIdentity.js';
import { metaToolOf, unwrapCall } from '../../exposure/metaToolCalls.js';
import { missingToolScopes } from '../../server/scopeGate.js';
import { header, isMethod, jsonRpcError } from '../httpJson.js';
import { AuthorizationServers } from './authorizationServers.js';
import { ProtectedResource } from './protectedResource.js';
import { TokenIntrospection } from './tokenIntrospection.js';
import { TokenVerifier, type GatewayAuthInfo } from './tokenVerifier.js';

/** A request's caller in gateway mode. */
export interface GatewayCaller {
  /** The client profile serving them. */
  client: string;
  principal: Principal;
}

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];

/** Gateway mode's checks at the endpoint; see the module comment. */
export class GatewayGuard {
  readonly resource: ProtectedResource;
  private readonly servers: AuthorizationServers;
  private readonly verifier: TokenVerifier;
  private readonly checkHostHeader;
  private readonly checkOriginHeader;
  private readonly resourceUrl: URL;

  constructor(
    private readonly core: FrontendCore,
    private readonly gateway: GatewayConfig,
    introspectionSecret: string | undefined,
  ) {
    this.resourceUrl = new URL(gateway.resource);
    this.resource = new ProtectedResource(gateway);
    const introspection = gateway.introspection;
    const issuer = introspection?.issuer ?? gateway.authorizationServers[0]!;
    this.servers = new AuthorizationServers(
      gateway,
      introspection && introspectionSecret !== undefined
        ? { issuer, clientId: introspection.clientId, auth: oidc.ClientSecretBasic(introspectionSecret) }
        : undefined,
    );
    const introspector = introspection
      ? new TokenIntrospection({ ...gateway, introspection }, this.servers)
      : undefined;
    this.verifier = new TokenVerifier(gateway, this.servers, introspector);
    const names = [this.resourceUrl.hostname, ...LOOPBACK_NAMES];
    this.checkHostHeader = hostHeaderValidation(names);
    this.checkOriginHeader = originValidation(names);
  }

  /** Host (X-Forwarded-Host behind a trusted proxy) and Origin must name us; answers 403 otherwise. */
  checkRequest(req: IncomingMessage, res: ServerResponse): boolean {
    const forwarded = this.gateway.trustProxy ? header(req, 'x-forwarded-host')?.split(',')[0]?.trim() : undefined;
    if (forwarded) {
      const hostOf = (value: string) => new URL(`http://${value}`).hostname;
      let ok = false;
      try {
        ok = hostOf(forwarded) === this.resourceUrl.hostname;
      } catch {
        ok = false;
      }
      if (!ok) {
        res.writeHead(403, { 'Content-Type': 'text/plain' }).end('Forbidden: X-Forwarded-Host is not this gateway');
        return false;
      }
    } else if (!this.checkHostHeader(req, res)) return false;
    return this.checkOriginHeader(req, res);
  }

  /** The caller of a `/mcp` request, or undefined once a 401/403/503 has been answered. */
  async authenticate(req: IncomingMessage, res: ServerResponse): Promise<GatewayCaller | undefined> {
    const authorization = header(req, 'authorization');
    if (authorization === undefined) {
      this.resource.missingToken(res);
      return undefined;
    }
    let info: GatewayAuthInfo;
    try {
      info = (await verifyBearerToken(authorization, {
        verifier: this.verifier,
        expectedResource: this.resourceUrl,
        requiredScopes: this.gateway.requiredScopes,
        resourceMetadataUrl: this.resource.metadataUrl,
      })) as GatewayAuthInfo;
    } catch (error) {
      if (!(error instanceof OAuthError) || error.code === OAuthErrorCode.ServerError)
        this.core.deps.logger.warn(`gateway: cannot check a token: ${(error as Error).message}`);
      this.resource.refused(res, error);
      return undefined;
    }
    const principal = info.extra.principal;
    // Kept (in memory) only while a backend exchanges it for its own token (RFC 8693); never sent upstream.
    const token = /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1];
    if (token !== undefined)
      this.core.subjectTokens?.remember(callerKey(callerIdentityOf({ principal })), token, info.extra.expiresAt);
    const { profile, by } = profileFor(
      this.core.policy.current,
      principal,
      // The default profile applies live (an edit of the config file: platform/config/restartFields.ts).
      (this.core.settings.gateway() ?? this.gateway).defaultProfile,
    );
    if (by === 'none') {
      // Not an empty list: a person no binding names is told what to ask the operator for.
      jsonRpcError(res, 403, -32000, `Forbidden: ${unboundMessage(principal)}`, {}, { code: ErrorCode.Forbidden });
      return undefined;
    }
    return { client: profile, principal };
  }

  /**
   * Answers 403 insufficient_scope (and returns true) to a tools/call of a
   * tool the caller's token has no scope for, naming the scopes to ask for.
   */
  refuseScope(res: ServerResponse, body: unknown, caller: GatewayCaller): boolean {
    if (!isMethod(body, 'tools/call')) return false;
    const { id, params } = body as { id?: unknown; params?: CallToolRequestParams };
    if (typeof params?.name !== 'string') return false;
    let name = params.name;
    if (metaToolOf(this.core.exposure, caller.client, name) === 'call') {
      try {
        name = unwrapCall(params).name;
      } catch {
        return false; // the server answers the malformed call itself
      }
    }
    const missing = missingToolScopes(this.core, caller.client, caller.principal, name);
    if (missing.length === 0) return false;
    const error = new OAuthError(
      OAuthErrorCode.InsufficientScope,
      `calling ${name} needs the scope(s) ${missing.join(' ')}`,
    );
    // The challenge names every scope the call needs with what the token has, so a re-authorization keeps both.
    const scopes = [...new Set([...caller.principal.scopes, ...missing])];
    this.resource.refused(res, error, scopes, id ?? null);
    return true;
  }

  /** Stops the gateway's requests to the authorization servers. */
  close(): void {
    this.servers.close();
  }
}

/** The guard of a `gateway` section; resolves the introspection client secret first (keychain or `${VAR}`). */
export async function createGatewayGuard(
  core: FrontendCore,
  gateway: GatewayConfig,
  environment: NodeJS.ProcessEnv,
): Promise<GatewayGuard> {
  const secret = gateway.introspection?.clientSecret;
  const resolved =
    secret === undefined
      ? undefined
      : (await resolveValues({ clientSecret: secret }, environment, core.secrets, 'gateway.introspection'))[
          'clientSecret'
        ];
  return new GatewayGuard(core, gateway, resolved);
}
