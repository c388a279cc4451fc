/**
 * Per-caller upstream credentials (config `credentials: "per-caller"`): each
 * caller (a client profile today, a signed-in person in gateway mode; see
 * catalog/policy/callerIdentity.ts) signs in to the upstream's own
 * authorization server once and reaches it as themselves. This is the owner:
 * the operator's key and the encrypted store (credentialKey.ts,
 * callerTokenStore.ts), sign-in links and flows (callerSignIn.ts), the bearer
 * token each caller's transport sends (refreshed before expiry with the
 * refresh token, and once on a 401), and listing and revoking a caller's
 * connections. A caller's tokens go to their upstream only, through the
 * transport of that caller's own connection; they are never logged. One
 * process keeps the sign-ins in progress in memory (MemoryPendingSignIns, below).
 */
import { join } from 'node:path';
import { auth, type AuthProvider, type OAuthDiscoveryState } from '@modelcontextprotocol/client';
import { ErrorCode, SwitchboardError } from '../../../../shared/errors.js';
import type { CallerConnectionView, ConnectionView } from '../../../../shared/model/connectionViews.js';
import { isPrincipalKey } from '../config/principalId.js';
import type { RemoteBackendConfig } from '../config/schema.js';
import type { Logger } from '../deps.js';
import type { SecretStore } from '../secrets/secretStore.js';
import { boundedFetch } from './authHttp.js';
import { CallerProvider } from './callerProvider.js';
import { CALLBACK_PATH, CallerSignIn } from './callerSignIn.js';
import { CALLER_CREDENTIALS_FILE, CallerTokenStore, UnreadableRecordError } from './callerTokenStore.js';
import { loadCredentialKey, TOKEN_KEY_VARIABLE } from './credentialKey.js';
import type { PendingKind, PendingSignIns, SharedCallerState } from './callerRecords.js';
import type { VaultTokens } from './vault.js';
import { AuthorizationRequiredError, staticClientOf } from './vaultProvider.js';

/** Who a caller key names, for a record without a recorded person: the subject, or the client profile. */
function personOfKey(caller: string): string {
  if (isPrincipalKey(caller)) return caller.slice(caller.lastIndexOf('#') + 1) || caller;
  return caller.replace(/^client:/, 'client ');
}

/** Options of {@link CallerCredentials}. */
export interface CallerCredentialsOptions {
  stateDir: string;
  environment: NodeJS.ProcessEnv;
  /** The config's `proxy.credentialKeyFile`. */
  keyFile(): string | undefined;
  logger: Logger;
  config(backend: string): RemoteBackendConfig | undefined;
  /** The IDs of the config's per-caller backends (whose records a key rotation re-seals). */
  perCallerBackends(): string[];
  secrets(): SecretStore | undefined;
  /** Replicas: the records, sign-ins in progress and sign-in notices they share (absent: the file and memory). */
  shared?: SharedCallerState | undefined;
}

/** Refreshes this long before expiry: a quarter of the token's lifetime, at most a minute. */
function expiresSoon(tokens: VaultTokens): boolean {
  if (tokens.expires_at === undefined) return false;
  const lifetime = (tokens.expires_in ?? 3600) * 1000;
  return tokens.expires_at - Date.now() <= Math.min(60_000, lifetime / 4);
}

/** The per-caller credentials of every per-caller backend. */
export class CallerCredentials {
  private store: CallerTokenStore | undefined;
  private keyProblem: string | undefined = 'the credential key has not been read yet';
  private readonly discovery = new Map<string, OAuthDiscoveryState>();
  private readonly refreshing = new Map<string, Promise<void>>();
  private readonly listeners = new Set<(backend: string, caller: string) => void>();
  private readonly disposed = new AbortController();
  private readonly unlisten: () => void;
  readonly signIn: CallerSignIn;

  constructor(private readonly options: CallerCredentialsOptions) {
    this.signIn = new CallerSignIn({
      store: () => this.requireStore(),
      pending: options.shared?.pending ?? new MemoryPendingSignIns(),
      config: options.config,
      secrets: options.secrets,
      discovery: this.discovery,
      fetchFn: () => boundedFetch({ signal: this.disposed.signal }),
    });
    // A sign-in through another replica: a backend here waiting for its first signed-in caller lists now.
    this.unlisten = options.shared?.onSignedIn((backend, caller) => this.tell(backend, caller)) ?? (() => undefined);
  }

  private tell(backend: string, caller: string): void {
    for (const listener of this.listeners) listener(backend, caller);
  }

  /** Reads the operator's key (at start, before backends connect); a missing one is a problem, not a failure. */
  async loadKey(): Promise<void> {
    const loaded = await loadCredentialKey(this.options.environment, this.options.keyFile());
    this.keyProblem = loaded.problem;
    this.store = loaded.key
      ? new CallerTokenStore(
          join(this.options.stateDir, CALLER_CREDENTIALS_FILE),
          loaded.key,
          undefined,
          this.options.shared?.records,
          loaded.previous,
        )
      : undefined;
    if (this.store && loaded.previous?.length) this.resealing = this.reseal(this.store, loaded.previous.length);
  }

