/**
 * The life of one backend: connect, list, publish through the host, probe its health, refresh on
 * its list-changed notifications, and reconnect with backoff when it drops. Status follows one
 * rule set (each change logged once, repeats summarized: stateLog.ts): `connecting` -> `up`; probe
 * or refresh failures -> `degraded` (last snapshot stays published); disconnected -> `down` (items
 * leave the catalog) until a reconnect succeeds; `disabled` when the user turned it off;
 * `needs-authorization` when a remote backend needs the user to sign in (OAuth): never retried in
 * a loop, it connects again once new tokens are in the keychain (from here or another process).
 */
import { ErrorCode, SwitchboardError } from '../../../shared/errors.js';
import { toErrorData } from '../errors/toErrorData.js';
import type { BackendHealth, BackendStatus } from '../../../shared/model/health.js';
import { startModeOf, type BackendConfig } from '../config/schema.js';
import { BackendConnection, type BackendCatalog } from './backendConnection.js';
import { ReconnectSchedule } from './backoff.js';
import { HealthProbe } from './healthProbe.js';
import { BackendStateLog } from './stateLog.js';
import { OnDemandStart } from './onDemand.js';
import { supervisorHealth } from './supervisorHealth.js';
import { SupervisorAuthorization } from './supervisorAuthorization.js';
import type { SupervisorHost } from './supervisorHost.js';
import { LineTail } from './transports.js';

/** Supervises one backend. */
export class BackendSupervisor {
  readonly stderrTail = new LineTail(50);
  private status: BackendStatus;
  private settled: boolean;
  private connection: BackendConnection | undefined;
  private snapshot: BackendCatalog | undefined;
  private lastError: BackendHealth['lastError'];
  private restarts = 0;
  private started = false;
  private readonly reconnect = new ReconnectSchedule();
  private readonly stateLog = new BackendStateLog({ id: () => this.id, logger: () => this.host.deps.logger });
  private readonly prober = new HealthProbe({
    liveConnection: () => this.liveConnection,
    isCurrent: (connection) => this.connection === connection,
    intervalMs: () => this.host.proxyOptions().healthIntervalMs,
    succeeded: () => this.onProbeSucceeded(),
    failed: (failures, error) => this.onProbeFailed(failures, error),
  });
  /** A list change arrived while connecting: re-list once admitted. */
  private pendingRefresh = false;
  private stopped = false;
  /** OAuth: lost authorization, step-up, waiting for the user's new tokens. */
  private readonly authorization: SupervisorAuthorization;
  /** The published snapshot came from the catalog cache (no live listing yet). */
  private fromCache = false;
  /** How long the last start took, slot acquired to catalog listed (ms). */
  private startMs: number | undefined;
  /** Requests waiting for a start, and the idle stop of an on-demand server (see onDemand.ts). */
  private readonly demand: OnDemandStart;

