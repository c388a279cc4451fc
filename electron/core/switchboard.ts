/**
 * The proxy core: owns the backends (one supervisor each), admits their
 * catalogs into the merged catalog, applies runtime changes (persisted to the
 * config file when there is one) and reports health. Plain Node; never imports
 * Electron. Platform pieces come in through `CoreDeps`.
 */
import type { LoggingMessageNotification } from '@modelcontextprotocol/client';
import { ErrorCode, SwitchboardError } from '../../shared/errors.js';
import type { BackendHealth, Readiness } from '../../shared/model/health.js';
import { AuthRegistry, readAuthStatus, type AuthStatusEntry } from './auth/authRegistry.js';
import type { BackendAuth } from './auth/backendAuth.js';
import type { BackendCatalog, BackendConnection } from './backends/backendConnection.js';
import { BackendSupervisor, type SupervisorHost } from './backends/backendSupervisor.js';
import type { Catalog } from './catalog/catalog.js';
import { readinessOf } from './backends/readiness.js';
import { CatalogPublisher } from './catalog/catalogPublisher.js';
import { diffBackends } from './config/configDiff.js';
import type { ConfigStore, StoredConfig } from './config/configStore.js';
import { parseBackend, type BackendConfig, type ProxyOptions, type SwitchboardConfig } from './config/schema.js';
import type { CoreDeps } from './deps.js';
import { TypedEmitter } from './events.js';
import type { LegacyCall } from './relay/legacyCall.js';
import { ParkedCalls } from './relay/parkedCalls.js';
import { SubscriptionHub } from './relay/subscriptionHub.js';
import { SessionRegistry } from './frontend/sessionRegistry.js';
import { AccessControl } from './policy/accessControl.js';
import type { AuditEntry, AuditLog, AuditQuery } from './policy/auditLog.js';
import type { ClientTokens } from './policy/clientTokens.js';
import type { PinChange, PinStore } from './policy/pinStore.js';
import { Router } from './routing/router.js';
import { deleteUnreferenced } from './secrets/resolve.js';
import type { SecretStore } from './secrets/secretStore.js';

/** Events of the core; each is an invalidation. */
export interface CoreEvents extends Record<string, unknown> {
  /** The merged catalog changed (items added, removed or renamed). */
  catalogChanged: { tools: boolean; prompts: boolean; resources: boolean };
  /** Some backend's health changed (or it was added or removed). */
  healthChanged: { backendId: string };
  /** A hand edit of the config file was refused; the running config stays. */
  configError: { message: string };
  /** A client's token was revoked or rotated: its sessions must end. */
  clientRevoked: { client: string };
  /** Approvals were requested or answered. */
  approvalsChanged: Record<string, never>;
  /** A backend sent a log message (`notifications/message`). */
  backendLog: { backendId: string; params: LoggingMessageNotification['params'] };
}

/** Optional services of the core: persistence, client tokens, tool pins, the audit log. */
export interface CoreServices {
  store?: ConfigStore | undefined;
  tokens?: ClientTokens | undefined;
  pins?: PinStore | undefined;
  audit?: AuditLog | undefined;
  /** The OS keychain, for `{"secret": NAME}` env and header values. */
  secrets?: SecretStore | undefined;
}

/** The proxy core. Create, `start()`, use, `dispose()`. */
export class SwitchboardCore implements SupervisorHost {
  readonly events = new TypedEmitter<CoreEvents>();
  readonly router: Router;
  /** Policy, client profiles and tokens, approvals. */
  readonly access: AccessControl;
  /** Resource subscriptions shared by every frontend. */
  readonly subscriptions: SubscriptionHub;
  /** Frontend sessions connected over HTTP or stdio (for the UI; no tokens). */
  readonly sessions = new SessionRegistry();
  /**
   * Calls to 2025-era backends waiting for a 2026-07-28 client to retry with
   * the input they asked for. Kept here: each 2026 request gets a fresh server.
   */
  readonly parkedCalls = new ParkedCalls<LegacyCall<unknown>>(() => this.config.proxy.inputTimeoutMs);
  /** Supervisors in config order. */
  private readonly supervisors = new Map<string, BackendSupervisor>();
  /** The published catalog and the admission order behind it. */
  private readonly publisher: CatalogPublisher;
  /** OAuth of the remote backends (tokens in the keychain). */
  private readonly auths: AuthRegistry;
  private disposed = false;

