/**
 * The proxy core: owns the backends (one supervisor each), admits their
 * catalogs into the merged catalog, applies runtime changes (persisted to the
 * config file when there is one) and reports health. Plain Node; never imports
 * Electron. Platform pieces come in through `CoreDeps`. The runtime changes
 * are in backendChanges.ts, the OAuth actions in auth/coreAuthorization.ts,
 * and the policy/routing/subscription wiring in requestPath.ts.
 */
import type { LoggingMessageNotification } from '@modelcontextprotocol/client';
import { ErrorCode, SwitchboardError } from '../../shared/errors.js';
import type { BackendHealth, Readiness } from '../../shared/model/health.js';
import { AuthRegistry, readAuthStatus, type AuthStatusEntry } from './auth/authRegistry.js';
import type { BackendAuth } from './auth/backendAuth.js';
import { signOutBackend, startBackendAuthorization, type CoreAuthorizationHost } from './auth/coreAuthorization.js';
import { BackendChanges, type BackendChangesHost } from './backendChanges.js';
import type { BackendCatalog, BackendConnection } from './backends/backendConnection.js';
import { connectTimeoutMs, launchBackends } from './backends/backendLaunch.js';
import { BackendSupervisor } from './backends/backendSupervisor.js';
import { defaultStartLimit, StartLimiter } from './backends/startLimiter.js';
import type { SupervisorHost } from './backends/supervisorHost.js';
import { SupervisorMap } from './backends/supervisorMap.js';
import type { Catalog } from './catalog/catalog.js';
import { CatalogPublisher } from './catalog/catalogPublisher.js';
import type { ConfigStore } from './config/configStore.js';
import type { BackendConfig, ProxyOptions, SwitchboardConfig } from './config/schema.js';
import type { CoreEvents } from './coreEvents.js';
import type { CoreServices } from './coreServices.js';
import type { CoreDeps } from './deps.js';
import { TypedEmitter } from './events.js';
import type { LegacyCall } from './relay/legacyCall.js';
import { ParkedCalls } from './relay/parkedCalls.js';
import type { SubscriptionHub } from './relay/subscriptionHub.js';
import { SessionRegistry } from './frontend/sessionRegistry.js';
import type { AccessControl } from './policy/accessControl.js';
import type { AuditEntry, AuditQuery } from './policy/auditLog.js';
import type { ClientTokens } from './policy/clientTokens.js';
import type { PinChange } from './policy/pinStore.js';
import { CorePolicyService, type PolicyService } from './policy/policyService.js';
import { buildRequestPath } from './requestPath.js';
import { StartupGrace } from './startupGrace.js';
import type { ToolExposure } from './exposure/toolExposure.js';
import type { Router } from './routing/router.js';
import type { SecretStore } from './secrets/secretStore.js';

export type { CoreEvents } from './coreEvents.js';
export type { CoreServices } from './coreServices.js';

/** The proxy core. Create, `start()`, use, `dispose()`. */
export class SwitchboardCore implements SupervisorHost {
  readonly events = new TypedEmitter<CoreEvents>();
  readonly router: Router;
  /** Policy, client profiles and tokens, approvals. */
  readonly access: AccessControl;
  /** The policy's view and changes, for the host (reads `access` lazily). */
  readonly policy: PolicyService = new CorePolicyService(this);
  /** Resource subscriptions shared by every frontend. */
  readonly subscriptions: SubscriptionHub;
  /** Each client's tools/list by its exposure (all or search), and tool search. */
  readonly exposure: ToolExposure;
  /** Frontend sessions connected over HTTP or stdio (for the UI; no tokens). */
  readonly sessions = new SessionRegistry();
  /**
   * Calls to 2025-era backends waiting for a 2026-07-28 client to retry with
   * the input they asked for. Kept here: each 2026 request gets a fresh server.
   */
  readonly parkedCalls = new ParkedCalls<LegacyCall<unknown>>(() => this.config.proxy.inputTimeoutMs);
  /** Supervisors in config order. */
  private readonly supervisors = new SupervisorMap();
  /** The published catalog and the admission order behind it. */
  private readonly publisher: CatalogPublisher;
  /** OAuth of the remote backends (tokens in the keychain). */
  private readonly auths: AuthRegistry;
  /** What runtime changes and OAuth actions reach of the core (see the modules doing them). */
  private readonly internals: BackendChangesHost & CoreAuthorizationHost;
  /** Runtime adds, updates, removals and hand edits, saved to the config file. */
  private readonly changes: BackendChanges;
  private disposed = false;
  /** Bounded start-up: child processes starting at once. */
  readonly startLimiter = new StartLimiter(() => this.config.proxy.maxConcurrentStarts ?? defaultStartLimit());
  /** Lists wait for backends on their first attempt for `startupGraceMs` after start. */
  readonly grace = new StartupGrace(this.events, () => this.firstAttemptDeadline());
  private startedAt = 0;

