/**
 * The proxy core: owns the backends (one supervisor each), admits their
 * catalogs into the merged catalog, applies runtime changes (persisted to the
 * config file when there is one) and reports health. Plain Node; never imports
 * Electron. Platform pieces come in through `CoreDeps`. The runtime changes
 * are in backendChanges.ts, the OAuth actions (`auth`, the AuthService) in
 * coreAuthorization.ts, the policy/routing/subscription wiring in
 * requestPath.ts and what the supervisors report to in supervisorReports.ts.
 * Callers outside the core's own wiring and tests use its public surface, the
 * services of api/services.ts.
 */
import { ErrorCode, SwitchboardError } from '../../../shared/errors.js';
import type { BackendHealth, Readiness } from '../../../shared/model/health.js';
import { AuthRegistry } from '../platform/auth/authRegistry.js';
import type { BackendAuth } from '../platform/auth/backendAuth.js';
import { CallerCredentials } from '../platform/auth/callerCredentials.js';
import { redisCallerState } from '../platform/cluster/redisCallerState.js';
import { SubjectTokens } from '../platform/auth/subjectTokens.js';
import { TokenExchange } from '../platform/auth/tokenExchange.js';
import { defaultStateDir } from '../platform/config/paths.js';
import { liveGateway, restartFields } from '../platform/config/restartFields.js';
import { createConnectionsService } from './coreConnections.js';
import { createAuthService, type CoreAuthorizationHost } from './coreAuthorization.js';
import { BackendChanges, type BackendChangesHost } from './backendChanges.js';
import { admitAll, createSupervisorHost, type SupervisorHostParts } from './supervisorReports.js';
import { catchUpCatalogs } from './catalogCatchUp.js';
import { launchBackends } from './backendLaunch.js';
import { BackendSupervisor } from '../backends/supervisor/backendSupervisor.js';
import { defaultStartLimit, StartLimiter } from '../backends/process/startLimiter.js';
import { BackendPool, readinessOf } from '../backends/supervisor/backendPool.js';
import type { Catalog, CatalogInput } from '../catalog/catalog.js';
import { CatalogPublisher } from '../catalog/catalogPublisher.js';
import type { ConfigStore } from '../platform/config/configStore.js';
import {
  isPerCaller,
  isTokenExchange,
  type BackendConfig,
  type ProxyOptions,
  type SwitchboardConfig,
} from '../platform/config/schema.js';
import type {
  AuthService,
  BackendsService,
  ConnectionsService,
  FrontendCore,
  ReviewsService,
  SettingsService,
} from '../api/services.js';
import type { CoreEvents } from '../api/events.js';
import type { CoreServices } from './coreServices.js';
import type { CoreDeps } from '../platform/deps.js';
import { TypedEmitter } from '../platform/typedEmitter.js';
import type { LegacyCall } from '../frontend/relay/legacyCall.js';
import { ParkedCalls } from '../frontend/relay/parkedCalls.js';
import { SessionRegistry } from '../frontend/sessions/sessionRegistry.js';
import type { AuditEntry, AuditQuery } from '../catalog/policy/auditLog.js';
import type { ClientTokens } from '../catalog/policy/clientTokens.js';
import { buildRequestPath, type RequestPath } from './requestPath.js';
import { StartupGrace } from './startupGrace.js';
import { CoreOverrides } from './coreOverrides.js';
import type { SecretStore } from '../platform/secrets/secretStore.js';

/**
 * The proxy core. Create, `start()`, use, `dispose()`. It implements the
 * services of api/services.ts. Of its parts, `subscriptions` and `grace` serve
 * the frontends (FrontendCore); `pool`, `parkedCalls` and `startLimiter` are
 * the request path's and the supervisors', and public so the core's tests can
 * observe their bounds.
 */
