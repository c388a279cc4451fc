/**
 * Launching the configured backends at start: every cached catalog is read
 * and published first, in config order (so names are given out as a live
 * start would give them), and only then are the backends started, a bounded
 * number of children at a time (startLimiter.ts). An on-demand backend whose
 * catalog is cached is not started at all: it shows as `idle` until a request
 * needs it. Backends with nothing cached start at once (a list waits for them
 * during the startup grace); eager backends whose catalog is cached start once
 * the first list has been answered from the cache, or {@link CACHED_START_DELAY_MS}
 * after launch if no list comes first, so that answer never competes with
 * their children for the CPU. They start slowest first (the last start's
 * duration is kept with the cached catalog), so the slowest is not the last
 * to be given a place.
 */
import { ErrorCode, SwitchboardError } from '../../../shared/errors.js';
import type { CachedCatalog, CatalogCache } from '../catalog/catalogCache.js';
import { startModeOf, type BackendConfig, type ProxyOptions } from '../platform/config/schema.js';
import type { Logger } from '../platform/deps.js';
import type { BackendCatalog } from '../backends/connection/backendConnection.js';
import type { BackendSupervisor } from '../backends/supervisor/backendSupervisor.js';

/** How long cached eager backends wait for a first list before they start anyway. */
export const CACHED_START_DELAY_MS = 1000;

/** What launching needs from the core. */
export interface LaunchHost {
  proxy: ProxyOptions;
  cache: CatalogCache | undefined;
  logger: Logger;
  /** Publishes snapshots in one build, in order (pins reviewed); resolves with the refused ones. */
  admitAll(entries: { id: string; snapshot: BackendCatalog }[]): Promise<Map<string, SwitchboardError>>;
  /** Every cached catalog is published (a list no longer waits for that). */
  cachePublished(): void;
  /** Resolves once the first list request has been answered. */
  firstList: Promise<void>;
}

/**
 * Publishes cached catalogs, then starts every supervisor that should run now.
 * Resolves when each started one has settled (`supervisors` beyond
 * `maxBackends` are refused).
 */
export async function launchBackends(
  backends: readonly BackendConfig[],
  supervisorOf: (backend: BackendConfig) => BackendSupervisor,
  host: LaunchHost,
): Promise<void> {
  const { maxBackends } = host.proxy;
  const admitted = backends.slice(0, maxBackends);
  const supervisors = admitted.map(supervisorOf);
  for (const backend of backends.slice(maxBackends)) {
    supervisorOf(backend).refuse(
      new SwitchboardError(ErrorCode.BackendLimit, `backend "${backend.id}" exceeds maxBackends (${maxBackends})`, {
        maxBackends,
      }),
    );
  }
  let cached: (CachedCatalog | undefined)[];
  let refused: Map<string, SwitchboardError>;
  try {
    // One read of every entry (with replicas: one Redis round trip, not one per backend).
    const enabled = admitted.filter((backend) => backend.enabled);
    const entries = host.cache ? await host.cache.loadEntries(enabled) : [];
    const entryOf = new Map(enabled.map((backend, index) => [backend, entries[index]]));
    cached = admitted.map((backend) => entryOf.get(backend));
    // Every cached catalog in one build (a catalog rebuilt per backend costs O(n^2) with 70 servers).
    const seeded: { id: string; snapshot: BackendCatalog }[] = [];
    for (const [index, backend] of admitted.entries()) {
      const entry = cached[index];
      if (!entry) continue;
      supervisors[index]!.seedFromCache(entry.catalog, false);
      seeded.push({ id: backend.id, snapshot: entry.catalog });
    }
    refused = seeded.length > 0 ? await host.admitAll(seeded) : new Map<string, SwitchboardError>();
  } finally {
    host.cachePublished();
  }
  const now: BackendSupervisor[] = [];
  const later: { supervisor: BackendSupervisor; startMs: number }[] = [];
  for (const [index, backend] of admitted.entries()) {
    const supervisor = supervisors[index]!;
    const entry = cached[index];
    const refusal = refused.get(backend.id);
    // The live listing decides (and reports the collision or limit if it persists).
    if (refusal) host.logger.warn(`cached catalog of "${backend.id}" not published: ${refusal.message}`);
    const published = entry !== undefined && !refusal;
    if (published && startModeOf(backend, host.proxy) === 'on-demand') supervisor.seedFromCache(entry.catalog, true);
    else if (published) later.push({ supervisor, startMs: entry.startMs ?? 0 });
    else now.push(supervisor);
  }
  // Slowest first; a stable sort keeps config order among equals.
  later.sort((a, b) => b.startMs - a.startMs);
  await Promise.all([
    ...now.map((supervisor) => supervisor.start()),
    afterFirstList(host.firstList).then(() => Promise.all(later.map(({ supervisor }) => supervisor.startOnce()))),
  ]);
}

/** Resolves when the first list has been answered, or after {@link CACHED_START_DELAY_MS}. */
async function afterFirstList(firstList: Promise<void>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([firstList, new Promise<void>((resolve) => (timer = setTimeout(resolve, CACHED_START_DELAY_MS)))]);
  clearTimeout(timer);
}