  constructor(
    private config: SwitchboardConfig,
    readonly deps: CoreDeps,
    private readonly services: CoreServices = {},
  ) {
    this.auths = new AuthRegistry(() => this.services.secrets, deps.logger);
    this.publisher = new CatalogPublisher(
      {
        prefixOf: (id) => this.supervisors.get(id)?.config.prefix ?? id,
        snapshotOf: (id) => this.supervisors.get(id)?.lastSnapshot,
        options: () => ({ separator: this.config.proxy.separator, maxItems: this.config.proxy.maxCatalogItems }),
      },
      (change) => this.events.emit('catalogChanged', change),
    );
    const requestPath = buildRequestPath({
      initial: config,
      proxy: () => this.config.proxy,
      services,
      events: this.events,
      catalog: () => this.publisher.catalog,
      // A starting backend with a cached catalog is waited for, an idle on-demand one started.
      publishedConnection: (id, signal) => {
        const supervisor = this.publisher.isPublished(id) ? this.supervisors.get(id) : undefined;
        return supervisor?.acquire(connectTimeoutMs(supervisor.config, this.config.proxy), signal);
      },
      connection: (id) => this.connection(id),
      parked: this.parkedCalls,
    });
    this.access = requestPath.access;
    this.router = requestPath.router;
    this.subscriptions = requestPath.subscriptions;
    this.exposure = requestPath.exposure;
    this.internals = {
      core: this,
      deps,
      supervisors: this.supervisors,
      authFor: (id) => this.authFor(id),
      auths: this.auths,
      access: this.access,
      services,
      config: () => this.config,
      setBackends: (backends) => (this.config = { ...this.config, backends }),
      health: (id) => this.backendHealth(id),
      isDisposed: () => this.disposed,
      configError: (message) => this.events.emit('configError', { message }),
      configApplied: () => this.events.emit('configApplied', {}),
    };
    this.changes = new BackendChanges(this.internals);
  }

  /** The current merged catalog (an immutable snapshot). */
  catalog(): Catalog {
    return this.publisher.catalog;
  }

  /** The keychain secret references are resolved from (undefined: none configured). */
  get secrets(): SecretStore | undefined {
    return this.services.secrets;
  }

  /** The one config store of this process (undefined: a core without a config file). */
  get configStore(): ConfigStore | undefined {
    return this.services.store;
  }

  /** The one set of client tokens of this process (undefined: none in this mode). */
  get clientTokens(): ClientTokens | undefined {
    return this.services.tokens;
  }

  /** The backends' configs in force (a new array after every change). */
  backendConfigs(): readonly BackendConfig[] {
    return this.config.backends;
  }

  /** The proxy options in force. */
  proxyOptions(): ProxyOptions {
    return this.config.proxy;
  }

