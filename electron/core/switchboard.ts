/**
 * The proxy core: owns the backends, admits their catalogs, and exposes the
 * merged catalog and health to the frontends. Plain Node; never imports
 * Electron. Platform pieces come in through `CoreDeps`.
 */
import { ErrorCode, SwitchboardError, toErrorData } from '../../shared/errors.js';
import type { BackendHealth, BackendStatus, Readiness } from '../../shared/model/health.js';
import { BackendConnection, type BackendCatalog } from './backends/backendConnection.js';
import { buildCatalog, Catalog, type CatalogInput } from './catalog/catalog.js';
import { parseBackend, type BackendConfig, type SwitchboardConfig } from './config/schema.js';
import type { CoreDeps } from './deps.js';
import { TypedEmitter } from './events.js';
import { LineTail } from './backends/transports.js';
import { Router } from './routing/router.js';

/** Events of the core; each is an invalidation. */
export interface CoreEvents extends Record<string, unknown> {
  /** The merged catalog changed (items added, removed or renamed). */
  catalogChanged: { tools: boolean; prompts: boolean; resources: boolean };
  /** Some backend's health changed. */
  healthChanged: { backendId: string };
}

/** Per-backend state kept by the core. */
interface BackendSlot {
  config: BackendConfig;
  status: BackendStatus;
  settled: boolean;
  connection: BackendConnection | undefined;
  snapshot: BackendCatalog | undefined;
  lastError: BackendHealth['lastError'];
  /** The stdio child's recent stderr, kept across restarts and failures. */
  stderrTail: LineTail;
}

/** The proxy core. Create with `new SwitchboardCore(config, deps)`, then `start()`. */
export class SwitchboardCore {
  readonly events = new TypedEmitter<CoreEvents>();
  readonly router: Router;
  private readonly slots = new Map<string, BackendSlot>();
  /** Backend IDs whose catalogs are published, in the order they were admitted. */
  private admitted: string[] = [];
  private current = new Catalog();
  private disposed = false;

  constructor(
    private config: SwitchboardConfig,
    private readonly deps: CoreDeps,
  ) {
    this.router = new Router({
      catalog: () => this.current,
      connection: (id) => {
        const slot = this.slots.get(id);
        return slot && this.admitted.includes(id) ? slot.connection : undefined;
      },
    });
  }

  /** The current merged catalog (an immutable snapshot). */
  catalog(): Catalog {
    return this.current;
  }

  /** The proxy options in force. */
  get options(): SwitchboardConfig['proxy'] {
    return this.config.proxy;
  }

  /** Connects every enabled backend in parallel; resolves when each has settled. */
  async start(): Promise<void> {
    const { maxBackends } = this.config.proxy;
    const starts: Promise<void>[] = [];
    for (const [index, config] of this.config.backends.entries()) {
      const slot = this.createSlot(config);
      if (index >= maxBackends) {
        this.fail(
          slot,
          new SwitchboardError(ErrorCode.BackendLimit, `backend "${config.id}" exceeds maxBackends (${maxBackends})`, {
            maxBackends,
          }),
        );
        continue;
      }
      if (config.enabled) starts.push(this.connectSlot(slot).then(() => undefined));
    }
    await Promise.all(starts);
  }

  private createSlot(config: BackendConfig): BackendSlot {
    const slot: BackendSlot = {
      config,
      status: config.enabled ? 'connecting' : 'disabled',
      settled: !config.enabled,
      connection: undefined,
      snapshot: undefined,
      lastError: undefined,
      stderrTail: new LineTail(50),
    };
    this.slots.set(config.id, slot);
    return slot;
  }