export class SwitchboardCore implements FrontendCore {
  readonly events = new TypedEmitter<CoreEvents>();
  /** The published catalog and the admission order behind it. */
  private readonly publisher: CatalogPublisher = new CatalogPublisher(
    {
      prefixOf: (id) => this.pool.get(id)?.config.prefix ?? id,
      snapshotOf: (id) => this.pool.get(id)?.lastSnapshot,
      overridesOf: (id) => this.config.backends.find((backend) => backend.id === id)?.overrides,
      options: () => ({
        separator: this.config.proxy.separator,
        maxItems: this.config.proxy.maxCatalogItems,
        owners: this.config.backends.map((backend) => ({ backendId: backend.id, prefix: backend.prefix })),
      }),
    },
    (change) => this.events.emit('catalogChanged', change),
  );
  /** Policy, client profiles and tokens, approvals. */
  private readonly access: RequestPath['access'];
  /** The rate limits (their refusals show in health). */
  private readonly limits: RequestPath['limits'];
  /** Routed calls (as CallsService). */
  readonly router: RequestPath['router'];
  readonly subscriptions: RequestPath['subscriptions'];
  readonly exposure: RequestPath['exposure'];
  /** Tasks (2025-11-25 tasks through the proxy), in memory only. */
  readonly tasks: RequestPath['tasks'];
  readonly policy: RequestPath['policy'];
  /** Tool overrides: views with their preview, and saving through the config owner. */
  readonly overrides: CoreOverrides = new CoreOverrides({
    config: () => this.config,
    policy: () => this.access.policy,
    snapshotOf: (id) => this.pool.get(id)?.lastSnapshot,
    store: () => this.services.store,
    apply: (stored) => this.changes.applyHandEdit(stored),
  });
  /** Quarantine, the scan's reports and reviewed changes (ServerReviews, as ReviewsService). */
  readonly reviews: ReviewsService;
  private readonly serverReviews: RequestPath['reviews'];
  readonly approvals: RequestPath['access']['approvals'];
  /** Client profiles and their tokens (AccessControl, as ProfilesService). */
  readonly profiles: RequestPath['access'];
  /** The audit log's entries, newest first (none without an audit log). */
  readonly audit = {
    query: async (query: AuditQuery = {}): Promise<AuditEntry[]> => (await this.services.audit?.query(query)) ?? [],
  };
  readonly secrets: SecretStore | undefined;
  readonly configStore: ConfigStore | undefined;
  readonly clientTokens: ClientTokens | undefined;
  /** Frontend sessions connected over HTTP or stdio (for the UI; no tokens). */
  readonly sessions = new SessionRegistry();
  /** 2025-era backends' calls parked for a 2026-07-28 client's retry (kept here: each 2026 request gets a new server). */
  readonly parkedCalls: ParkedCalls<LegacyCall<unknown>>;
  /** The pool of backend connections: supervisors in config order, and the one way requests reach a backend. */
  readonly pool: BackendPool = new BackendPool({
    isPublished: (id) => this.publisher.isPublished(id),
    proxy: () => this.config.proxy,
  });
  /** OAuth of the remote backends (tokens in the keychain). */
  private readonly auths: AuthRegistry;
  /** Authorization, sign-out and status of the remote backends (coreAuthorization.ts). */
  readonly auth: AuthService;
  /** Each caller's own upstream tokens for per-caller servers (encrypted under the operator's key). */
  private readonly callerCredentials: CallerCredentials;
  /** Gateway mode: each person's latest verified gateway token, kept only while a backend exchanges tokens. */
  readonly subjectTokens = new SubjectTokens(() => this.config.backends.some(isTokenExchange));
  /** RFC 8693 exchanges of those tokens for `credentials: "token-exchange"` backends. */
  private readonly tokenExchange: TokenExchange;
  /** Per-caller connections: list, revoke, sign-in (coreConnections.ts). */
  readonly connections: ConnectionsService;
  /** What the supervisors report to (supervisorReports.ts). */
  private readonly hostParts: SupervisorHostParts;
  /** What runtime changes and OAuth actions reach of the core (see the modules doing them). */
  private readonly internals: BackendChangesHost & CoreAuthorizationHost;
  /** Runtime adds, updates, removals and hand edits, saved to the config file. */
  private readonly changes: BackendChanges;
  /** Bounded start-up: child processes starting at once. */
  readonly startLimiter = new StartLimiter(() => this.config.proxy.maxConcurrentStarts ?? defaultStartLimit());
  /** Lists wait for backends on their first attempt for `startupGraceMs` after start. */
  readonly grace = new StartupGrace(this.events, () => this.pool.firstAttemptDeadline(this.startedAt));
  private startedAt = 0;
  /** While start() reads the server approvals, before any backend is in the pool. */
  private readingApprovals = false;
  private disposed = false;
  /** Replicas: stops catching the shared catalogs up when Redis returns. */
  private stopCatchUp: (() => void) | undefined;
  /** The config this process started with: edits of the sections read at start are compared with it. */
  private readonly started: SwitchboardConfig;
  /** Fields an edit changed that apply at the next start (restartFields.ts). */
  private pendingRestart: readonly string[] = [];
  /** The sections read at start as edits left them. */
  readonly settings: SettingsService = {
    gateway: () => this.config.gateway,
    restartNeeded: () => this.pendingRestart,
  };

