/**
 * Signing in to the UI in gateway mode: serve as an OpenID Connect relying
 * party of the team's identity provider, with openid-client. Discovery from
 * the issuer (on first use, so serve starts while the provider is down), the
 * authorization code flow with PKCE, state and nonce; the flow's secrets stay
 * here, keyed by a random id the browser holds in a short-lived cookie (with
 * replicas, in Redis, sealed under that id: redisSignInFlows.ts, so the
 * callback may land on any replica). The
 * person comes from the ID token's claims and the userinfo answer, under the
 * gateway's claim names, exactly as an access token's would. Loaded only when
 * `gateway.ui` is set (bridge.ts imports it lazily).
 */
import { randomBytes } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import * as oidc from 'openid-client';
import type { Principal } from '../../core/catalog/index.js';
import { principalOf } from '../../core/frontend/index.js';
import {
  resolveValues,
  type GatewayConfig,
  type GatewayUiConfig,
  type SecretStore,
} from '../../core/platform/index.js';

/** A sign-in under way: what the callback must match. */
export interface PendingFlow {
  state: string;
  nonce: string;
  codeVerifier: string;
}

/** Where sign-ins under way are kept until their callback, by the flow's id (taken once). */
export interface SignInFlows {
  put(flowId: string, flow: PendingFlow, ttlMs: number): Promise<void>;
  /** The flow of `flowId`, gone after; undefined when unknown, taken or expired. */
  take(flowId: string): Promise<PendingFlow | undefined>;
}

/** Sign-ins under way in this process (bounded: the oldest is forgotten past {@link MAX_FLOWS}). */
function localFlows(): SignInFlows {
  const flows = new LRUCache<string, PendingFlow>({ max: MAX_FLOWS, ttl: FLOW_TTL_MS });
  return {
    async put(flowId, flow, ttlMs) {
      flows.set(flowId, flow, { ttl: ttlMs });
    },
    async take(flowId) {
      const flow = flows.get(flowId);
      flows.delete(flowId);
      return flow;
    },
  };
}

/** How long a person may take on the identity provider's pages. */
const FLOW_TTL_MS = 10 * 60_000;
/** Most sign-ins under way at once (the oldest is forgotten past it). */
const MAX_FLOWS = 1_000;
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Raised when a sign-in cannot complete; its message is shown to the person. */
export class SignInError extends Error {}

/** The relying party; see the module comment. */
export class UiSignIn {
  private configuration: Promise<oidc.Configuration> | undefined;
  private readonly closed = new AbortController();
  readonly issuer: string;

  constructor(
    private readonly gateway: GatewayConfig,
    private readonly ui: GatewayUiConfig,
    private readonly clientSecret: string | undefined,
    /** Our callback, `<public origin>/ui/callback`, as registered at the identity provider. */
    readonly redirectUri: string,
    private readonly flows: SignInFlows = localFlows(),
  ) {
    this.issuer = ui.issuer ?? gateway.authorizationServers[0]!;
  }

