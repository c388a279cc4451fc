/**
 * The life of one backend: connect, list, publish through the host, probe its
 * health, refresh on its list-changed notifications, and reconnect with
 * backoff when it drops. Status follows one rule set:
 * `connecting` -> `up`; probe or refresh failures -> `degraded` (last snapshot
 * stays published); disconnected -> `down` (items leave the catalog) until a
 * reconnect succeeds; `disabled` when the user turned it off;
 * `needs-authorization` when a remote backend needs the user to sign in
 * (OAuth): never retried in a loop, it connects again once new tokens are in
 * the keychain (an authorization here or from another process).
 */
import { ErrorCode, SwitchboardError, toErrorData } from '../../../shared/errors.js';
import type { BackendHealth, BackendStatus } from '../../../shared/model/health.js';
import type { LoggingMessageNotification } from '@modelcontextprotocol/client';
import type { BackendConfig, ProxyOptions } from '../config/schema.js';
import type { CoreDeps } from '../deps.js';
import type { SecretStore } from '../secrets/secretStore.js';
import { authorizationRequired, type AuthorizationProblem } from '../auth/authErrors.js';
import type { BackendAuth } from '../auth/backendAuth.js';
import { BackendConnection, type BackendCatalog } from './backendConnection.js';
import { reconnectDelay } from './backoff.js';
import { LineTail } from './transports.js';

/** What a supervisor needs from the core. */
export interface SupervisorHost {
  readonly deps: CoreDeps;
  /** Where secret references in env and headers are resolved. */
  readonly secrets?: SecretStore | undefined;
  proxyOptions(): ProxyOptions;
  /** Publishes a snapshot; throws (publishing nothing) on a collision or limit. */
  admit(backendId: string, snapshot: BackendCatalog): Promise<void>;
  /** Takes the backend's items out of the catalog. */
  unpublish(backendId: string): void;
  /** Health changed (an invalidation). */
  changed(backendId: string): void;
  /** The backend sent a log message. */
  log(backendId: string, params: LoggingMessageNotification['params']): void;
  /** The backend reported an update of a subscribed resource (its own URI). */
  resourceUpdated(backendId: string, uri: string): void;
  /** The backend is up on a new connection (re-establish upstream state). */
  online(backendId: string): void;
  /** OAuth of a remote backend that may use it (undefined: none). */
  authFor?(backendId: string): BackendAuth | undefined;
}

/** Errors that another attempt cannot fix without a config change. */
const PERMANENT: ReadonlySet<string> = new Set([
  ErrorCode.NameCollision,
  ErrorCode.UriCollision,
  ErrorCode.CatalogLimit,
  ErrorCode.BackendLimit,
  ErrorCode.ConfigInvalid,
]);

/** Supervises one backend. */
export class BackendSupervisor {
  readonly stderrTail = new LineTail(50);
  private status: BackendStatus;
  private settled: boolean;
  private connection: BackendConnection | undefined;
  private snapshot: BackendCatalog | undefined;
  private lastError: BackendHealth['lastError'];
  private lastProbeAt: string | undefined;
  private probeFailures = 0;
  private restarts = 0;
  private started = false;
  private attempt = 0;
  private retryTimer: NodeJS.Timeout | undefined;
  private nextRetryAt: number | undefined;
  private probeTimer: NodeJS.Timeout | undefined;
  private probing = false;
  /** A list change arrived while connecting: re-list once admitted. */
  private pendingRefresh = false;
  private stopped = false;
  /** While authorization is needed: looks for new tokens in the keychain. */
  private authWatch: NodeJS.Timeout | undefined;
  private unsubscribeAuth: (() => void) | undefined;

  constructor(
    public config: BackendConfig,
    private readonly host: SupervisorHost,
  ) {
    this.status = config.enabled ? 'connecting' : 'disabled';
    this.settled = !config.enabled;
  }

  get id(): string {
    return this.config.id;
  }

  /**
   * The live connection, while the backend is up or degraded (or needs a
   * wider scope: the current grant still serves what it allows).
   */
  get liveConnection(): BackendConnection | undefined {
    const live = this.status === 'up' || this.status === 'degraded' || this.status === 'needs-authorization';
    return live ? this.connection : undefined;
  }