  constructor(
    private config: SwitchboardConfig,
    readonly deps: CoreDeps,
    private readonly services: CoreServices = {},
  ) {
    const { store, tokens, pins, audit } = services;
    this.auths = new AuthRegistry(() => this.services.secrets, deps.logger);
    this.publisher = new CatalogPublisher(
      {
        prefixOf: (id) => this.supervisors.get(id)?.config.prefix ?? id,
        snapshotOf: (id) => this.supervisors.get(id)?.lastSnapshot,
        options: () => ({ separator: this.config.proxy.separator, maxItems: this.config.proxy.maxCatalogItems }),
      },
      (change) => this.events.emit('catalogChanged', change),
    );
    this.access = new AccessControl(
      config.policy,
      {
        policyChanged: () => this.events.emit('catalogChanged', { tools: true, prompts: true, resources: true }),
        clientRevoked: (client) => this.events.emit('clientRevoked', { client }),
        approvalsChanged: () => this.events.emit('approvalsChanged', {}),
      },
      {
        store,
        tokens,
        approvalTimeoutMs: config.proxy.approvalTimeoutMs,
        withheld: (backend, tool) => pins?.isWithheld(backend, tool) ?? false,
      },
    );
    this.router = new Router({
      catalog: () => this.publisher.catalog,
      connection: (id) => (this.publisher.isPublished(id) ? this.supervisors.get(id)?.liveConnection : undefined),
      parked: this.parkedCalls,
      inputTimeoutMs: () => this.config.proxy.inputTimeoutMs,
      authorize: (client, kind, key) => this.access.authorize(client, this.publisher.catalog, kind, key),
      approvals: this.access.approvals,
      approvalTimeoutMs: () => this.config.proxy.approvalTimeoutMs,
      allowAlways: (client, origin) => this.access.setRule(origin.backendId, 'tools', origin.original, 'allow', client),
      audit: (entry) => {
        if (!audit) return;
        const capture = this.access.policy.backends[entry.backend]?.capture === true;
        audit.record(capture ? entry : { ...entry, arguments: undefined, result: undefined });
      },
    });
    this.subscriptions = new SubscriptionHub({
      catalog: () => this.publisher.catalog,
      connection: (id) => this.connection(id),
      mayUse: (client, kind, key) => this.access.authorize(client, this.publisher.catalog, kind, key) !== 'deny',
      audit: (entry) => audit?.record(entry),
    });
  }

  /** The current merged catalog (an immutable snapshot). */
  catalog(): Catalog {
    return this.publisher.catalog;
  }

  /** The keychain secret references are resolved from (undefined: none configured). */
  get secrets(): SecretStore | undefined {
    return this.services.secrets;
  }

  /** The backends' configs in force (a new array after every change). */
  backendConfigs(): readonly BackendConfig[] {
    return this.config.backends;
  }

  /** The proxy options in force. */
  proxyOptions(): ProxyOptions {
    return this.config.proxy;
  }