  /** Set while a rotation's catch-up runs (tests and the close wait for it). */
  resealing: Promise<void> | undefined;

  /**
   * A rotation (previous keys given): every record still under a previous
   * key is sealed under the new one now, in the background, and the log says
   * whether the previous keys may be dropped. Records are re-sealed as they
   * are used meanwhile, so nothing waits for this.
   */
  private async reseal(store: CallerTokenStore, previous: number): Promise<void> {
    const { logger } = this.options;
    try {
      const { resealed, unreadable } = await store.reseal(this.options.perCallerBackends());
      const keys = previous === 1 ? 'the previous credential key' : `the ${previous} previous credential keys`;
      logger.info(
        unreadable === 0
          ? `credential key rotation: ${resealed} record(s) sealed again under the new key; no record needs ${keys} any more: it can be removed from ${TOKEN_KEY_VARIABLE} or proxy.credentialKeyFile`
          : `credential key rotation: ${resealed} record(s) sealed again under the new key; ${unreadable} record(s) no key given opens (their callers will sign in again)`,
      );
    } catch (error) {
      logger.warn(
        `credential key rotation: the records could not all be sealed again now (${String(error)}); they are as they are used`,
      );
    }
  }

  /** Why per-caller servers cannot run (no usable key), or undefined. */
  get problem(): string | undefined {
    return this.keyProblem;
  }

  private requireStore(): CallerTokenStore {
    if (!this.store) throw new SwitchboardError(ErrorCode.ConfigInvalid, this.problem ?? 'no credential key');
    return this.store;
  }