  constructor(
    public config: BackendConfig,
    private readonly host: SupervisorHost,
  ) {
    this.status = config.enabled ? 'connecting' : 'disabled';
    this.settled = !config.enabled;
    this.demand = new OnDemandStart({
      id: config.id,
      logger: host.deps.logger,
      status: () => this.status,
      isStopped: () => this.stopped,
      live: () => this.liveConnection,
      start: () => void this.start(),
      takeIdle: () => {
        // Only a live connection goes idle: one still starting is left alone.
        const connection = this.liveConnection;
        if (!connection) return undefined;
        this.connection = undefined;
        this.prober.stop();
        this.setStatus('idle');
        return connection;
      },
      idleTimeoutMs: () => this.config.idleTimeoutMs ?? this.host.proxyOptions().idleTimeoutMs,
      subscribed: () => this.host.inUse?.(this.id) === true,
    });
    this.authorization = new SupervisorAuthorization({
      id: config.id,
      host,
      isStopped: () => this.stopped,
      isEnabled: () => this.config.enabled,
      current: () => this.connection,
      live: () => this.liveConnection,
      isWaiting: () => !this.stopped && this.status === 'needs-authorization' && !this.connection,
      detach: () => {
        this.reconnect.clear();
        return this.detach();
      },
      needsAuthorization: (lastError) => {
        this.lastError = lastError;
        this.setStatus('needs-authorization');
      },
      restart: () => void this.restart(),
    });
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
    this.reconnect.clear();
    // Waking an idle on-demand server is its normal life, not a restart.
    if (this.started && this.status !== 'idle') this.restarts++;
    this.started = true;
    this.pendingRefresh = false;
    const authProvider = this.authorization.attach(() => this.authorization.connectionLost(connection));
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
      authProvider,
      onAuthorizationProblem: (problem) => this.authorization.problem(connection, problem),
    });
    this.connection = connection;
    // An automatic retry stays `down` (with its error) until it succeeds.
    if (!options.retry) this.setStatus('connecting');
    let release: (() => void) | undefined;
    try {
      // Bounded start-up: only spawning children count (a remote server costs us no CPU to start).
      if (this.config.transport === 'stdio') release = await this.host.startSlot?.();
      const began = Date.now();
      await connection.connect();
      const snapshot = await connection.listCatalog();
      release?.();
      this.startMs = Date.now() - began;
      if (this.stopped || this.connection !== connection) {
        await connection.close();
        return new SwitchboardError(ErrorCode.BackendRemoved, `backend "${this.id}" was stopped while connecting`);
      }
      await this.host.admit(this.id, snapshot);
      this.snapshot = snapshot;
      this.fromCache = false;
      this.host.catalogListed?.(this.id, snapshot);
      this.reconnect.reset();
      this.prober.resetFailures();
      this.lastError = undefined;
      this.setStatus('up');
      this.prober.start();
      this.host.online(this.id);
      if (startModeOf(this.config, this.host.proxyOptions()) === 'on-demand') this.demand.armIdle();
      if (this.pendingRefresh) void this.refresh();
      return undefined;
    } catch (error) {
      release?.();
      await connection.close();
      if (this.connection !== connection || this.stopped) return error;
      this.connection = undefined;
      // A cached catalog stays only while the backend may still come up: failed, its items leave.
      this.host.unpublish(this.id);
      this.fromCache = false;
      if (error instanceof SwitchboardError && error.code === ErrorCode.AuthorizationRequired) {
        this.authorization.required(error);
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
    this.reconnect.clear();
    this.demand.stop();
    this.authorization.detach();
    await this.detach()?.close(reason);
  }

  /** Closes the connection and starts again now (resetting the backoff). */
  async restart(): Promise<unknown> {
    await this.detach()?.close(
      new SwitchboardError(ErrorCode.BackendUnavailable, `backend "${this.id}" is restarting`, { backend: this.id }),
    );
    this.reconnect.reset();
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
      this.host.catalogListed?.(this.id, snapshot);
      this.lastError = undefined;
      this.setStatus('up');
    } catch (error) {
      if (this.connection !== connection) return;
      this.lastError = { ...toErrorData(error), at: new Date().toISOString() };
      this.setStatus('degraded');
    }
  }

  /** A list-changed notification: re-list now, or right after the first listing if still connecting. */
  private onListChanged(connection: BackendConnection): void {
    if (this.connection !== connection) return;
    if (this.liveConnection === connection) void this.refresh();
    else this.pendingRefresh = true;
  }

  /**
   * The backend's OAuth authorization is gone (refused refresh, sign-out):
   * disconnect, take its items out and wait for the user.
   */
  authorizationLost(): void {
    this.authorization.lost();
  }

  /** Takes the current connection out (no probe, items unpublished); returns it, still open. */
  private detach(): BackendConnection | undefined {
    const connection = this.connection;
    this.connection = undefined;
    this.prober.stop();
    this.host.unpublish(this.id);
    return connection;
  }

  private onDisconnected(connection: BackendConnection, error: SwitchboardError): void {
    if (this.stopped || this.connection !== connection) return;
    this.detach();
    this.fail(error);
    void connection.close();
    this.scheduleRetry(error);
  }

  private scheduleRetry(error: unknown): void {
    if (this.stopped) return;
    const retry = (): void => void this.start({ retry: true });
    if (this.reconnect.schedule(error, this.host.proxyOptions(), retry)) this.host.changed(this.id);
  }

  /** One health probe now (the timer's probe; see HealthProbe). */
  probe(): Promise<void> {
    return this.prober.run();
  }

  /** A probe answered: a backend degraded by probes alone is up again. */
  private onProbeSucceeded(): void {
    if (this.status === 'degraded' && this.lastError?.code === ErrorCode.ProbeFailed) {
      this.lastError = undefined;
      this.setStatus('up');
    } else {
      this.host.changed(this.id);
    }
  }

  /** Degraded once `probeFailureThreshold` probes in a row failed (the catalog stays published). */
  private onProbeFailed(failures: number, error: unknown): void {
    if (failures < this.host.proxyOptions().probeFailureThreshold) return this.host.changed(this.id);
    const message = error instanceof Error ? error.message : String(error);
    this.lastError = {
      code: ErrorCode.ProbeFailed,
      message: `${failures} health probes in a row failed; last: ${message}`,
      at: new Date().toISOString(),
    };
    this.setStatus('degraded');
  }

  private fail(error: unknown): void {
    this.lastError = { ...toErrorData(error), at: new Date().toISOString() };
    this.setStatus('down');
  }

  private setStatus(status: BackendStatus): void {
    this.stateLog.status(status, this.lastError?.message ?? ''); // changes once each, repeats summarized
    if (status !== 'connecting') this.settled = true;
    this.status = status;
    this.demand.statusChanged(status);
    this.host.changed(this.id);
  }

  /**
   * Publishes a cached catalog before the backend starts; with `idle` (an
   * on-demand server) it is not started until a request needs it.
   */
  seedFromCache(snapshot: BackendCatalog, idle: boolean): void {
    this.snapshot = snapshot;
    this.fromCache = true;
    if (idle) this.setStatus('idle');
  }

  /** The live connection for a request; a starting backend is waited for, an idle one started (see OnDemandStart). */
  acquire(timeoutMs: number, signal?: AbortSignal): ReturnType<OnDemandStart['acquire']> {
    return this.demand.acquire(timeoutMs, signal);
  }

  /** Whether the published catalog is the cached one (no live listing yet). */
  get publishedFromCache(): boolean {
    return this.fromCache;
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
    return supervisorHealth({
      config: this.config,
      status: this.status,
      settled: this.settled,
      connection: this.connection,
      probeFailures: this.prober.failures,
      lastProbeAt: this.prober.lastProbeAt,
      restarts: this.restarts,
      lastError: this.lastError,
      nextRetryAt: this.reconnect.nextRetryAt,
      stderrTail: this.stderrTail,
      auth: this.host.authFor?.(this.id),
      cached: this.fromCache,
      start: startModeOf(this.config, this.host.proxyOptions()),
      startMs: this.startMs,
    });
  }
}