  /**
   * Publishes every cached catalog, then connects every enabled backend in
   * parallel (a bounded number of children starting at once; an on-demand
   * backend with a cached catalog stays idle); resolves when each has settled.
   */
  async start(): Promise<void> {
    this.startedAt = Date.now();
    this.grace.begin(this.config.proxy.startupGraceMs);
    this.services.store?.watch(
      (stored) => void this.changes.applyHandEdit(stored),
      (error) => this.changes.reportConfigError(error),
    );
    await launchBackends(
      this.config.backends,
      (backend) => {
        const supervisor = new BackendSupervisor(backend, this);
        this.supervisors.set(backend.id, supervisor);
        return supervisor;
      },
      {
        proxy: this.config.proxy,
        cache: this.services.catalogCache,
        logger: this.deps.logger,
        admitAll: (entries) => this.admitAll(entries),
      },
    );
  }

  /**
   * The latest time worth waiting for a backend still on its first attempt
   * with nothing published (the startup grace), or undefined: none is.
   */
  private firstAttemptDeadline(): number | undefined {
    let latest: number | undefined;
    for (const supervisor of this.supervisors.values()) {
      if (supervisor.isSettled || supervisor.publishedFromCache || !supervisor.config.enabled) continue;
      const deadline = this.startedAt + connectTimeoutMs(supervisor.config, this.config.proxy);
      latest = Math.max(latest ?? 0, deadline);
    }
    return latest;
  }

  // ---- SupervisorHost ----

  /**
   * Publishes a backend's snapshot; throws (and publishes nothing) on a
   * collision or limit. Tools are first checked against their pins, so a tool
   * whose definition changed is withheld from the moment it is published.
   */
  async admit(backendId: string, snapshot: BackendCatalog): Promise<void> {
    this.publisher.check(backendId, snapshot);
    const { pins } = this.services;
    if (pins && this.access.policy.backends[backendId]?.pinning !== false) await pins.review(backendId, snapshot.tools);
    // Built again: other backends may have come or gone while the pins were saved.
    const staged = this.publisher.check(backendId, snapshot);
    this.access.engine.invalidate();
    this.publisher.commit(staged);
  }

  /**
   * Publishes several snapshots in one build (the cached catalogs at start),
   * each reviewed against its pins first; returns the refused backends.
   */
  private async admitAll(entries: { id: string; snapshot: BackendCatalog }[]): Promise<Map<string, SwitchboardError>> {
    const { pins } = this.services;
    for (const { id, snapshot } of entries) {
      if (pins && this.access.policy.backends[id]?.pinning !== false) await pins.review(id, snapshot.tools);
    }
    this.access.engine.invalidate();
    return this.publisher.admitAll(entries.map((entry) => entry.id));
  }

  /** Tool definitions that changed and wait for the user's approval (old vs new). */
  pinChanges(): PinChange[] {
    return this.services.pins?.changes() ?? [];
  }

  /** Approves a changed tool definition: the tool is shown again, with its new definition pinned. */
  async approvePin(backendId: string, tool: string): Promise<void> {
    if (!this.services.pins) throw new SwitchboardError(ErrorCode.UnknownChange, 'tool pinning is not enabled');
    await this.services.pins.approve(backendId, tool);
    this.access.engine.invalidate();
    this.events.emit('catalogChanged', { tools: true, prompts: false, resources: false });
  }

  /** Entries of the audit log, newest first. */
  async auditQuery(query: AuditQuery = {}): Promise<AuditEntry[]> {
    return this.services.audit?.query(query) ?? [];
  }

  /** Takes a backend's items out of the catalog. */
  unpublish(backendId: string): void {
    this.publisher.unpublish(backendId);
  }

  changed(backendId: string): void {
    this.events.emit('healthChanged', { backendId });
  }

  log(backendId: string, params: LoggingMessageNotification['params']): void {
    this.events.emit('backendLog', { backendId, params });
  }

  resourceUpdated(backendId: string, uri: string): void {
    this.subscriptions.updated(backendId, uri);
  }

  online(backendId: string): void {
    this.subscriptions.resubscribe(backendId);
  }

  startSlot(signal?: AbortSignal): Promise<() => void> {
    return this.startLimiter.acquire(signal);
  }

  catalogListed(backendId: string, snapshot: BackendCatalog): void {
    const backend = this.supervisors.get(backendId)?.config;
    if (backend) void this.services.catalogCache?.save(backend, snapshot);
  }

