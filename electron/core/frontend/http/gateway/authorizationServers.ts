/**
 * The team's authorization servers as the gateway knows them: each issuer's
 * metadata, found once by discovery (RFC 8414 first, then OpenID Connect
 * discovery) with openid-client, and its signing keys as a jose remote JWKS
 * (cached, refetched when a token names an unknown key: key rotation).
 * Discovery runs on the first token of that issuer, not at start, so a
 * gateway starts while its identity provider is down; a failed discovery is
 * tried again on a later token. Every request is bounded by the gateway's
 * `fetchTimeoutMs` and stopped when the gateway closes.
 */
import { createRemoteJWKSet, customFetch as joseFetch, type JWTVerifyGetKey } from 'jose';
import * as oidc from 'openid-client';
import type { GatewayConfig } from '../../../platform/config/gatewayConfig.js';

/** One authorization server, discovered. */
export interface AuthorizationServer {
  issuer: string;
  config: oidc.Configuration;
  keys: JWTVerifyGetKey;
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Whether an issuer may be reached over plain HTTP (loopback only: a test or a local identity provider). */
export function insecureAllowed(issuer: string): boolean {
  const url = new URL(issuer);
  return url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname);
}

/** The configured issuers, discovered on first use; see the module comment. */
export class AuthorizationServers {
  private readonly found = new Map<string, Promise<AuthorizationServer>>();
  private readonly closed = new AbortController();

  constructor(
    private readonly gateway: GatewayConfig,
    /** The client that authenticates to introspection (others use a placeholder: discovery needs one). */
    private readonly introspectionClient?: { issuer: string; clientId: string; auth: oidc.ClientAuth },
  ) {}

  /** Whether tokens of `issuer` are accepted at all. */
  accepts(issuer: string): boolean {
    return this.gateway.authorizationServers.includes(issuer);
  }

  /** The discovered server of a configured `issuer` (a failure is forgotten, so the next token tries again). */
  get(issuer: string): Promise<AuthorizationServer> {
    let pending = this.found.get(issuer);
    if (!pending) {
      pending = this.discover(issuer);
      pending.catch(() => this.found.delete(issuer));
      this.found.set(issuer, pending);
    }
    return pending;
  }

  /** A fetch bounded by the timeout and the gateway's life. */
  private readonly fetch = (url: string, options: object & { signal?: AbortSignal | null }): Promise<Response> => {
    const timeout = AbortSignal.timeout(this.gateway.fetchTimeoutMs);
    const signals = [timeout, this.closed.signal, ...(options.signal ? [options.signal] : [])];
    return fetch(url, { ...(options as RequestInit), signal: AbortSignal.any(signals) });
  };

  private async discover(issuer: string): Promise<AuthorizationServer> {
    const client = this.introspectionClient?.issuer === issuer ? this.introspectionClient : undefined;
    const options: oidc.DiscoveryRequestOptions = {
      [oidc.customFetch]: this.fetch,
      timeout: Math.ceil(this.gateway.fetchTimeoutMs / 1000),
      ...(insecureAllowed(issuer) ? { execute: [oidc.allowInsecureRequests] } : {}),
    };
    const discoverAs = (algorithm: 'oauth2' | 'oidc') =>
      oidc.discovery(new URL(issuer), client?.clientId ?? 'mcp-switchboard-gateway', undefined, client?.auth, {
        ...options,
        algorithm,
      });
    const config = await discoverAs('oauth2').catch(() => discoverAs('oidc'));
    const jwksUri = config.serverMetadata().jwks_uri;
    if (!jwksUri) throw new Error(`the authorization server ${issuer} publishes no jwks_uri`);
    const keys = createRemoteJWKSet(new URL(jwksUri), {
      timeoutDuration: this.gateway.fetchTimeoutMs,
      cooldownDuration: this.gateway.jwks.cooldownMs,
      cacheMaxAge: this.gateway.jwks.cacheMaxAgeMs,
      [joseFetch]: (url, init) => this.fetch(url, init),
    });
    return { issuer, config, keys };
  }

  /** Stops every discovery, JWKS and introspection request in flight. */
  close(): void {
    this.closed.abort();
  }
}