  constructor(
    private config: SwitchboardConfig,
    readonly deps: CoreDeps,
    private readonly services: CoreServices = {},
  ) {
    this.started = config;
    ({ secrets: this.secrets, store: this.configStore, tokens: this.clientTokens } = services);
    // Replicas: each token names this replica, so a retry landing elsewhere is handed back here.
    this.parkedCalls = new ParkedCalls(() => this.config.proxy.parkedCallTtlMs, services.cluster?.replicaId);
    this.auths = new AuthRegistry(() => this.services.secrets, deps.logger);
    this.callerCredentials = new CallerCredentials({
      stateDir: deps.stateDir ?? defaultStateDir(process.platform, deps.environment),
      environment: deps.environment,
      keyFile: () => this.config.proxy.credentialKeyFile,
      logger: deps.logger,
      config: (id) => {
        const config = this.pool.get(id)?.config;
        return config && isPerCaller(config) ? config : undefined;
      },
      perCallerBackends: () => this.config.backends.filter(isPerCaller).map((backend) => backend.id),
      secrets: () => this.services.secrets,
      // Replicas: tokens, sign-ins in progress and sign-in notices in the Redis they share.
      shared: services.cluster ? redisCallerState(services.cluster) : undefined,
    });
    this.tokenExchange = new TokenExchange({
      subjects: this.subjectTokens,
      gateway: () => this.config.gateway,
      secrets: () => this.services.secrets,
      environment: deps.environment,
    });
    // A person seen for the first time wakes token-exchange backends waiting for anyone to list their catalog.
    this.subjectTokens.onNewCaller(() => {
      for (const supervisor of this.pool.values()) if (isTokenExchange(supervisor.config)) supervisor.callerSignedIn();
    });
    const requestPath = buildRequestPath({
      initial: config,
      proxy: () => this.config.proxy,
      services,
      events: this.events,
      catalog: () => this.publisher.catalog,
      pool: this.pool,
      parked: this.parkedCalls,
      backendConfigs: () => this.backendConfigs(),
    });
    ({ access: this.access, router: this.router, policy: this.policy } = requestPath);
    this.limits = requestPath.limits;
    this.serverReviews = requestPath.reviews;
    this.reviews = requestPath.reviews;
    ({ subscriptions: this.subscriptions, exposure: this.exposure, tasks: this.tasks } = requestPath);
    this.approvals = this.access.approvals;
    this.profiles = this.access;
    this.hostParts = {
      deps,
      services,
      events: this.events,
      publisher: this.publisher,
      access: this.access,
      reviews: this.serverReviews,
      subscriptions: this.subscriptions,
      startLimiter: this.startLimiter,
      proxyOptions: () => this.config.proxy,
      backend: (id) => this.pool.get(id)?.config,
      authFor: (id) => this.authFor(id),
      callerCredentials: this.callerCredentials,
      tokenExchange: this.tokenExchange,
    };
    this.internals = {
      supervisorHost: createSupervisorHost(this.hostParts),
      deps,
      supervisors: this.pool,
      authFor: (id) => this.authFor(id),
      auths: this.auths,
      access: this.access,
      reviews: this.serverReviews,
      services,
      config: () => this.config,
      setBackends: (backends) => (this.config = { ...this.config, backends }),
      overridesChanged: () => this.publisher.refresh(),
      health: (id) => this.backendHealth(id),
      isDisposed: () => this.disposed,
      configError: (message) => this.events.emit('configError', { message }),
      configApplied: () => this.events.emit('configApplied', {}),
      settingsEdited: (stored) => this.settingsEdited(stored),
    };
    this.changes = new BackendChanges(this.internals);
    this.auth = createAuthService(this.internals);
    this.connections = createConnectionsService({
      credentials: this.callerCredentials,
      pool: this.pool,
      backends: () => this.config.backends,
    });
  }

