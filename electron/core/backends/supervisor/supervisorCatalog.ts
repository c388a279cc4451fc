/**
 * One backend's published catalog: the snapshot in the merged catalog (live,
 * or seeded from the catalog cache before the backend runs), and re-listing
 * on the backend's list_changed notifications (MCP spec, "List Changed
 * Notification" of tools, prompts and resources). A notification that arrives
 * while the backend is still connecting re-lists once it is admitted. A
 * failed re-list keeps the last snapshot and degrades the backend.
 */
import { ErrorCode, SwitchboardError } from '../../../../shared/errors.js';
import type { BackendStatus } from '../../../../shared/model/health.js';
import type { BackendCatalog, BackendConnection } from '../connection/backendConnection.js';
import type { SupervisorHost } from './supervisorHost.js';

/** What the catalog needs of its supervisor. */
export interface SupervisorCatalogHost {
  id: string;
  host: Pick<SupervisorHost, 'admit' | 'catalogListed'>;
  /** The connection of the current attempt (live or still connecting). */
  current(): BackendConnection | undefined;
  /** The live connection (up, degraded, or serving while it needs a wider scope). */
  live(): BackendConnection | undefined;
  status(): BackendStatus;
  /** How long the last start took (ms), if it finished. */
  startMs(): number | undefined;
  up(): void;
  degrade(error: unknown): void;
}

/** The snapshot a supervisor published, and its refreshes. */
export class SupervisorCatalog {
  private published: BackendCatalog | undefined;
  /** The published snapshot came from the catalog cache (no live listing yet). */
  private seeded = false;
  /** A list change arrived while connecting: re-list once admitted. */
  private pending = false;

  constructor(private readonly hooks: SupervisorCatalogHost) {}

  /** The last published snapshot. */
  get snapshot(): BackendCatalog | undefined {
    return this.published;
  }

  /** Whether the published catalog is the cached one. */
  get fromCache(): boolean {
    return this.seeded;
  }

  /** Publishes a cached snapshot before the backend runs. */
  seed(snapshot: BackendCatalog): void {
    this.published = snapshot;
    this.seeded = true;
  }

  /** A new attempt begins: a change noticed before it is answered by its own listing. */
  attemptStarted(): void {
    this.pending = false;
  }

  /** The attempt failed: a cached catalog no longer stands for it (the supervisor unpublishes it). */
  attemptFailed(): void {
    this.seeded = false;
  }

  /** Publishes a live listing; throws (publishing nothing) on a collision or limit. */
  async publish(snapshot: BackendCatalog): Promise<void> {
    await this.hooks.host.admit(this.hooks.id, snapshot);
    this.published = snapshot;
    this.seeded = false;
    this.hooks.host.catalogListed?.(this.hooks.id, snapshot, this.hooks.startMs());
  }

  /**
   * Publishes a stand-in that is not the backend's listing (a per-caller
   * backend's sign-in tool before anyone signed in): admitted like a
   * listing, never saved to the catalog cache, replaced by the first listing.
   */
  async publishStandIn(snapshot: BackendCatalog): Promise<void> {
    await this.hooks.host.admit(this.hooks.id, snapshot);
    this.published = snapshot;
    this.seeded = false;
  }

  /** The backend is admitted: a change that came while connecting is listed now. */
  admitted(): void {
    if (this.pending) void this.refresh();
  }

  /** A list-changed notification on `connection`: re-list now, or once the backend is admitted. */
  listChanged(connection: BackendConnection): void {
    if (this.hooks.current() !== connection) return;
    if (this.hooks.live() === connection) void this.refresh();
    else this.pending = true;
  }

  /**
   * Re-lists the catalog now. A failure keeps the last snapshot published and
   * marks the backend degraded; a success clears a refresh failure.
   */
  async refresh(): Promise<void> {
    const connection = this.hooks.live();
    const { id } = this.hooks;
    if (!connection) {
      throw new SwitchboardError(ErrorCode.BackendUnavailable, `backend "${id}" is ${this.hooks.status()}`, {
        backend: id,
      });
    }
    this.pending = false;
    try {
      const snapshot = await connection.listCatalog();
      if (this.hooks.current() !== connection) return;
      await this.publish(snapshot);
      this.hooks.up();
    } catch (error) {
      if (this.hooks.current() !== connection) return;
      this.hooks.degrade(error);
    }
  }
}