  /** The last published snapshot. */
  get lastSnapshot(): BackendCatalog | undefined {
    return this.snapshot;
  }

  /** Marks the backend as refused before it ever connects (e.g. beyond maxBackends). */
  refuse(error: SwitchboardError): void {
    this.stopped = true;
    this.fail(error);
  }

  /**
   * Connects, lists and publishes. Resolves to the error when the attempt
   * failed (a retry is scheduled unless the error needs a config change).
   */
  async start(options: { retry?: boolean } = {}): Promise<unknown> {
    if (this.stopped || !this.config.enabled) return undefined;
    this.clearRetry();
    if (this.started) this.restarts++;
    this.started = true;
    this.pendingRefresh = false;
    this.clearAuthWatch();
    const auth = this.host.authFor?.(this.id);
    this.unsubscribeAuth?.();
    this.unsubscribeAuth = auth?.onNeedsAuthorization(() => this.onAuthorizationLost(connection));
    const connection: BackendConnection = new BackendConnection({
      config: this.config,
      proxy: this.host.proxyOptions(),
      environment: this.host.deps.environment,
      secrets: this.host.secrets,
      clientInfo: this.host.deps.clientInfo,
      stderrTail: this.stderrTail,
      onUnexpectedClose: (error) => this.onDisconnected(connection, error),
      onListChanged: () => this.onListChanged(connection),
      onLog: (params) => this.host.log(this.id, params),
      onResourceUpdated: (uri) => this.host.resourceUpdated(this.id, uri),
      authProvider: auth?.transportAuth(),
      onAuthorizationProblem: (problem) => this.onAuthorizationProblem(connection, problem),
    });
    this.connection = connection;
    // An automatic retry stays `down` (with its error) until it succeeds.
    if (!options.retry) this.setStatus('connecting');
    try {
      await connection.connect();
      const snapshot = await connection.listCatalog();
      if (this.stopped || this.connection !== connection) {
        await connection.close();
        return new SwitchboardError(ErrorCode.BackendRemoved, `backend "${this.id}" was stopped while connecting`);
      }
      await this.host.admit(this.id, snapshot);
      this.snapshot = snapshot;
      this.attempt = 0;
      this.probeFailures = 0;
      this.lastError = undefined;
      this.setStatus('up');
      this.startProbing();
      this.host.online(this.id);
      if (this.pendingRefresh) void this.refresh();
      return undefined;
    } catch (error) {
      await connection.close();
      if (this.connection !== connection || this.stopped) return error;
      this.connection = undefined;
      if (error instanceof SwitchboardError && error.code === ErrorCode.AuthorizationRequired) {
        this.needAuthorization(error);
        return error;
      }
      this.fail(error);
      this.scheduleRetry(error);
      return error;
    }
  }

  /** Stops for good: no reconnect; in-flight requests fail with `reason`. */
  async stop(reason: SwitchboardError): Promise<void> {
    this.stopped = true;
    this.clearRetry();
    this.stopProbing();
    this.clearAuthWatch();
    this.unsubscribeAuth?.();
    const connection = this.connection;
    this.connection = undefined;
    this.host.unpublish(this.id);
    await connection?.close(reason);
  }

  /** Closes the connection and starts again now (resetting the backoff). */
  async restart(): Promise<unknown> {
    const connection = this.connection;
    this.connection = undefined;
    this.stopProbing();
    this.host.unpublish(this.id);
    await connection?.close(
      new SwitchboardError(ErrorCode.BackendUnavailable, `backend "${this.id}" is restarting`, { backend: this.id }),
    );
    this.attempt = 0;
    return this.start();
  }