  /**
   * Connects one backend, lists its catalog and admits it. Failures mark it
   * down and resolve to the error (undefined on success).
   */
  private async connectSlot(slot: BackendSlot): Promise<unknown> {
    const { config } = slot;
    const connection = new BackendConnection({
      config,
      proxy: this.config.proxy,
      environment: this.deps.environment,
      clientInfo: this.deps.clientInfo,
      stderrTail: slot.stderrTail,
      onUnexpectedClose: (error) => this.onBackendClosed(slot, connection, error),
    });
    slot.connection = connection;
    this.setStatus(slot, 'connecting');
    try {
      await connection.connect();
      const snapshot = await connection.listCatalog();
      if (this.disposed || slot.connection !== connection) {
        await connection.close();
        return new SwitchboardError(ErrorCode.BackendRemoved, `backend "${config.id}" was removed while connecting`);
      }
      this.admit(slot, snapshot);
      this.deps.logger.info(`backend "${config.id}" is up (${this.describeCounts(config.id)})`);
      return undefined;
    } catch (error) {
      await connection.close();
      if (slot.connection === connection) {
        slot.connection = undefined;
        this.fail(slot, error);
      }
      return error;
    }
  }

  /**
   * Adds a backend at runtime: validates the entry, connects, lists and
   * validates its catalog, and only then publishes it. A backend that cannot be
   * connected, listed or admitted is not added; the error says why.
   */
  async addBackend(id: string, entry: unknown): Promise<BackendHealth> {
    const { backend, problems } = parseBackend(id, entry);
    if (!backend) {
      throw new SwitchboardError(
        ErrorCode.ConfigInvalid,
        problems.map((problem) => `${problem.path}: ${problem.message}`).join('; '),
        { problems },
      );
    }
    if (this.slots.has(id)) {
      throw new SwitchboardError(ErrorCode.DuplicateBackend, `a backend with ID "${id}" already exists`, {
        backend: id,
      });
    }
    const { maxBackends } = this.config.proxy;
    if (this.slots.size >= maxBackends) {
      throw new SwitchboardError(ErrorCode.BackendLimit, `cannot add "${id}": maxBackends (${maxBackends}) reached`, {
        maxBackends,
      });
    }
    const slot = this.createSlot(backend);
    this.config = { ...this.config, backends: [...this.config.backends, backend] };
    const error = backend.enabled ? await this.connectSlot(slot) : undefined;
    if (error !== undefined) {
      this.slots.delete(id);
      this.config = { ...this.config, backends: this.config.backends.filter((other) => other !== backend) };
      this.events.emit('healthChanged', { backendId: id });
      throw error;
    }
    const health = this.health().find((other) => other.id === id);
    if (!health) throw new Error(`backend "${id}" vanished while being added`);
    return health;
  }

  private describeCounts(id: string): string {
    const counts = this.current.countsOf(id);
    return `${counts.tools} tools, ${counts.prompts} prompts, ${counts.resources} resources, ${counts.resourceTemplates} templates`;
  }

  /** Publishes a backend's snapshot; throws (and publishes nothing) if it collides or exceeds a limit. */
  private admit(slot: BackendSlot, snapshot: BackendCatalog): void {
    const id = slot.config.id;
    const order = this.admitted.includes(id) ? this.admitted : [...this.admitted, id];
    const inputs = order.map((other): CatalogInput => {
      const otherSlot = this.slots.get(other);
      const otherSnapshot = other === id ? snapshot : otherSlot?.snapshot;
      return { backendId: other, prefix: otherSlot?.config.prefix ?? other, snapshot: otherSnapshot ?? emptyCatalog() };
    });
    const { catalog, refused } = buildCatalog(inputs, {
      separator: this.config.proxy.separator,
      maxItems: this.config.proxy.maxCatalogItems,
    });
    const refusal = refused.get(id);
    if (refusal) throw refusal;
    slot.snapshot = snapshot;
    this.admitted = order;
    this.publish(catalog);
    slot.lastError = undefined;
    this.setStatus(slot, 'up');
  }

