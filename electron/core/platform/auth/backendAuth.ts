/**
 * OAuth for one remote backend, per the MCP authorization spec
 * (modelcontextprotocol.io/specification, "Authorization"): the bearer token
 * its transport sends, refresh before expiry and once on a 401 (spec §"Token
 * handling"; RFC 6749 §6), the user's authorization flow (authorization code
 * with PKCE, RFC 7636; resource indicators, RFC 8707; state checked at the
 * loopback, RFC 6749 §10.12), step-up on 403 insufficient_scope (spec
 * §"Scope challenge handling"), and sign-out (RFC 7009 revocation). The
 * protocol itself is the SDK's `auth()`; state lives in the keychain vault.
 * One run of the flow is in authorizationFlow.ts; this class keeps the state
 * around it and the tokens' refresh.
 *
 * The tokens are kept in memory as last read from the keychain or saved, and
 * the read itself is left alone for a while after the keychain fails: the
 * transport asks for a token before every request, and without a keychain
 * each ask was a failing keytar call (a sixth of serve's CPU per proxied
 * call). Sign-out revokes them with the client they were issued to
 * (registered by hand or dynamically); deleting the keychain entries follows.
 */
import { createHash } from 'node:crypto';
import { auth, computeScopeUnion, extractWWWAuthenticateParams, type AuthProvider } from '@modelcontextprotocol/client';
import { ErrorCode, SwitchboardError } from '../../../../shared/errors.js';
import type { BackendAuthSummary } from '../../../../shared/model/health.js';
import type { RemoteBackendConfig } from '../config/schema.js';
import type { Logger } from '../deps.js';
import type { SecretStore } from '../secrets/secretStore.js';
import { boundedFetch, revocationEndpointOf, revokeTokens } from './authHttp.js';
import { startAuthorizationFlow, type AuthorizationFlow } from './authorizationFlow.js';
import { OAuthVault, summarizeTokens, type VaultTokens } from './vault.js';
import { AuthorizationRequiredError, VaultProvider, staticClientOf } from './vaultProvider.js';

/** Options of a {@link BackendAuth}. */
export interface BackendAuthOptions {
  config: RemoteBackendConfig;
  secrets: SecretStore | undefined;
  logger: Logger;
  /** Bound of one network step (default 30 s). */
  stepTimeoutMs?: number;
}

/** Options of one authorization flow. */
export interface AuthorizeOptions {
  signal?: AbortSignal | undefined;
  /** How long the user has to finish in the browser (default 5 minutes). */
  timeoutMs?: number;
}

export type { AuthorizationFlow } from './authorizationFlow.js';

/** What the transport hands `onUnauthorized` (the SDK does not export the type). */
type UnauthorizedContext = Parameters<NonNullable<AuthProvider['onUnauthorized']>>[0];

const fingerprint = (tokens: VaultTokens | undefined): string | undefined =>
  tokens && createHash('sha256').update(tokens.access_token).digest('hex');

/** How long a keychain that failed is left alone before tokens are read again. */
const KEYCHAIN_RETRY_MS = 30_000;

/** One backend's tokens in memory, the single owner of what was last read or saved. */
class TokenCache {
  /** Tokens as last read or saved (`null`: not read yet). */
  private tokens: VaultTokens | undefined | null = null;
  /** Why the keychain could not be read, while it cannot. */
  private problem: string | undefined;
  /** When the keychain last failed: reads are not tried again for KEYCHAIN_RETRY_MS. */
  private failedAt = -Infinity;

  constructor(private readonly vault: OAuthVault) {}

  /** The tokens in memory, without reading the keychain (`undefined` also when not read yet). */
  get current(): VaultTokens | undefined {
    return this.tokens ?? undefined;
  }

  /** Why the keychain could not be read, while it cannot. */
  get keychainProblem(): string | undefined {
    return this.problem;
  }

  /**
   * The tokens, read from the keychain the first time. A keychain that fails
   * answers "none" and is not asked again for KEYCHAIN_RETRY_MS.
   */
  async load(): Promise<VaultTokens | undefined> {
    if (this.tokens !== null) return this.tokens;
    if (Date.now() - this.failedAt < KEYCHAIN_RETRY_MS) return undefined;
    try {
      this.tokens = await this.vault.tokens();
    } catch (error) {
      // No keychain means no stored tokens: send none (a server without OAuth
      // works as ever), and let a 401 say why authorizing cannot help yet.
      // Not cached, so tokens are read again once the keychain is back.
      this.problem = error instanceof Error ? error.message : String(error);
      this.failedAt = Date.now();
      return undefined;
    }
    this.problem = undefined;
    return this.tokens;
  }

  /** Keeps tokens just saved, read, or deleted (`undefined`), so the keychain need not be asked. */
  set(tokens: VaultTokens | undefined): void {
    this.tokens = tokens;
  }
}

