/**
 * The life of one backend: connect, list, publish through the host, probe its health, refresh on
 * its list-changed notifications, and reconnect with backoff when it drops. Status follows one
 * rule set (each change logged once, repeats summarized: stateLog.ts): `connecting` -> `up`; probe
 * or refresh failures -> `degraded` (last snapshot stays published); disconnected -> `down` (items
 * leave the catalog) until a reconnect succeeds; `disabled` when the user turned it off;
 * `needs-authorization` when a remote backend needs the user to sign in (OAuth): never retried in
 * a loop, it connects again once new tokens are in the keychain (from here or another process).
 *
 * Each start makes a new connection with the core's platform pieces, every report of it wired back
 * here with the connection it concerns (a report of a replaced connection is ignored). The health
 * report (without catalog counts, which the core adds) says what the state, the connection and OAuth
 * say, and never a secret.
 */
import { ErrorCode, SwitchboardError } from '../../../../shared/errors.js';
import type { BackendHealth, BackendStatus } from '../../../../shared/model/health.js';
import {
  hasCallerConnections,
  isPerPrincipal,
  isTokenExchange,
  sandboxOf,
  startModeOf,
  type BackendConfig,
  type StdioBackendConfig,
} from '../../platform/config/schema.js';
import { LOCAL_PRINCIPAL_ID } from '../../platform/config/principalId.js';
import { authorizationProblem, authorizationRequired } from '../../platform/auth/authErrors.js';
import { defaultStateDir } from '../../platform/config/paths.js';
import { SandboxWatch } from '../process/sandbox/sandboxWatch.js';
import { sandboxView } from '../process/sandbox/sandboxedLaunch.js';
import { BackendConnection, type BackendCatalog } from '../connection/backendConnection.js';
import { ReconnectSchedule } from './backoff.js';
import { HealthProbe } from './healthProbe.js';
import { OnDemandStart } from './onDemand.js';
import { CallerConnections } from './callerConnections.js';
import { PrincipalProcesses } from './principalProcesses.js';
import { signInCatalog, signInRequired } from './signInRequired.js';
import { SupervisorAuthorization } from './supervisorAuthorization.js';
import { SupervisorCatalog } from './supervisorCatalog.js';
import { SupervisorStatus } from './supervisorStatus.js';
import type { SupervisorHost } from './supervisorHost.js';
import type { AuthProvider } from '@modelcontextprotocol/client';
import { LineTail, type LaunchOptions } from '../transport/transports.js';

/** Supervises one backend. */
export class BackendSupervisor {
  readonly stderrTail = new LineTail(50);
  /** Its sandbox as health shows it, and what it was refused (outlives each connection, as the tail does). */
  readonly sandboxWatch = new SandboxWatch(() => this.host.changed(this.id));
  private readonly state: SupervisorStatus;
  private connection: BackendConnection | undefined;
  private readonly catalog: SupervisorCatalog;
  private started = false;
  private firstStart: Promise<unknown> | undefined;
  private readonly reconnect = new ReconnectSchedule();
  private readonly prober = new HealthProbe({
    liveConnection: () => this.liveConnection,
    isCurrent: (connection) => this.connection === connection,
    intervalMs: () => this.host.proxyOptions().healthIntervalMs,
    succeeded: () => this.state.probeSucceeded(),
    failed: (failures, error) =>
      this.state.probeFailed(failures, this.host.proxyOptions().probeFailureThreshold, error),
  });
  private stopped = false;
  /** OAuth: lost authorization, step-up, waiting for the user's new tokens. */
  private readonly authorization: SupervisorAuthorization;
  /** Requests waiting for a start, and the idle stop of an on-demand server (see onDemand.ts). */
  private readonly demand: OnDemandStart;
  /**
   * A per-caller backend's connections, one per caller (callerConnections.ts). Its own
   * connection then only lists the catalog, with the first signed-in caller's credential.
   * A per-principal stdio server's processes, one per signed-in person; its own
   * process is the local user's (`${principal.id}` = `local`), which lists the catalog.
   */
  readonly callers: CallerConnections;
  /** A per-principal stdio server's people's processes (kept in `callers`). */
  private readonly principals: PrincipalProcesses;

