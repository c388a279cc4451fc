/**
 * Which backends' catalogs are published, and the merged catalog built from
 * them in config order (so a name's owner never depends on which server
 * started first); each change swaps in a new immutable catalog and reports
 * which lists changed (so frontends get exactly the list_changed they need).
 */
import type { BackendCatalog } from '../backends/connection/backendConnection.js';
import type { SwitchboardError } from '../../../shared/errors.js';
import type { ServerOverrides } from '../platform/config/overridesConfig.js';
import { buildCatalog, Catalog, type CatalogInput, type CatalogOptions } from './catalog.js';

/** What the publisher reads from the core. */
export interface CatalogPublisherHost {
  prefixOf(backendId: string): string;
  snapshotOf(backendId: string): BackendCatalog | undefined;
  /** The backend's tool overrides in force (absent: none). */
  overridesOf?(backendId: string): ServerOverrides | undefined;
  options(): CatalogOptions;
}

/** Which lists a change touched. */
export interface CatalogChange {
  tools: boolean;
  prompts: boolean;
  resources: boolean;
}

/** A catalog ready to publish, from `check`. */
export interface StagedCatalog {
  order: string[];
  catalog: Catalog;
}

const EMPTY: BackendCatalog = { tools: [], resources: [], resourceTemplates: [], prompts: [] };

/** The published catalog and the admission order behind it. */
export class CatalogPublisher {
  private admitted: string[] = [];
  private current = new Catalog();
  /** Set once the core shuts down ({@link close}). */
  private closed = false;

  constructor(
    private readonly source: CatalogPublisherHost,
    private readonly onChange: (change: CatalogChange) => void,
  ) {}

  /** The merged catalog in force. */
  get catalog(): Catalog {
    return this.current;
  }

  /** Whether a backend's items are published. */
  isPublished(backendId: string): boolean {
    return this.admitted.includes(backendId);
  }

  /**
   * Builds the catalog with `snapshot` as the backend's items; throws the
   * refusal (collision, limit) if it cannot be admitted. Publishes nothing.
   */
  check(backendId: string, snapshot: BackendCatalog): StagedCatalog {
    const order = this.isPublished(backendId) ? this.admitted : [...this.admitted, backendId];
    const override = { id: backendId, snapshot };
    let { catalog, refused } = this.build(order, override);
    // Built in config order, a backend earlier in the config could push one already published over a
    // limit; the one being checked is the one refused then, as if it came last.
    if ([...refused.keys()].some((id) => id !== backendId))
      ({ catalog, refused } = this.build(order, override, backendId));
    const refusal = refused.get(backendId);
    if (refusal) throw refusal;
    return { order, catalog };
  }

  /** Publishes a catalog from `check`. */
  commit(staged: StagedCatalog): void {
    this.admitted = staged.order;
    this.publish(staged.catalog);
  }

  /**
   * Publishes several backends at once, in order, from their current
   * snapshots (one build and one change instead of one per backend: the
   * cached catalogs at start). Returns the refused ones with their errors.
   */
  admitAll(backendIds: string[]): Map<string, SwitchboardError> {
    const order = [...this.admitted, ...backendIds.filter((id) => !this.isPublished(id))];
    const { catalog, refused } = this.build(order);
    this.admitted = order.filter((id) => !refused.has(id));
    this.publish(catalog);
    return refused;
  }

  /**
   * The core is shutting down: every backend is about to stop, and taking each
   * one's items out would rebuild the whole catalog once per backend (at quit,
   * thirty servers made thirty builds and thirty list_changed nobody needs).
   * The catalog in force stays as it is from now on.
   */
  close(): void {
    this.closed = true;
  }

  /** Builds the published backends' catalog again (their overrides changed); announces what changed. */
  refresh(): void {
    if (this.closed) return;
    this.publish(this.build(this.admitted).catalog);
  }

  /** Takes a backend's items out of the catalog. */
  unpublish(backendId: string): void {
    if (this.closed || !this.isPublished(backendId)) return;
    this.admitted = this.admitted.filter((other) => other !== backendId);
    this.publish(this.build(this.admitted).catalog);
  }

  /** The input a published backend gives the merged catalog (a server's own endpoint builds its view from it). */
  inputOf(backendId: string): CatalogInput | undefined {
    return this.isPublished(backendId) ? this.input(backendId) : undefined;
  }

  /** One backend's input: its prefix and its snapshot (or `override`'s). */
  private input(id: string, override?: { id: string; snapshot: BackendCatalog }): CatalogInput {
    return {
      backendId: id,
      prefix: this.source.prefixOf(id),
      snapshot: (override?.id === id ? override.snapshot : this.source.snapshotOf(id)) ?? EMPTY,
      overrides: this.source.overridesOf?.(id),
    };
  }

  /** Builds the catalog of `order` (in config order); `last`: that backend is built after all others. */
  private build(order: string[], override?: { id: string; snapshot: BackendCatalog }, last?: string) {
    const inputs = order.map((id) => this.input(id, override));
    const options = this.source.options();
    const owners = options.owners;
    if (last === undefined || !owners) return buildCatalog(inputs, options);
    const lastOwners = [
      ...owners.filter((owner) => owner.backendId !== last),
      ...owners.filter((o) => o.backendId === last),
    ];
    return buildCatalog(inputs, { ...options, owners: lastOwners });
  }

  private publish(catalog: Catalog): void {
    const previous = this.current;
    this.current = catalog;
    const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);
    const change = {
      tools: !same(previous.tools, catalog.tools),
      prompts: !same(previous.prompts, catalog.prompts),
      // Skills are resources too (SEP-2640): their changes go out as resources/list_changed.
      resources: !same(
        [previous.resources, previous.resourceTemplates, previous.skills],
        [catalog.resources, catalog.resourceTemplates, catalog.skills],
      ),
    };
    if (change.tools || change.prompts || change.resources) this.onChange(change);
  }
}