/** One remote backend's OAuth client side. */
export class BackendAuth {
  readonly vault: OAuthVault;
  /** Tokens as last read or saved; reads left alone a while after the keychain fails. */
  private readonly tokenCache: TokenCache;
  private refreshing: Promise<void> | undefined;
  private needs: { reason: string } | undefined;
  /** What the server's last challenge said (RFC 9728 §5.1; RFC 6750 §3). */
  private challenge: { resourceMetadataUrl?: URL | undefined; scope?: string | undefined } = {};
  private stepUpScope: string | undefined;
  private lastTokenError: string | undefined;
  /** The stored tokens when authorization was lost, to notice new ones (e.g. from the CLI). */
  private lostWith: string | undefined;
  private readonly listeners = new Set<(reason: string) => void>();
  private readonly disposed = new AbortController();

  constructor(private readonly options: BackendAuthOptions) {
    this.vault = new OAuthVault(options.secrets, options.config.id);
    this.tokenCache = new TokenCache(this.vault);
  }

  private get id(): string {
    return this.options.config.id;
  }

  /** Called (with the reason) whenever the backend comes to need the user's authorization. */
  onNeedsAuthorization(listener: (reason: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** For health: state, expiry, scope and reason, from memory (never a token). */
  summary(): BackendAuthSummary {
    const summary = summarizeTokens(this.tokenCache.current);
    if (this.needs) return { ...summary, state: 'needs-authorization', reason: this.needs.reason };
    if (this.refreshing) return { ...summary, state: 'refreshing' };
    return summary;
  }

  /** Why authorization is needed, while it is. */
  get pendingReason(): string | undefined {
    return this.needs?.reason;
  }

  /** The bearer-token provider for the backend's transport. */
  transportAuth(): AuthProvider {
    return { token: () => this.token(), onUnauthorized: (context) => this.onUnauthorized(context) };
  }

  /** Refreshes this long before expiry: a quarter of the token's lifetime, at most a minute. */
  private expiresSoon(tokens: VaultTokens): boolean {
    if (tokens.expires_at === undefined) return false;
    const lifetime = (tokens.expires_in ?? 3600) * 1000;
    return tokens.expires_at - Date.now() <= Math.min(60_000, lifetime / 4);
  }

  /** The access token for the next request, refreshed first when it is about to expire. */
  private async token(): Promise<string | undefined> {
    const tokens = await this.tokenCache.load();
    if (!tokens) return undefined;
    if (tokens.refresh_token && this.expiresSoon(tokens)) {
      try {
        await this.refresh();
      } catch (error) {
        // A server that does not answer: the current token serves while it is valid.
        if (error instanceof AuthorizationRequiredError || (tokens.expires_at ?? 0) <= Date.now()) throw error;
        this.options.logger.warn(`backend "${this.id}": ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    return (await this.tokenCache.load())?.access_token;
  }

  /** A 401: refresh once (the transport then retries once), else the user must authorize. */
  private async onUnauthorized(context: UnauthorizedContext): Promise<void> {
    const { resourceMetadataUrl, scope } = extractWWWAuthenticateParams(context.response);
    this.challenge = { resourceMetadataUrl: resourceMetadataUrl ?? this.challenge.resourceMetadataUrl, scope };
    const tokens = await this.tokenCache.load();
    if (!tokens) {
      const problem = this.tokenCache.keychainProblem;
      throw this.lose(`the server requires authorization${problem ? `; tokens cannot be kept: ${problem}` : ''}`);
    }
    if (!tokens.refresh_token) throw this.lose('the server refused the access token and there is no refresh token');
    await this.refresh();
  }

  private refresh(): Promise<void> {
    this.refreshing ??= this.runRefresh().finally(() => (this.refreshing = undefined));
    return this.refreshing;
  }

  private async runRefresh(): Promise<void> {
    this.lastTokenError = undefined;
    const provider = await this.provider('background');
    try {
      await auth(provider, {
        serverUrl: this.options.config.url,
        resourceMetadataUrl: this.challenge.resourceMetadataUrl,
        fetchFn: this.fetchFn(this.disposed.signal),
      });
    } catch (error) {
      if (error instanceof AuthorizationRequiredError) {
        this.tokenCache.set(await this.vault.tokens());
        throw this.lose(error.reason);
      }
      throw new Error(`the access token could not be refreshed: ${error instanceof Error ? error.message : error}`);
    }
  }

  private fetchFn(signal: AbortSignal | undefined): ReturnType<typeof boundedFetch> {
    return boundedFetch({
      signal,
      stepTimeoutMs: this.options.stepTimeoutMs,
      onTokenError: (message) => (this.lastTokenError = message),
    });
  }

  private async provider(
    mode: 'interactive' | 'background',
    flow: { redirectUrl?: string; state?: string } = {},
  ): Promise<VaultProvider> {
    const oauth = this.options.config.oauth;
    return new VaultProvider({
      vault: this.vault,
      mode,
      ...flow,
      staticClient: await staticClientOf(this.options.config, this.options.secrets),
      scope: oauth?.scope,
      clientMetadataUrl: oauth?.clientMetadataUrl,
      onTokens: (tokens) => this.tokenCache.set(tokens),
      invalidationReason: () =>
        `the authorization server refused the refresh token${this.lastTokenError ? ` (${this.lastTokenError})` : ''}`,
    });
  }

  /** Marks the backend as needing authorization, tells the listeners, returns the error to throw. */
  private lose(reason: string, scope?: string): AuthorizationRequiredError {
    this.needs = { reason };
    this.lostWith = fingerprint(this.tokenCache.current);
    for (const listener of this.listeners) listener(reason);
    return new AuthorizationRequiredError(reason, scope);
  }

  /** A 403 insufficient_scope: the next authorization asks for the wider scope too. */
  stepUp(scope: string | undefined): string {
    this.stepUpScope = computeScopeUnion(this.stepUpScope, scope);
    const reason = `the server asks for scope "${scope ?? '(unspecified)'}" (step-up authorization)`;
    this.needs = { reason };
    return reason;
  }

  /** Whether the keychain holds tokens other than the ones that stopped working. */
  async storedTokensChanged(): Promise<boolean> {
    const stored = await this.vault.tokens().catch(() => undefined);
    const changed = stored !== undefined && fingerprint(stored) !== this.lostWith;
    if (changed) {
      this.tokenCache.set(stored);
      this.needs = undefined;
    }
    return changed;
  }

  /**
   * Starts the user's authorization: a loopback listener, then the SDK builds
   * the authorization URL (discovering and registering as needed). Resolves
   * as soon as the URL is known; `done` settles when tokens are saved.
   */
  async authorize(options: AuthorizeOptions = {}): Promise<AuthorizationFlow> {
    if (!this.vault.available) {
      throw new SwitchboardError(
        ErrorCode.AuthorizationFailed,
        `cannot authorize "${this.id}": the OS keychain is not available (tokens are never stored in plain text)`,
      );
    }
    const timeoutMs = options.timeoutMs ?? 300_000;
    const signal = AbortSignal.any([
      AbortSignal.timeout(timeoutMs),
      this.disposed.signal,
      ...(options.signal ? [options.signal] : []),
    ]);
    const config = this.options.config;
    return startAuthorizationFlow({
      config,
      vault: this.vault,
      timeoutMs,
      signal,
      scope: async () =>
        computeScopeUnion(
          config.oauth?.scope,
          this.challenge.scope,
          this.stepUpScope,
          this.stepUpScope ? (await this.tokenCache.load())?.scope : undefined,
        ),
      resourceMetadataUrl: () => this.challenge.resourceMetadataUrl,
      provider: (flow) => this.provider('interactive', flow),
      fetchFn: (flowSignal) => this.fetchFn(flowSignal),
      finished: () => {
        this.needs = undefined;
        this.stepUpScope = undefined;
        this.lostWith = undefined;
      },
    });
  }

  /**
   * Signs out: revokes the tokens where the authorization server advertises a
   * revocation endpoint (RFC 7009; RFC 8414 §2), then deletes every OAuth
   * entry of the backend. Resolves to whether the server revoked them.
   */
  async signOut(): Promise<{ revoked: boolean }> {
    const revoked = await this.revokeStoredTokens();
    await this.forget();
    this.lose('signed out');
    return { revoked };
  }

  /** Revokes the stored tokens; resolves to whether the server revoked them (false: nothing to revoke, or no endpoint). */
  private async revokeStoredTokens(): Promise<boolean> {
    const { config, secrets, logger } = this.options;
    const fetchFn = this.fetchFn(this.disposed.signal);
    const [tokens, discovery] = await Promise.all([this.vault.tokens(), this.vault.discovery()]);
    const client = (await staticClientOf(config, secrets).catch(() => undefined)) ?? (await this.vault.client());
    const metadata = discovery?.authorizationServerMetadata;
    if (!tokens || !client || !revocationEndpointOf(metadata) || !metadata) return false;
    // A token that could not be revoked (`hint`: access or refresh token) is said once.
    return revokeTokens(metadata, client, tokens, fetchFn, (hint, reason) =>
      logger.warn(`backend "${this.id}": could not revoke the ${hint}: ${reason}`),
    );
  }

  /** Deletes every OAuth entry of the backend from the keychain (no revocation). */
  async forget(): Promise<void> {
    await this.vault.delete();
    this.tokenCache.set(undefined);
  }

  /** Ends flows and refreshes in progress. */
  dispose(): void {
    this.disposed.abort(new Error('the backend was stopped'));
    this.listeners.clear();
  }
}