  constructor(
    public config: BackendConfig,
    private readonly host: SupervisorHost,
  ) {
    this.state = new SupervisorStatus(config.enabled, {
      id: () => this.id,
      logger: () => host.deps.logger,
      changed: (status) => {
        if (status !== undefined) this.demand.statusChanged(status);
        host.changed(this.id);
      },
    });
    this.catalog = new SupervisorCatalog({
      id: config.id,
      host,
      current: () => this.connection,
      live: () => this.liveConnection,
      status: () => this.state.status,
      startMs: () => this.state.startMs,
      up: () => this.state.up(),
      degrade: (error) => this.state.degrade(error),
    });
    this.demand = new OnDemandStart({
      id: config.id,
      logger: host.deps.logger,
      status: () => this.state.status,
      isStopped: () => this.stopped,
      live: () => this.liveConnection,
      start: () => void this.start(),
      // A cached backend whose launch is deferred (backendLaunch.ts): a request starts it now.
      startIfDeferred: () => void (this.started || this.startOnce()),
      takeIdle: () => {
        // Only a live connection goes idle: one still starting is left alone.
        const connection = this.liveConnection;
        if (!connection) return undefined;
        this.connection = undefined;
        this.prober.stop();
        this.state.set('idle');
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
      isWaiting: () => !this.stopped && this.state.status === 'needs-authorization' && !this.connection,
      detach: () => {
        this.reconnect.clear();
        return this.detach();
      },
      needsAuthorization: (lastError) => this.state.needsAuthorization(lastError),
      restart: () => void this.restart(),
    });
    this.callers = new CallerConnections({
      id: config.id,
      open: (caller, onClosed) => this.newCallerConnection(caller, onClosed),
      max: () => this.host.proxyOptions().maxCallerConnections,
      idleMs: () => this.config.idleTimeoutMs ?? this.host.proxyOptions().idleTimeoutMs,
      sizeChanged: () => {
        if (this.perPrincipal) host.changed(this.id);
      },
      held: (caller) => this.host.inUse?.(this.id, caller) === true,
      closed: (caller, renew) => this.host.callerClosed?.(this.id, caller, renew),
    });
    this.principals = new PrincipalProcesses(
      {
        config: () => this.config as StdioBackendConfig,
        host,
        stderrTail: this.stderrTail,
        sandbox: () => this.sandboxLaunch(),
        serving: () => !this.stopped && this.config.enabled,
      },
      this.callers,
    );
  }

  /** Whether each caller reaches this backend with their own credential (per-caller or token exchange). */
  get perCaller(): boolean {
    return hasCallerConnections(this.config);
  }

  /**
   * A per-caller backend's connection for one caller: theirs, started on
   * demand; a caller without tokens (or whose tokens stopped working) gets
   * the error carrying their own sign-in link, never another caller's connection.
   */
  async callerConnection(caller: string, signal?: AbortSignal, person?: string): Promise<BackendConnection> {
    if (isTokenExchange(this.config)) return this.exchangedConnection(caller, signal);
    const credentials = this.host.callerCredentials;
    if (!credentials || credentials.problem) throw this.keyMissing();
    if (!(await credentials.tokens(this.id, caller)))
      throw signInRequired(this.id, await credentials.signIn.link(this.id, caller, person));
    try {
      return await this.callers.acquire(caller, signal);
    } catch (error) {
      if (!authorizationProblem(error)) throw error;
      throw signInRequired(this.id, await credentials.signIn.link(this.id, caller, person));
    }
  }

  /** Whether each signed-in person gets their own process of this stdio server. */
  get perPrincipal(): boolean {
    return isPerPrincipal(this.config);
  }

  /** A signed-in person's own process of a per-principal server (principalProcesses.ts), never anyone else's. */
  principalConnection(caller: string, signal?: AbortSignal): Promise<BackendConnection> {
    return this.principals.connection(caller, signal);
  }

  /** A token-exchange backend's connection for one caller: their own, with their exchanged token. */
  private async exchangedConnection(caller: string, signal?: AbortSignal): Promise<BackendConnection> {
    if (!this.host.tokenExchange) throw this.exchangeUnavailable();
    try {
      return await this.callers.acquire(caller, signal);
    } catch (error) {
      const problem = authorizationProblem(error);
      if (!problem) throw error;
      throw new SwitchboardError(
        ErrorCode.AuthorizationRequired,
        `backend "${this.id}": your gateway sign-in could not be exchanged for its token: ${problem.reason}`,
        { backend: this.id, reason: problem.reason },
      );
    }
  }

  private exchangeUnavailable(): SwitchboardError {
    return new SwitchboardError(
      ErrorCode.ConfigInvalid,
      `backend "${this.id}": token exchange needs gateway mode (a "gateway" section)`,
      { backend: this.id },
    );
  }

  /** A caller signed in: a per-caller backend waiting for its first signed-in caller lists its catalog now. */
  callerSignedIn(): void {
    if (this.stopped || this.connection || this.state.status !== 'needs-authorization') return;
    void this.restart();
  }

  private keyMissing(): SwitchboardError {
    const problem = this.host.callerCredentials?.problem ?? 'per-caller credentials are not available here';
    return new SwitchboardError(ErrorCode.ConfigInvalid, `backend "${this.id}": ${problem}`, { backend: this.id });
  }

  /**
   * The caller whose credential lists a per-caller backend's catalog (the
   * first signed in), or why it cannot start: no key (a config problem, not
   * retried) or nobody signed in yet (waits for the first sign-in).
   */
  private async catalogCaller(): Promise<{ caller: string } | { error: SwitchboardError }> {
    if (isTokenExchange(this.config)) return this.exchangeCatalogCaller();
    const credentials = this.host.callerCredentials;
    if (!credentials || credentials.problem) return { error: this.keyMissing() };
    const [caller] = await credentials.callers(this.id);
    if (caller !== undefined) return { caller };
    const reason =
      'nobody has signed in to it yet: each caller signs in with the link their first call answers with, ' +
      'or from `mcp-switchboard connections`';
    return { error: authorizationRequired(this.id, { reason, stepUp: false }) };
  }

  /** A token-exchange backend's catalog is listed as the person seen most recently; until anyone is, it waits. */
  private exchangeCatalogCaller(): { caller: string } | { error: SwitchboardError } {
    const exchange = this.host.tokenExchange;
    if (!exchange?.available()) return { error: this.exchangeUnavailable() };
    const caller = exchange.catalogCaller();
    if (caller !== undefined) return { caller };
    const reason = 'nobody has signed in to the gateway since it started: the first person who does lists its catalog';
    // Not `authorize`: nobody signs in to this server itself (the gateway's sign-ins are exchanged).
    const error = new SwitchboardError(ErrorCode.AuthorizationRequired, `backend "${this.id}" waits: ${reason}`, {
      backend: this.id,
      reason,
    });
    return { error };
  }

  get id(): string {
    return this.config.id;
  }

  /**
   * The live connection, while the backend is up or degraded (or needs a
   * wider scope: the current grant still serves what it allows).
   */
  get liveConnection(): BackendConnection | undefined {
    return this.state.live ? this.connection : undefined;
  }

  /** The last published snapshot. */
  get lastSnapshot(): BackendCatalog | undefined {
    return this.catalog.snapshot;
  }

  /** Marks the backend as refused before it ever connects (e.g. beyond maxBackends). */
  refuse(error: SwitchboardError): void {
    this.stopped = true;
    this.state.fail(error);
  }

  /**
   * Connects, lists and publishes. Resolves to the error when the attempt
   * failed (a retry is scheduled unless the error needs a config change).
   */
  async start(options: { retry?: boolean } = {}): Promise<unknown> {
    if (this.stopped || !this.config.enabled) return undefined;
    this.reconnect.clear();
    // Waking an idle on-demand server is its normal life, not a restart.
    if (this.started && this.state.status !== 'idle') this.state.restarts++;
    this.started = true;
    this.catalog.attemptStarted();
    let caller: string | undefined;
    if (this.perCaller) {
      const chosen = await this.catalogCaller();
      if ('error' in chosen) return this.notStartable(chosen.error);
      caller = chosen.caller;
    }
    const connection = this.newConnection(caller);
    this.connection = connection;
    // An automatic retry stays `down` (with its error) until it succeeds.
    if (!options.retry) this.state.set('connecting');
    let release: (() => void) | undefined;
    try {
      // Bounded start-up: only children count (a remote server costs us no CPU to start), and only
      // while their CPU time grows (startLimiter.ts): one waiting on a timer or the network does not.
      // A child gets the login shell's PATH: its start waits for the shell's answer (deps.ts).
      if (this.config.transport === 'stdio' || this.config.launch) await this.host.deps.environmentReady;
      if (this.config.transport === 'stdio') release = await this.host.startSlot?.(undefined, () => connection.pid);
      const began = Date.now();
      await connection.connect();
      const snapshot = await connection.listCatalog();
      release?.();
      this.state.startMs = Date.now() - began;
      if (this.stopped || this.connection !== connection) {
        await connection.close();
        return new SwitchboardError(ErrorCode.BackendRemoved, `backend "${this.id}" was stopped while connecting`);
      }
      await this.catalog.publish(snapshot);
      this.reconnect.reset();
      this.prober.resetFailures();
      this.state.up();
      this.prober.start();
      this.host.online(this.id);
      if (startModeOf(this.config, this.host.proxyOptions()) === 'on-demand') this.demand.armIdle();
      this.catalog.admitted();
      // Its listing was scanned: a never-approved server found high-severity is contained from now on.
      if (this.host.quarantine) void this.containmentChanged();
      return undefined;
    } catch (error) {
      release?.();
      await connection.close();
      if (this.connection !== connection || this.stopped) return error;
      this.connection = undefined;
      // A cached catalog stays only while the backend may still come up: failed, its items leave.
      this.host.unpublish(this.id);
      this.catalog.attemptFailed();
      if (error instanceof SwitchboardError && error.code === ErrorCode.AuthorizationRequired) {
        this.authorization.required(error);
        return error;
      }
      this.state.fail(error);
      this.scheduleRetry(error);
      return error;
    }
  }

  /**
   * A per-caller backend that cannot list its catalog: without a key it is
   * down for a config problem; without a signed-in caller it waits, keeping a
   * cached catalog published so a caller's first call can still ask them to sign in.
   */
  private notStartable(error: SwitchboardError): SwitchboardError {
    if (error.code === ErrorCode.AuthorizationRequired) {
      // What is published (the cache, or the last listing) stays: its callers are asked to sign in.
      this.authorization.required(error);
      // Nothing published and nobody signed in: one tool whose call answers each caller with their own link.
      if (this.perCaller && !isTokenExchange(this.config) && !this.catalog.snapshot) {
        this.catalog.publishStandIn(signInCatalog(this.id)).catch((refused: unknown) => {
          this.host.deps.logger.warn(`"${this.id}": its sign-in tool was not published: ${String(refused)}`);
        });
      }
    } else {
      this.host.unpublish(this.id);
      this.catalog.attemptFailed();
      this.state.fail(error);
    }
    return error;
  }

  /** The first start, once: a cached backend's deferred launch and a request needing it sooner share it. */
  startOnce(): Promise<unknown> {
    this.firstStart ??= this.start();
    return this.firstStart;
  }

  /** Stops for good: no reconnect; in-flight requests fail with `reason`. */
  async stop(reason: SwitchboardError): Promise<void> {
    this.stopped = true;
    this.reconnect.clear();
    this.demand.stop();
    this.authorization.detach();
    await this.callers.closeAll(reason);
    await this.detach()?.close(reason);
    await this.sandboxWatch.closeProxy();
  }

  /** Closes the connection and starts again now (resetting the backoff). */
  async restart(): Promise<unknown> {
    await this.detach()?.close(
      new SwitchboardError(ErrorCode.BackendUnavailable, `backend "${this.id}" is restarting`, { backend: this.id }),
    );
    this.reconnect.reset();
    return this.start();
  }

  /** Re-lists the catalog now (see SupervisorCatalog.refresh). */
  refresh(): Promise<void> {
    return this.catalog.refresh();
  }

  /**
   * The backend's OAuth authorization is gone (refused refresh, sign-out):
   * disconnect, take its items out and wait for the user.
   */
  authorizationLost(): void {
    this.authorization.lost();
  }

  /**
   * Makes the connection of one start attempt (not connected yet), its reports wired back here;
   * a per-caller backend's sends `caller`'s credential (it only lists the catalog).
   */
  private newConnection(caller?: string): BackendConnection {
    const { config, host, authorization } = this;
    const authProvider =
      caller !== undefined
        ? this.callerAuth(caller)
        : authorization.attach(() => authorization.connectionLost(connection));
    const connection: BackendConnection = new BackendConnection({
      config,
      proxy: host.proxyOptions(),
      environment: host.deps.environment,
      secrets: host.secrets,
      clientInfo: host.deps.clientInfo,
      stderrTail: this.stderrTail,
      sandbox: this.sandboxLaunch(),
      eras: host.eras,
      onUnexpectedClose: (error) => this.onDisconnected(connection, error),
      onListChanged: () => this.catalog.listChanged(connection),
      // A new session (the backend forgot ours): what it serves may have changed meanwhile.
      onSessionRenewed: () => this.catalog.listChanged(connection),
      onLog: (params) => host.log(config.id, params),
      onNotificationsLimited: () => host.changed(config.id),
      logger: host.deps.logger,
      onResourceUpdated: (uri) => host.resourceUpdated(config.id, uri),
      onTaskStatus: (params) => host.taskStatus?.(config.id, params),
      authProvider,
      onAuthorizationProblem: (problem) =>
        caller === undefined ? authorization.problem(connection, problem) : this.nextCatalogCaller(connection),
      principalId: this.perPrincipal ? LOCAL_PRINCIPAL_ID : undefined,
    });
    return connection;
  }

  /**
   * The caller whose credential listed a per-caller backend's catalog lost it
   * (revoked, refused): a new connection lists it with the next signed-in
   * caller (never the same session with another credential); the items stay published.
   */
  private nextCatalogCaller(connection: BackendConnection): void {
    if (this.stopped || this.connection !== connection) return;
    this.connection = undefined;
    this.prober.stop();
    void connection.close();
    void this.start();
  }

  /**
   * One caller's own connection to a per-caller backend: their credential
   * only; its catalog is not used (the backend's catalog comes from its own
   * connection); it carries the caller's tasks and resource subscriptions;
   * its logs are not forwarded.
   */
  private newCallerConnection(caller: string, onClosed: () => void): BackendConnection {
    const { config, host } = this;
    if (this.perPrincipal) return this.principals.open(caller, onClosed);
    const authProvider = this.callerAuth(caller);
    const connection: BackendConnection = new BackendConnection({
      config,
      proxy: host.proxyOptions(),
      environment: host.deps.environment,
      secrets: host.secrets,
      clientInfo: host.deps.clientInfo,
      stderrTail: this.stderrTail,
      eras: host.eras,
      onUnexpectedClose: onClosed,
      onListChanged: () => undefined,
      // No onLog: a caller's upstream log lines may carry their data, and logs go to every client.
      onNotificationsLimited: () => host.changed(config.id),
      logger: host.deps.logger,
      // The caller's own subscriptions (subscriptionHub.ts): their updates, for their sessions only.
      onResourceUpdated: (uri) => host.resourceUpdated(config.id, uri, caller),
      authProvider,
      onAuthorizationProblem: (problem) => void this.callers.close(caller, authorizationRequired(config.id, problem)),
    });
    return connection;
  }

  /** The bearer token of `caller`'s connections: their exchanged token, or their own sign-in's. */
  private callerAuth(caller: string): AuthProvider {
    const { config, host } = this;
    if (isTokenExchange(config)) {
      if (!host.tokenExchange) throw this.exchangeUnavailable();
      return host.tokenExchange.transportAuth(config, caller);
    }
    if (config.transport === 'stdio' || !host.callerCredentials) throw this.keyMissing();
    return host.callerCredentials.transportAuth(config, caller);
  }

  /**
   * Its quarantine changed (approved, put back under review, a high finding
   * on a never-approved server): a stdio server running under the other
   * containment starts again under the one in force now; resolves once that
   * start settled (its own connect timeout bounds it), so an approval answers
   * with the server serving again.
   */
  async containmentChanged(): Promise<void> {
    if (this.config.transport !== 'stdio' || this.stopped || !this.started) return;
    const now = JSON.stringify(this.host.quarantine?.(this.id) ?? null);
    if (now === this.launchedQuarantine) return;
    if (this.connection || this.state.status === 'down') await this.restart();
  }

  /** The quarantine its last launch ran under (JSON; undefined: not launched yet). */
  private launchedQuarantine: string | undefined;

  /** A stdio server's sandbox for its next launch (remote servers have none). */
  private sandboxLaunch(): LaunchOptions['sandbox'] {
    const { config, host } = this;
    if (config.transport !== 'stdio') return undefined;
    const proxy = host.proxyOptions();
    const quarantine = host.quarantine?.(this.id);
    this.launchedQuarantine = JSON.stringify(quarantine ?? null);
    return {
      ...(quarantine ? { quarantine } : {}),
      setting: sandboxOf(config, proxy),
      context: {
        stateDir: host.deps.stateDir ?? defaultStateDir(process.platform, host.deps.environment),
        extraPath: proxy.extraPath,
      },
      watch: this.sandboxWatch,
    };
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
    this.state.fail(error);
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

  /**
   * Publishes a cached catalog before the backend starts; with `idle` (an
   * on-demand server) it is not started until a request needs it.
   */
  seedFromCache(snapshot: BackendCatalog, idle: boolean): void {
    this.catalog.seed(snapshot);
    if (idle) this.state.set('idle');
  }

  /** The live connection for a request; a starting backend is waited for, an idle one started (see OnDemandStart). */
  acquire(timeoutMs: number, signal?: AbortSignal): ReturnType<OnDemandStart['acquire']> {
    return this.demand.acquire(timeoutMs, signal);
  }

  /** Whether the published catalog is the cached one (no live listing yet). */
  get publishedFromCache(): boolean {
    return this.catalog.fromCache;
  }

  /** Whether the first connection attempt has finished. */
  get isSettled(): boolean {
    return this.state.settled;
  }

  get currentStatus(): BackendStatus {
    return this.state.status;
  }

  /** Warnings of the live connection (notifications over the rate limits, junk on stdout), beside the catalog's. */
  warnings(): string[] {
    const connection = this.connection;
    return [connection?.limits.warning(), connection?.junk.warning()].filter((w): w is string => w !== undefined);
  }

  /** Health without catalog counts (the core adds those). */
  health(): Omit<BackendHealth, 'counts' | 'warnings'> {
    const { connection, config, state, prober } = this;
    const auth = this.host.authFor?.(this.id);
    const health: Omit<BackendHealth, 'counts' | 'warnings'> = {
      id: config.id,
      transport: config.transport,
      status: state.status,
      settled: state.settled,
      probeFailures: prober.failures,
      restarts: state.restarts,
      outstandingRequests: connection?.outstanding ?? 0,
      start: startModeOf(config, this.host.proxyOptions()),
    };
    if (this.catalog.fromCache) health.cached = true;
    if (state.startMs !== undefined) health.startMs = state.startMs;
    if (state.lastError) health.lastError = state.lastError;
    if (prober.lastProbeAt) health.lastProbeAt = prober.lastProbeAt;
    const { nextRetryAt } = this.reconnect;
    if (nextRetryAt) health.nextRetryAt = new Date(nextRetryAt).toISOString();
    if (connection?.era) health.era = connection.era;
    if (connection?.protocolVersion) health.protocolVersion = connection.protocolVersion;
    if (connection?.serverInfo) health.serverInfo = connection.serverInfo;
    if (connection?.pid !== undefined) health.pid = connection.pid;
    if (config.transport === 'stdio') {
      health.stderrTail = this.stderrTail.snapshot();
      health.sandbox = this.sandboxWatch.snapshot() ?? sandboxView(sandboxOf(config, this.host.proxyOptions()));
    }
    if (auth) health.auth = auth.summary();
    if (this.perPrincipal) health.principalProcesses = this.callers.size;
    return health;
  }
}