  /** Called when a caller signed in to a backend (a waiting backend may list its catalog now). */
  onSignedIn(listener: (backend: string, caller: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The `/connections/callback` of serve's port: stores the caller's tokens and tells the listeners. */
  async callback(query: URLSearchParams): Promise<{ backend: string; caller: string }> {
    const done = await this.signIn.callback(query);
    this.tell(done.backend, done.caller);
    // The tokens are stored: a replica that misses this notice still finds them on the caller's next call.
    await this.options.shared?.announce(done.backend, done.caller).catch((error: unknown) => {
      this.options.logger.warn(`the other replicas were not told of a sign-in to "${done.backend}": ${String(error)}`);
    });
    return done;
  }

  /** The caller's tokens; unreadable ones (another key) count as none, said once in the log. */
  async tokens(backend: string, caller: string): Promise<VaultTokens | undefined> {
    try {
      return await this.store?.tokens(backend, caller);
    } catch (error) {
      if (!(error instanceof UnreadableRecordError)) throw error;
      this.options.logger.warn(`${error.message}: ${caller} signs in to "${backend}" again`);
      await this.store?.deleteTokens(backend, caller);
      return undefined;
    }
  }

  /** The callers who hold tokens for a backend (the first lists its catalog). */
  async callers(backend: string): Promise<string[]> {
    return (await this.store?.callers(backend)) ?? [];
  }

  /** The bearer-token provider of one caller's transport to one backend. */
  transportAuth(config: RemoteBackendConfig, caller: string): AuthProvider {
    return {
      token: () => this.token(config, caller),
      onUnauthorized: async () => {
        const tokens = await this.tokens(config.id, caller);
        if (!tokens?.refresh_token) {
          await this.store?.deleteTokens(config.id, caller);
          throw new AuthorizationRequiredError('the server refused the access token');
        }
        await this.refresh(config, caller, tokens.access_token);
      },
    };
  }

  private async token(config: RemoteBackendConfig, caller: string): Promise<string> {
    const tokens = await this.tokens(config.id, caller);
    if (!tokens) throw new AuthorizationRequiredError(`${caller} has not signed in`);
    if (tokens.refresh_token && expiresSoon(tokens)) {
      try {
        await this.refresh(config, caller, tokens.access_token);
      } catch (error) {
        if (error instanceof AuthorizationRequiredError || (tokens.expires_at ?? 0) <= Date.now()) throw error;
        this.options.logger.warn(`"${config.id}": ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    const fresh = await this.tokens(config.id, caller);
    if (!fresh) throw new AuthorizationRequiredError(`${caller} has to sign in again`);
    return fresh.access_token;
  }

  /**
   * One refresh per caller and backend at a time: in this process, and across
   * replicas (the shared lock). `stale` is the access token found wanting.
   */
  private refresh(config: RemoteBackendConfig, caller: string, stale: string): Promise<void> {
    const key = `${config.id}\n${caller}`;
    let running = this.refreshing.get(key);
    if (!running) {
      const shared = this.options.shared;
      const signal = this.disposed.signal;
      running = (
        shared
          ? shared.exclusiveRefresh(config.id, caller, signal, (held) =>
              this.refreshIfStale(config, caller, stale, held),
            )
          : this.runRefresh(config, caller, signal)
      ).finally(() => this.refreshing.delete(key));
      this.refreshing.set(key, running);
    }
    return running;
  }

  /**
   * Under the replicas' lock: another replica may have refreshed while this
   * one waited, spending the refresh token; its fresh tokens are used then.
   */
  private async refreshIfStale(config: RemoteBackendConfig, caller: string, stale: string, signal: AbortSignal) {
    const current = await this.tokens(config.id, caller);
    if (!current) throw new AuthorizationRequiredError(`${caller} has to sign in again`);
    if (current.access_token !== stale) return;
    await this.runRefresh(config, caller, signal);
  }

  private async runRefresh(config: RemoteBackendConfig, caller: string, signal: AbortSignal): Promise<void> {
    const provider = new CallerProvider({
      store: this.requireStore(),
      config,
      caller,
      mode: 'background',
      redirectUrl: `http://127.0.0.1${CALLBACK_PATH}`,
      staticClient: await staticClientOf(config, this.options.secrets()),
      discovery: this.discovery,
    });
    try {
      await auth(provider, { serverUrl: config.url, fetchFn: boundedFetch({ signal }) });
    } catch (error) {
      if (error instanceof AuthorizationRequiredError) {
        await this.store?.deleteTokens(config.id, caller);
        throw error;
      }
      throw new Error(`the access token could not be refreshed: ${error instanceof Error ? error.message : error}`);
    }
  }

  /** A caller's connections to the given per-caller backends (state, expiry, scope, else a sign-in link; never a token). */
  async connections(caller: string, backends: readonly string[], person?: string): Promise<ConnectionView[]> {
    const views: ConnectionView[] = [];
    for (const server of backends) {
      const tokens = await this.tokens(server, caller);
      const view: ConnectionView = { server, connected: tokens !== undefined };
      if (tokens?.expires_at !== undefined) view.expiresAt = new Date(tokens.expires_at).toISOString();
      if (tokens?.scope) view.scope = tokens.scope;
      const signInUrl = tokens ? undefined : await this.signIn.link(server, caller, person);
      if (signInUrl) view.signInUrl = signInUrl;
      views.push(view);
    }
    return views;
  }

  /**
   * Every caller signed in to the given backends: who, since when, expiry and
   * scope (never a token). A record no key opens is left out (its caller
   * signs in again, as on their next call).
   */
  async everyone(backends: readonly string[]): Promise<CallerConnectionView[]> {
    const views: CallerConnectionView[] = [];
    for (const server of backends) {
      for (const caller of await this.callers(server)) {
        const record = await this.store?.record(server, caller).catch(() => undefined);
        if (!record) continue;
        const { tokens, signedIn } = record;
        const view: CallerConnectionView = { server, caller, person: signedIn?.person ?? personOfKey(caller) };
        if (signedIn) view.since = new Date(signedIn.at).toISOString();
        if (tokens.expires_at !== undefined) view.expiresAt = new Date(tokens.expires_at).toISOString();
        if (tokens.scope) view.scope = tokens.scope;
        views.push(view);
      }
    }
    return views;
  }

  /** Forgets a caller's tokens for a backend; resolves to whether there were any. */
  async revoke(backend: string, caller: string): Promise<boolean> {
    const had = (await this.tokens(backend, caller)) !== undefined;
    await this.store?.deleteTokens(backend, caller);
    return had;
  }

  /** A backend was removed or moved to another URL: its callers' tokens and client go. */
  async forgetBackend(backend: string): Promise<void> {
    await this.store?.forgetBackend(backend);
    this.discovery.delete(backend);
  }

  /** Ends flows and refreshes in progress. */
  dispose(): void {
    this.disposed.abort(new Error('the core was stopped'));
    this.unlisten();
    this.listeners.clear();
  }
}

/** At most this many sign-in links and flows are pending in one process. */
const MAX_PENDING = 1000;

/**
 * Sign-in links and flows in progress in this process's memory (one process; replicas share them in
 * Redis, SharedCallerState): at most {@link MAX_PENDING}, the oldest dropped first, each gone after its time.
 */
class MemoryPendingSignIns implements PendingSignIns {
  private readonly entries = new Map<string, { value: string; expiresAt: number }>();

  async put(kind: PendingKind, id: string, value: string, ttlMs: number): Promise<void> {
    this.entries.set(`${kind}:${id}`, { value, expiresAt: Date.now() + ttlMs });
    while (this.entries.size > MAX_PENDING) this.entries.delete(this.entries.keys().next().value as string);
  }

  async take(kind: PendingKind, id: string): Promise<string | undefined> {
    const entry = this.entries.get(`${kind}:${id}`);
    this.entries.delete(`${kind}:${id}`);
    return entry && entry.expiresAt > Date.now() ? entry.value : undefined;
  }

  async has(kind: PendingKind, id: string): Promise<boolean> {
    return (this.entries.get(`${kind}:${id}`)?.expiresAt ?? 0) > Date.now();
  }
}