  /** Connects every enabled backend in parallel; resolves when each has settled. */
  async start(): Promise<void> {
    const { maxBackends } = this.config.proxy;
    const starts: Promise<unknown>[] = [];
    for (const [index, backend] of this.config.backends.entries()) {
      const supervisor = new BackendSupervisor(backend, this);
      this.supervisors.set(backend.id, supervisor);
      if (index >= maxBackends) {
        supervisor.refuse(
          new SwitchboardError(ErrorCode.BackendLimit, `backend "${backend.id}" exceeds maxBackends (${maxBackends})`, {
            maxBackends,
          }),
        );
        continue;
      }
      starts.push(supervisor.start());
    }
    this.services.store?.watch(
      (stored) => void this.applyHandEdit(stored),
      (error) => this.reportConfigError(error),
    );
    await Promise.all(starts);
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

  authFor(backendId: string): BackendAuth | undefined {
    return this.auths.authFor(this.supervisors.get(backendId)?.config);
  }

  // ---- OAuth (MCP authorization spec) ----

  /**
   * Starts the user's authorization of a remote backend. Resolves as soon as
   * the authorization URL is known (opened with `deps.openUrl` when
   * `openBrowser`); `done` settles once the browser came back to the loopback
   * listener, the tokens are in the keychain and the backend reconnected.
   */
  async startAuthorization(
    backendId: string,
    options: { signal?: AbortSignal; openBrowser?: boolean } = {},
  ): Promise<{ authorizationUrl: string; done: Promise<BackendHealth> }> {
    this.supervisor(backendId);
    const auth = this.authFor(backendId);
    if (!auth) {
      throw new SwitchboardError(
        ErrorCode.AuthorizationFailed,
        `backend "${backendId}" does not use OAuth (a stdio server, or its config sets an Authorization header)`,
        { backend: backendId },
      );
    }
    const flow = await auth.authorize({ signal: options.signal });
    if (options.openBrowser) {
      await this.deps.openUrl?.(flow.authorizationUrl).catch((error: unknown) => {
        this.deps.logger.warn(`could not open the browser: ${error instanceof Error ? error.message : String(error)}`);
      });
    }
    const done = flow.done.then(async () => {
      await this.supervisor(backendId).restart();
      return this.backendHealth(backendId);
    });
    done.catch(() => undefined);
    return { authorizationUrl: flow.authorizationUrl, done };
  }

  /**
   * Signs a remote backend out: revokes its tokens where the authorization
   * server supports revocation, deletes them and its client registration from
   * the keychain; the backend then needs authorization.
   */
  async signOut(backendId: string): Promise<{ revoked: boolean }> {
    const supervisor = this.supervisor(backendId);
    const auth = this.authFor(backendId);
    if (!auth) return { revoked: false };
    const result = await auth.signOut();
    supervisor.authorizationLost();
    return result;
  }

  /** Every OAuth-capable backend's authorization state from the keychain, offline. */
  authStatus(): Promise<AuthStatusEntry[]> {
    return readAuthStatus(this.config.backends, this.services.secrets);
  }

  // ---- runtime changes ----

  private supervisor(id: string): BackendSupervisor {
    const supervisor = this.supervisors.get(id);
    if (!supervisor) {
      throw new SwitchboardError(ErrorCode.UnknownBackend, `no backend with ID "${id}"`, { backend: id });
    }
    return supervisor;
  }

  private parseEntry(id: string, entry: unknown): BackendConfig {
    const { backend, problems } = parseBackend(id, entry);
    if (!backend) {
      throw new SwitchboardError(
        ErrorCode.ConfigInvalid,
        problems.map((problem) => `${problem.path}: ${problem.message}`).join('; '),
        { problems },
      );
    }
    return backend;
  }

  /**
   * Adds a backend: validates the entry, connects, lists and validates its
   * catalog, and only then publishes it and saves it to the config file. A
   * backend that cannot be connected, listed, admitted or saved is not added,
   * except with `persist: false` (the file already holds the entry: a hand edit,
   * or servers imported from a client app): then it is kept, down and retrying,
   * as at startup, so what runs matches the file.
   */
  async addBackend(id: string, entry: unknown, options: { persist?: boolean } = {}): Promise<BackendHealth> {
    const backend = this.parseEntry(id, entry);
    if (this.supervisors.has(id)) {
      throw new SwitchboardError(ErrorCode.DuplicateBackend, `a backend with ID "${id}" already exists`, {
        backend: id,
      });
    }
    const { maxBackends } = this.config.proxy;
    if (this.supervisors.size >= maxBackends) {
      throw new SwitchboardError(ErrorCode.BackendLimit, `cannot add "${id}": maxBackends (${maxBackends}) reached`, {
        maxBackends,
      });
    }
    const supervisor = new BackendSupervisor(backend, this);
    this.supervisors.set(id, supervisor);
    const error = await supervisor.start();
    try {
      // A server that needs OAuth is added: authorizing it comes next.
      const needsUser = error instanceof SwitchboardError && error.code === ErrorCode.AuthorizationRequired;
      if (error !== undefined && !needsUser && options.persist !== false) throw error;
      if (options.persist !== false) await this.services.store?.updateServers((servers) => (servers[id] = entry));
    } catch (failure) {
      this.supervisors.delete(id);
      await supervisor.stop(new SwitchboardError(ErrorCode.BackendRemoved, `backend "${id}" was not added`));
      this.changed(id);
      throw failure;
    }
    this.config = { ...this.config, backends: [...this.config.backends, backend] };
    return this.backendHealth(id);
  }

  /**
   * Removes a backend: unpublishes its items, fails its in-flight requests with
   * a clear error, closes it (reaping its process tree) and deletes it from the
   * config file, with the keychain secrets only it referred to (not when
   * `persist` is false: a hand edit may just have renamed it).
   */
  async removeBackend(id: string, options: { persist?: boolean } = {}): Promise<void> {
    const supervisor = this.supervisor(id);
    const removed = this.config.backends.find((backend) => backend.id === id);
    if (options.persist !== false) await this.services.store?.updateServers((servers) => delete servers[id]);
    this.supervisors.delete(id);
    this.config = { ...this.config, backends: this.config.backends.filter((backend) => backend.id !== id) };
    await supervisor.stop(
      new SwitchboardError(ErrorCode.BackendRemoved, `backend "${id}" was removed while the request was in flight`, {
        backend: id,
      }),
    );
    this.changed(id);
    if (removed && options.persist !== false) {
      await deleteUnreferenced(this.services.secrets, removed, this.config.backends, this.deps.logger);
      await this.auths.removed(id);
    }
  }

  /**
   * Replaces a backend's config (an edit): the new entry is validated, saved,
   * and the backend restarted with it. Keychain secrets the old entry referred
   * to and no entry refers to any more are deleted.
   */
  async updateBackend(id: string, entry: unknown, options: { persist?: boolean } = {}): Promise<BackendHealth> {
    const previous = this.supervisor(id);
    const backend = this.parseEntry(id, entry);
    if (options.persist !== false) await this.services.store?.updateServers((servers) => (servers[id] = entry));
    await previous.stop(
      new SwitchboardError(ErrorCode.BackendUnavailable, `backend "${id}" is restarting with a new config`, {
        backend: id,
      }),
    );
    await this.auths.replaced(previous.config, backend);
    const next = new BackendSupervisor(backend, this);
    this.supervisors.set(id, next);
    this.config = {
      ...this.config,
      backends: this.config.backends.map((other) => (other.id === id ? backend : other)),
    };
    // Secrets the edit dropped go too, unless another backend still refers to them (not on hand edits).
    if (options.persist !== false) {
      await deleteUnreferenced(this.services.secrets, previous.config, this.config.backends, this.deps.logger);
    }
    await next.start();
    return this.backendHealth(id);
  }

  /** Re-lists a backend's catalog now. */
  async refreshBackend(id: string): Promise<BackendHealth> {
    await this.supervisor(id).refresh();
    return this.backendHealth(id);
  }

  /** Restarts a backend now (resets its reconnect backoff). */
  async restartBackend(id: string): Promise<BackendHealth> {
    await this.supervisor(id).restart();
    return this.backendHealth(id);
  }

  /** Probes every live backend now (the same probe the timer runs). */
  async probeAll(): Promise<void> {
    await Promise.all([...this.supervisors.values()].map((supervisor) => supervisor.probe()));
  }

  /** Applies a hand edit of the config file: added, removed and changed entries. */
  private async applyHandEdit(stored: StoredConfig): Promise<void> {
    if (this.disposed) return;
    if (JSON.stringify(stored.config.policy) !== JSON.stringify(this.access.policy)) {
      this.access.replace(stored.config.policy);
    }
    if (JSON.stringify(stored.config.proxy) !== JSON.stringify(this.config.proxy)) {
      this.deps.logger.warn('the proxy section of the config changed; restart Switchboard to apply it');
    }
    const diff = diffBackends(this.config.backends, stored);
    const tasks: Promise<unknown>[] = [
      ...diff.removed.map((id) => this.removeBackend(id, { persist: false })),
      ...diff.added.map(({ id, entry }) => this.addBackend(id, entry, { persist: false })),
      ...diff.changed.map(({ id, entry }) => this.updateBackend(id, entry, { persist: false })),
    ];
    const results = await Promise.allSettled(tasks);
    for (const result of results) {
      if (result.status === 'rejected') this.reportConfigError(result.reason);
    }
  }

  private reportConfigError(error: unknown): void {
    const message = error instanceof Error ? error.message : String(error);
    this.deps.logger.error(`config change not applied: ${message}`);
    this.events.emit('configError', { message });
  }

  // ---- health ----

  private backendHealth(id: string): BackendHealth {
    const supervisor = this.supervisor(id);
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
    return readinessOf(
      [...this.supervisors.values()].map((supervisor) => ({
        status: supervisor.currentStatus,
        enabled: supervisor.config.enabled,
        settled: supervisor.isSettled,
      })),
    );
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
