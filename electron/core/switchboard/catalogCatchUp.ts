/**
 * Replicas: the catalog cache's entries a replica could not share while
 * Redis was away, shared when it returns. A replica that started (or
 * listed a server) while Redis was down wrote its live listings nowhere:
 * they are written now, so a replica started later lists those servers at
 * once. And a replica that found no shared entry at start publishes the
 * entry now for each server that has nothing published and is still
 * waiting (a slow start, or a per-caller server before its first sign-in),
 * as its start would have with Redis up. Nothing is started or stopped here.
 */
import type { BackendStatus } from '../../../shared/model/health.js';
import type { SwitchboardError } from '../../../shared/errors.js';
import type { BackendCatalog } from '../backends/connection/backendConnection.js';
import type { BackendSupervisor } from '../backends/supervisor/backendSupervisor.js';
import type { CatalogCache } from '../catalog/catalogCache.js';
import type { Cluster } from '../platform/cluster/cluster.js';
import type { Logger } from '../platform/deps.js';

/** A backend in these states with nothing published may show a cached catalog meanwhile. */
const WAITING: ReadonlySet<BackendStatus> = new Set(['connecting', 'needs-authorization']);

/** What catching up needs from the core. */
export interface CatalogCatchUpHost {
  cluster: Pick<Cluster, 'onStatus'>;
  cache: CatalogCache;
  supervisors(): Iterable<BackendSupervisor>;
  /** Publishes snapshots in one build (pins reviewed); resolves with the refused ones. */
  admitAll(entries: { id: string; snapshot: BackendCatalog }[]): Promise<Map<string, SwitchboardError>>;
  logger: Logger;
}

/** Catches up each time Redis comes back. Returns the unsubscribe. */
export function catchUpCatalogs(host: CatalogCatchUpHost): () => void {
  let running = Promise.resolve();
  return host.cluster.onStatus((status) => {
    if (status !== 'up') return;
    running = running
      .then(() => catchUp(host))
      .catch((error: unknown) => host.logger.warn(`shared catalogs not caught up: ${(error as Error).message}`));
  });
}

async function catchUp(host: CatalogCatchUpHost): Promise<void> {
  const supervisors = [...host.supervisors()];
  const byId = new Map(supervisors.map((supervisor) => [supervisor.id, supervisor]));
  for (const id of host.cache.takeUnsaved()) {
    const supervisor = byId.get(id);
    const snapshot = supervisor?.lastSnapshot;
    if (supervisor && snapshot && !supervisor.publishedFromCache) void host.cache.save(supervisor.config, snapshot);
  }
  const waiting = supervisors.filter(
    (supervisor) => supervisor.config.enabled && !supervisor.lastSnapshot && WAITING.has(supervisor.currentStatus),
  );
  if (waiting.length === 0) return;
  const entries = await host.cache.loadEntries(waiting.map((supervisor) => supervisor.config));
  const seeded: { id: string; snapshot: BackendCatalog }[] = [];
  for (const [index, supervisor] of waiting.entries()) {
    const entry = entries[index];
    // Listed live meanwhile: that listing stands.
    if (!entry || supervisor.lastSnapshot) continue;
    supervisor.seedFromCache(entry.catalog, false);
    seeded.push({ id: supervisor.id, snapshot: entry.catalog });
  }
  if (seeded.length === 0) return;
  for (const [id, refusal] of await host.admitAll(seeded)) {
    host.logger.warn(`cached catalog of "${id}" not published: ${refusal.message}`);
  }
}