  /**
   * Re-lists the catalog now. A failure keeps the last snapshot published and
   * marks the backend degraded; a success clears a refresh failure.
   */
  async refresh(): Promise<void> {
    const connection = this.liveConnection;
    if (!connection) {
      throw new SwitchboardError(ErrorCode.BackendUnavailable, `backend "${this.id}" is ${this.status}`, {
        backend: this.id,
      });
    }
    this.pendingRefresh = false;
    try {
      const snapshot = await connection.listCatalog();
      if (this.connection !== connection) return;
      await this.host.admit(this.id, snapshot);
      this.snapshot = snapshot;
      this.lastError = undefined;
      this.setStatus('up');
    } catch (error) {
      if (this.connection !== connection) return;
      this.lastError = { ...toErrorData(error), at: new Date().toISOString() };
      this.host.deps.logger.warn(`backend "${this.id}" refresh failed: ${this.lastError.message}`);
      this.setStatus('degraded');
    }
  }

  /** A list-changed notification: re-list now, or right after the first listing if still connecting. */
  private onListChanged(connection: BackendConnection): void {
    if (this.connection !== connection) return;
    if (this.liveConnection === connection) void this.refresh();
    else this.pendingRefresh = true;
  }

  /** Authorization was lost while connected (e.g. a refused refresh). */
  private onAuthorizationLost(connection: BackendConnection): void {
    if (this.connection === connection && this.liveConnection === connection) this.authorizationLost();
  }

  /**
   * The backend's OAuth authorization is gone (refused refresh, sign-out):
   * disconnect, take its items out and wait for the user.
   */
  authorizationLost(): void {
    if (this.stopped || !this.config.enabled) return;
    const connection = this.connection;
    this.connection = undefined;
    this.clearRetry();
    this.stopProbing();
    this.host.unpublish(this.id);
    const reason = this.host.authFor?.(this.id)?.pendingReason ?? 'authorization was lost';
    const error = authorizationRequired(this.id, { reason, stepUp: false });
    // Requests in flight fail with why.
    void connection?.close(error);
    this.needAuthorization(error);
  }

  /**
   * A request failed for want of authorization. A 403 insufficient_scope
   * (step-up) keeps the connection and catalog, which the current grant still
   * serves; anything else disconnects until the user authorizes.
   */
  private onAuthorizationProblem(connection: BackendConnection, problem: AuthorizationProblem): void {
    if (this.stopped || this.connection !== connection) return;
    if (!problem.stepUp) return this.onAuthorizationLost(connection);
    const reason = this.host.authFor?.(this.id)?.stepUp(problem.scope) ?? problem.reason;
    this.lastError = {
      ...authorizationRequired(this.id, { ...problem, reason }).toData(),
      at: new Date().toISOString(),
    };
    this.host.deps.logger.warn(`backend "${this.id}" needs authorization: ${reason}`);
    this.setStatus('needs-authorization');
  }

  /** Not retried: waits for new tokens (looked for every health interval). */
  private needAuthorization(error: SwitchboardError): void {
    this.lastError = { ...error.toData(), at: new Date().toISOString() };
    this.host.deps.logger.warn(`backend "${this.id}" ${error.message.replace(`backend "${this.id}" `, '')}`);
    this.setStatus('needs-authorization');
    const auth = this.host.authFor?.(this.id);
    if (!auth || this.stopped) return;
    this.clearAuthWatch();
    this.authWatch = setInterval(() => {
      void auth.storedTokensChanged().then((changed) => {
        if (changed && !this.stopped && this.status === 'needs-authorization' && !this.connection) void this.restart();
      });
    }, this.host.proxyOptions().healthIntervalMs);
    this.authWatch.unref();
  }

  private clearAuthWatch(): void {
    if (this.authWatch) clearInterval(this.authWatch);
    this.authWatch = undefined;
  }

  private onDisconnected(connection: BackendConnection, error: SwitchboardError): void {
    if (this.stopped || this.connection !== connection) return;
    this.connection = undefined;
    this.stopProbing();
    this.host.unpublish(this.id);
    this.fail(error);
    void connection.close();
    this.scheduleRetry(error);
  }