  /** Starts a sign-in: the identity provider's URL to send the browser to, and the flow's id for its cookie. */
  async begin(): Promise<{ url: string; flowId: string }> {
    const config = await this.config();
    const flow: PendingFlow = {
      state: oidc.randomState(),
      nonce: oidc.randomNonce(),
      codeVerifier: oidc.randomPKCECodeVerifier(),
    };
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: this.redirectUri,
      scope: this.ui.scopes.join(' '),
      code_challenge: await oidc.calculatePKCECodeChallenge(flow.codeVerifier),
      code_challenge_method: 'S256',
      state: flow.state,
      nonce: flow.nonce,
    });
    const flowId = randomBytes(24).toString('base64url');
    await this.flows.put(flowId, flow, FLOW_TTL_MS);
    return { url: url.href, flowId };
  }

  /** Completes a sign-in from the callback's query: the person, or a SignInError saying why not. */
  async finish(query: URLSearchParams, flowId: string | undefined): Promise<Principal> {
    const flow = flowId === undefined ? undefined : await this.flows.take(flowId);
    if (flow === undefined) throw new SignInError('this sign-in is unknown or expired: start again');
    const error = query.get('error');
    if (error !== null)
      throw new SignInError(`the identity provider refused: ${query.get('error_description') ?? error}`);
    const config = await this.config();
    const current = new URL(this.redirectUri);
    current.search = query.toString();
    let claims: Record<string, unknown>;
    let accessToken: string;
    try {
      const tokens = await oidc.authorizationCodeGrant(config, current, {
        pkceCodeVerifier: flow.codeVerifier,
        expectedState: flow.state,
        expectedNonce: flow.nonce,
        idTokenExpected: true,
      });
      claims = { ...(tokens.claims() ?? {}) };
      accessToken = tokens.access_token;
    } catch (caught) {
      throw new SignInError(`the sign-in could not be completed: ${(caught as Error).message}`);
    }
    const subject = String(claims['sub']);
    // Email, name and groups are often only in userinfo (an ID token of the code flow may carry just `sub`).
    const userinfo = await oidc
      .fetchUserInfo(config, accessToken, subject)
      .then((answer) => answer as Record<string, unknown>)
      .catch(() => ({}));
    const issuer = typeof claims['iss'] === 'string' ? claims['iss'] : this.issuer;
    const principal = principalOf({ ...claims, ...pick(userinfo) }, issuer, this.gateway.claims);
    if (!principal) throw new SignInError('the identity provider named no subject');
    return principal;
  }

  /** Stops requests to the identity provider. */
  close(): void {
    this.closed.abort();
  }

  /** The provider's discovered configuration (a failure is forgotten, so the next sign-in tries again). */
  private config(): Promise<oidc.Configuration> {
    if (!this.configuration) {
      this.configuration = this.discover();
      this.configuration.catch(() => (this.configuration = undefined));
    }
    return this.configuration.catch((error: unknown) => {
      throw new SignInError(`the identity provider ${this.issuer} cannot be reached: ${(error as Error).message}`);
    });
  }

  private discover(): Promise<oidc.Configuration> {
    const url = new URL(this.issuer);
    const insecure = url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname);
    const auth = this.clientSecret === undefined ? oidc.None() : oidc.ClientSecretPost(this.clientSecret);
    return oidc.discovery(url, this.ui.clientId, undefined, auth, {
      [oidc.customFetch]: this.fetch,
      timeout: Math.ceil(this.gateway.fetchTimeoutMs / 1000),
      ...(insecure ? { execute: [oidc.allowInsecureRequests] } : {}),
    });
  }

  /** Every request to the provider is bounded by the timeout and the UI's life. */
  private readonly fetch = (url: string, options: object & { signal?: AbortSignal | null }): Promise<Response> => {
    const signals = [AbortSignal.timeout(this.gateway.fetchTimeoutMs), this.closed.signal];
    if (options.signal) signals.push(options.signal);
    return fetch(url, { ...(options as RequestInit), signal: AbortSignal.any(signals) });
  };
}

/** The userinfo claims that may complete the ID token's (never its `sub`, `iss` or `aud`). */
function pick(userinfo: Record<string, unknown>): Record<string, unknown> {
  const { sub: _sub, iss: _iss, aud: _aud, ...rest } = userinfo;
  return rest;
}

/** The relying party of `gateway.ui`, its client secret resolved first (keychain or `${VAR}`). */
export async function createUiSignIn(
  gateway: GatewayConfig & { ui: GatewayUiConfig },
  secrets: SecretStore | undefined,
  environment: NodeJS.ProcessEnv,
  redirectUri: string,
  flows?: SignInFlows,
): Promise<UiSignIn> {
  const secret = gateway.ui.clientSecret;
  const resolved =
    secret === undefined
      ? undefined
      : (await resolveValues({ clientSecret: secret }, environment, secrets, 'gateway.ui'))['clientSecret'];
  return new UiSignIn(gateway, gateway.ui, resolved, redirectUri, flows);
}