  /**
   * An edit of the config file, for the sections read at start: the
   * gateway's live fields apply now; any other change is named (once, in the
   * log; in `/readyz` and the UI until the next start or until undone).
   */
  private settingsEdited(stored: SwitchboardConfig): void {
    const gateway = liveGateway(this.started.gateway, stored.gateway);
    const { gateway: _previous, ...rest } = this.config;
    this.config = { ...rest, ...(gateway ? { gateway } : {}) };
    const fields = restartFields(this.started, stored);
    if (fields.length > 0 && fields.join() !== this.pendingRestart.join()) {
      this.deps.logger.warn(
        `restart Switchboard to apply: ${fields.join(', ')} (the rest of the config file is in force)`,
      );
    }
    this.pendingRestart = fields;
  }

  /** The backends (this core, as BackendsService). */
  get backends(): BackendsService {
    return this;
  }

  /** The current merged catalog (an immutable snapshot). */
  catalog(): Catalog {
    return this.publisher.catalog;
  }

  catalogInput(backendId: string): CatalogInput | undefined {
    return this.publisher.inputOf(backendId);
  }

  backendConfigs(): readonly BackendConfig[] {
    return this.config.backends;
  }

  proxyOptions(): ProxyOptions {
    return this.config.proxy;
  }

  /**
   * Publishes every cached catalog, then connects every enabled backend (a
   * bounded number starting at once; an on-demand one with a cached catalog
   * stays idle); resolves when each has settled.
   */
  async start(): Promise<void> {
    this.startedAt = Date.now();
    // First: a list that comes while the approvals are read waits with the others, rather than
    // seeing every server quarantined for want of them.
    this.grace.begin(this.config.proxy.startupGraceMs);
    this.readingApprovals = true;
    // The operator's key for per-caller tokens is read beside the approvals: a hand edit waits for
    // both (below), so the backends of the file are placed before any the edit adds.
    const approvalsRead = Promise.all([this.loadApprovals(), this.callerCredentials.loadKey()]).finally(
      () => (this.readingApprovals = false),
    );
    // Watched from the start, so an edit while the approvals are read is not
    // missed; applied once the backends below are placed (this await comes first).
    this.services.store?.watch(
      (stored) => void approvalsRead.then(() => this.changes.applyHandEdit(stored)),
      (error) => this.changes.reportConfigError(error),
    );
    await approvalsRead;
    // Replicas: what Redis missed while away is shared when it returns (catalogCatchUp.ts).
    const { cluster, catalogCache } = this.services;
    if (cluster && catalogCache) {
      this.stopCatchUp = catchUpCatalogs({
        cluster,
        cache: catalogCache,
        supervisors: () => this.pool.values(),
        admitAll: (entries) => admitAll(this.hostParts, entries),
        logger: this.deps.logger,
      });
    }
    await launchBackends(
      this.config.backends,
      (backend) => {
        const supervisor = new BackendSupervisor(backend, this.internals.supervisorHost);
        this.pool.set(backend.id, supervisor);
        return supervisor;
      },
      {
        proxy: this.config.proxy,
        cache: this.services.catalogCache,
        logger: this.deps.logger,
        admitAll: (entries) => admitAll(this.hostParts, entries),
        cachePublished: () => this.grace.cachePublished(),
        firstList: this.grace.firstList,
      },
    );
  }