  /** Drops a backend's items from the catalog. */
  private unpublish(id: string): void {
    if (!this.admitted.includes(id)) return;
    this.admitted = this.admitted.filter((other) => other !== id);
    const inputs = this.admitted.map((other): CatalogInput => {
      const slot = this.slots.get(other);
      return { backendId: other, prefix: slot?.config.prefix ?? other, snapshot: slot?.snapshot ?? emptyCatalog() };
    });
    const { catalog } = buildCatalog(inputs, {
      separator: this.config.proxy.separator,
      maxItems: this.config.proxy.maxCatalogItems,
    });
    this.publish(catalog);
  }

  private publish(catalog: Catalog): void {
    const previous = this.current;
    this.current = catalog;
    const changed = {
      tools: JSON.stringify(previous.tools) !== JSON.stringify(catalog.tools),
      prompts: JSON.stringify(previous.prompts) !== JSON.stringify(catalog.prompts),
      resources:
        JSON.stringify([previous.resources, previous.resourceTemplates]) !==
        JSON.stringify([catalog.resources, catalog.resourceTemplates]),
    };
    if (changed.tools || changed.prompts || changed.resources) this.events.emit('catalogChanged', changed);
  }

  private fail(slot: BackendSlot, error: unknown): void {
    slot.lastError = { ...toErrorData(error), at: new Date().toISOString() };
    this.deps.logger.warn(`backend "${slot.config.id}" is down: ${slot.lastError.message}`);
    this.setStatus(slot, 'down');
  }

  private onBackendClosed(slot: BackendSlot, connection: BackendConnection, error: SwitchboardError): void {
    if (this.disposed || slot.connection !== connection) return;
    slot.connection = undefined;
    this.unpublish(slot.config.id);
    this.fail(slot, error);
    void connection.close();
  }

  private setStatus(slot: BackendSlot, status: BackendStatus): void {
    if (status !== 'connecting') slot.settled = true;
    slot.status = status;
    this.events.emit('healthChanged', { backendId: slot.config.id });
  }

  /** Health of every configured backend, in config order. Contains no secrets. */
  health(): BackendHealth[] {
    return [...this.slots.values()].map((slot): BackendHealth => {
      const connection = slot.connection;
      const health: BackendHealth = {
        id: slot.config.id,
        transport: slot.config.transport,
        status: slot.status,
        settled: slot.settled,
        warnings: this.current.warnings.get(slot.config.id) ?? [],
        counts: this.current.countsOf(slot.config.id),
        outstandingRequests: connection?.outstanding ?? 0,
      };
      if (slot.lastError) health.lastError = slot.lastError;
      if (connection?.era) health.era = connection.era;
      if (connection?.protocolVersion) health.protocolVersion = connection.protocolVersion;
      if (connection?.serverInfo) health.serverInfo = connection.serverInfo;
      if (connection?.pid !== undefined) health.pid = connection.pid;
      if (slot.config.transport === 'stdio') health.stderrTail = slot.stderrTail.snapshot();
      return health;
    });
  }

  /**
   * Ready once every enabled backend has finished its first connection attempt
   * and at least one is up (or none is configured).
   */
  readiness(): Readiness {
    const counts: Record<BackendStatus, number> = { connecting: 0, up: 0, degraded: 0, down: 0, disabled: 0 };
    let enabled = 0;
    let settled = true;
    for (const slot of this.slots.values()) {
      counts[slot.status]++;
      if (slot.config.enabled) {
        enabled++;
        if (!slot.settled) settled = false;
      }
    }
    const ready = settled && (enabled === 0 || counts.up + counts.degraded > 0);
    return { ready, counts };
  }

  /** Closes every backend and reaps their processes. */
  async dispose(): Promise<void> {
    this.disposed = true;
    const connections = [...this.slots.values()].flatMap((slot) => (slot.connection ? [slot.connection] : []));
    for (const slot of this.slots.values()) slot.connection = undefined;
    await Promise.allSettled(connections.map((connection) => connection.close()));
  }
}

function emptyCatalog(): BackendCatalog {
  return { tools: [], resources: [], resourceTemplates: [], prompts: [] };
}