  private scheduleRetry(error: unknown): void {
    if (this.stopped) return;
    if (error instanceof SwitchboardError && PERMANENT.has(error.code)) return;
    const { reconnectInitialMs, reconnectMaxMs } = this.host.proxyOptions();
    const delay = reconnectDelay(this.attempt++, reconnectInitialMs, reconnectMaxMs);
    this.nextRetryAt = Date.now() + delay;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      this.nextRetryAt = undefined;
      void this.start({ retry: true });
    }, delay);
    this.retryTimer.unref();
    this.host.changed(this.id);
  }

  private clearRetry(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    this.nextRetryAt = undefined;
  }

  private startProbing(): void {
    this.stopProbing();
    this.probeTimer = setInterval(() => void this.probe(), this.host.proxyOptions().healthIntervalMs);
    this.probeTimer.unref();
  }

  private stopProbing(): void {
    if (this.probeTimer) clearInterval(this.probeTimer);
    this.probeTimer = undefined;
  }

  /**
   * One health probe: `ping` on a 2025-era connection, `tools/list` on a
   * 2026-07-28 one (ping was removed in that revision).
   */
  async probe(): Promise<void> {
    const connection = this.liveConnection;
    if (!connection || this.probing) return;
    this.probing = true;
    try {
      await connection.run('health probe', ({ signal, sdkTimeoutMs }) => {
        const options = { signal, timeout: sdkTimeoutMs() };
        return connection.era === 'modern'
          ? connection.sdkClient.listTools(undefined, { ...options, cacheMode: 'bypass' })
          : connection.sdkClient.ping(options);
      });
      if (this.connection !== connection) return;
      this.probeFailures = 0;
      this.lastProbeAt = new Date().toISOString();
      if (this.status === 'degraded' && this.lastError?.code === 'probe_failed') {
        this.lastError = undefined;
        this.setStatus('up');
      } else {
        this.host.changed(this.id);
      }
    } catch (error) {
      if (this.connection !== connection) return;
      this.probeFailures++;
      const { probeFailureThreshold } = this.host.proxyOptions();
      if (this.probeFailures >= probeFailureThreshold) {
        const message = error instanceof Error ? error.message : String(error);
        this.lastError = {
          code: 'probe_failed',
          message: `${this.probeFailures} health probes in a row failed; last: ${message}`,
          at: new Date().toISOString(),
        };
        this.setStatus('degraded');
      } else {
        this.host.changed(this.id);
      }
    } finally {
      this.probing = false;
    }
  }

  private fail(error: unknown): void {
    this.lastError = { ...toErrorData(error), at: new Date().toISOString() };
    this.host.deps.logger.warn(`backend "${this.id}" is down: ${this.lastError.message}`);
    this.setStatus('down');
  }

  private setStatus(status: BackendStatus): void {
    if (status !== 'connecting') this.settled = true;
    this.status = status;
    this.host.changed(this.id);
  }

  /** Whether the first connection attempt has finished. */
  get isSettled(): boolean {
    return this.settled;
  }

  get currentStatus(): BackendStatus {
    return this.status;
  }

  /** Health without catalog counts (the core adds those). */
  health(): Omit<BackendHealth, 'counts' | 'warnings'> {
    const connection = this.connection;
    const health: Omit<BackendHealth, 'counts' | 'warnings'> = {
      id: this.id,
      transport: this.config.transport,
      status: this.status,
      settled: this.settled,
      probeFailures: this.probeFailures,
      restarts: this.restarts,
      outstandingRequests: connection?.outstanding ?? 0,
    };
    if (this.lastError) health.lastError = this.lastError;
    if (this.lastProbeAt) health.lastProbeAt = this.lastProbeAt;
    if (this.nextRetryAt) health.nextRetryAt = new Date(this.nextRetryAt).toISOString();
    if (connection?.era) health.era = connection.era;
    if (connection?.protocolVersion) health.protocolVersion = connection.protocolVersion;
    if (connection?.serverInfo) health.serverInfo = connection.serverInfo;
    if (connection?.pid !== undefined) health.pid = connection.pid;
    if (this.config.transport === 'stdio') health.stderrTail = this.stderrTail.snapshot();
    const auth = this.host.authFor?.(this.id);
    if (auth) health.auth = auth.summary();
    return health;
  }
}