  /**
   * Reads the server approvals (the first time: records every configured
   * server as approved). An unreadable file is reported and left alone: every
   * server is then quarantined, since nothing is trusted that cannot be read.
   */
  private async loadApprovals(): Promise<void> {
    try {
      await this.services.approvals?.load(this.config.backends);
    } catch (error) {
      this.deps.logger.error(
        `server approvals not read (every server stays quarantined): ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  private authFor(backendId: string): BackendAuth | undefined {
    return this.auths.authFor(this.pool.get(backendId)?.config);
  }

  // BackendsService (api/services.ts).
  addBackend(id: string, entry: unknown, options: { persist?: boolean } = {}): Promise<BackendHealth> {
    return this.changes.add(id, entry, options);
  }

  removeBackend(id: string, options: { persist?: boolean } = {}): Promise<void> {
    return this.changes.remove(id, options);
  }

  updateBackend(id: string, entry: unknown, options: { persist?: boolean } = {}): Promise<BackendHealth> {
    return this.changes.update(id, entry, options);
  }

  async refreshBackend(id: string): Promise<BackendHealth> {
    await this.pool.require(id).refresh();
    return this.backendHealth(id);
  }

  async restartBackend(id: string): Promise<BackendHealth> {
    await this.pool.require(id).restart();
    return this.backendHealth(id);
  }

  async probeAll(): Promise<void> {
    await Promise.all([...this.pool.values()].map((supervisor) => supervisor.probe()));
  }

  private backendHealth(id: string): BackendHealth {
    const supervisor = this.pool.require(id);
    const review = this.serverReviews.state(id);
    const scan = this.serverReviews.scanSummary(id);
    const rateLimited = this.limits.refusals(id);
    return {
      ...supervisor.health(),
      warnings: [...(this.publisher.catalog.warnings.get(id) ?? []), ...supervisor.warnings()],
      counts: this.publisher.catalog.countsOf(id),
      ...(review ? { quarantined: review.quarantined, review } : {}),
      ...(scan ? { scan } : {}),
      ...(rateLimited > 0 ? { rateLimited } : {}),
    };
  }

  health(): BackendHealth[] {
    return [...this.pool.keys()].map((id) => this.backendHealth(id));
  }

  readiness(): Readiness {
    const readiness = this.backendReadiness();
    const cluster = this.services.cluster;
    return cluster
      ? { ...readiness, sharedState: { status: cluster.status, replicaId: cluster.replicaId } }
      : readiness;
  }

  private backendReadiness(): Readiness {
    // The approvals are read before the backends are placed in the pool: until
    // then each configured one is still to start, not an empty (ready) pool.
    // So it is before `start` (serve listens first): a replica behind a load
    // balancer is not ready until its servers are.
    if (this.startedAt === 0 || this.readingApprovals)
      return readinessOf(
        this.config.backends.map((backend) => ({
          status: backend.enabled ? 'connecting' : 'disabled',
          enabled: backend.enabled,
          settled: !backend.enabled,
        })),
      );
    return this.pool.readiness();
  }

  /** Stops watching the config, closes every backend and reaps their processes. */
  async dispose(): Promise<void> {
    this.disposed = true;
    this.publisher.close();
    this.services.store?.unwatch();
    this.stopCatchUp?.();
    const stopping = new SwitchboardError(ErrorCode.BackendUnavailable, 'Switchboard is shutting down');
    this.parkedCalls.clear(stopping);
    this.tasks.dispose();
    this.auths.dispose();
    this.callerCredentials.dispose();
    this.tokenExchange.dispose();
    this.subjectTokens.clear();
    await Promise.allSettled([...this.pool.values()].map((supervisor) => supervisor.stop(stopping)));
    await this.services.audit?.close();
  }
}