  inUse(backendId: string): boolean {
    return this.subscriptions.holds(backendId);
  }

  authFor(backendId: string): BackendAuth | undefined {
    return this.auths.authFor(this.supervisors.get(backendId)?.config);
  }

  // ---- OAuth (MCP authorization spec) ----

  /**
   * Starts the user's authorization of a remote backend: resolves with the URL
   * for the browser; `done` settles once tokens are saved and it reconnected.
   */
  startAuthorization(
    backendId: string,
    options: { signal?: AbortSignal; openBrowser?: boolean } = {},
  ): Promise<{ authorizationUrl: string; done: Promise<BackendHealth> }> {
    return startBackendAuthorization(this.internals, backendId, options);
  }

  /** Signs a remote backend out (revoking its tokens where supported); it then needs authorization. */
  signOut(backendId: string): Promise<{ revoked: boolean }> {
    return signOutBackend(this.internals, backendId);
  }

  /** Every OAuth-capable backend's authorization state from the keychain, offline. */
  authStatus(): Promise<AuthStatusEntry[]> {
    return readAuthStatus(this.config.backends, this.services.secrets);
  }

  // ---- runtime changes (see BackendChanges) ----

  /** Adds a backend once it connected, listed and was admitted, and saves it (see `BackendChanges.add`). */
  addBackend(id: string, entry: unknown, options: { persist?: boolean } = {}): Promise<BackendHealth> {
    return this.changes.add(id, entry, options);
  }

  /** Removes a backend, from the config file too unless `persist` is false (see `BackendChanges.remove`). */
  removeBackend(id: string, options: { persist?: boolean } = {}): Promise<void> {
    return this.changes.remove(id, options);
  }

  /** Replaces a backend's config (an edit), saved, and restarts it (see `BackendChanges.update`). */
  updateBackend(id: string, entry: unknown, options: { persist?: boolean } = {}): Promise<BackendHealth> {
    return this.changes.update(id, entry, options);
  }

  /** Re-lists a backend's catalog now. */
  async refreshBackend(id: string): Promise<BackendHealth> {
    await this.supervisors.require(id).refresh();
    return this.backendHealth(id);
  }

  /** Restarts a backend now (resets its reconnect backoff). */
  async restartBackend(id: string): Promise<BackendHealth> {
    await this.supervisors.require(id).restart();
    return this.backendHealth(id);
  }

  /** Probes every live backend now (the same probe the timer runs). */
  async probeAll(): Promise<void> {
    await Promise.all([...this.supervisors.values()].map((supervisor) => supervisor.probe()));
  }

  // ---- health ----

  private backendHealth(id: string): BackendHealth {
    const supervisor = this.supervisors.require(id);
    return {
      ...supervisor.health(),
      warnings: this.publisher.catalog.warnings.get(id) ?? [],
      counts: this.publisher.catalog.countsOf(id),
    };
  }

  /** Health of every configured backend, in config order. Contains no secrets. */
  health(): BackendHealth[] {
    return [...this.supervisors.keys()].map((id) => this.backendHealth(id));
  }

  /** The live connection of a backend (for relays that talk to it directly). */
  connection(id: string): BackendConnection | undefined {
    return this.supervisors.get(id)?.liveConnection;
  }

  /**
   * Ready once every enabled backend has finished its first connection attempt
   * and at least one is up (or none is configured).
   */
  readiness(): Readiness {
    return this.supervisors.readiness();
  }

  /** Stops watching the config, closes every backend and reaps their processes. */
  async dispose(): Promise<void> {
    this.disposed = true;
    this.services.store?.unwatch();
    const stopping = new SwitchboardError(ErrorCode.BackendUnavailable, 'Switchboard is shutting down');
    this.parkedCalls.clear(stopping);
    this.auths.dispose();
    await Promise.allSettled([...this.supervisors.values()].map((supervisor) => supervisor.stop(stopping)));
    await this.services.audit?.close();
  }
}
