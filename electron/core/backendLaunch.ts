/**
 * Launching the configured backends at start: every cached catalog is read
 * and published first, in config order (so names are given out as a live
 * start would give them), and only then are the backends started, a bounded
 * number of children at a time. An on-demand backend whose catalog is cached
 * is not started at all: it shows as `idle` until a request needs it.
 */
import { ErrorCode, SwitchboardError } from '../../shared/errors.js';
import type { CatalogCache } from './catalog/catalogCache.js';
import { startModeOf, type BackendConfig, type ProxyOptions } from './config/schema.js';
import type { Logger } from './deps.js';
import type { BackendCatalog } from './backends/backendConnection.js';
import type { BackendSupervisor } from './backends/backendSupervisor.js';

export { connectTimeoutMs } from './backends/connectTimeout.js';

/** What launching needs from the core. */
export interface LaunchHost {
  proxy: ProxyOptions;
  cache: CatalogCache | undefined;
  logger: Logger;
  /** Publishes snapshots in one build, in order (pins reviewed); resolves with the refused ones. */
  admitAll(entries: { id: string; snapshot: BackendCatalog }[]): Promise<Map<string, SwitchboardError>>;
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
  const cached = await Promise.all(
    admitted.map((backend) => (backend.enabled && host.cache ? host.cache.load(backend) : undefined)),
  );
  // Every cached catalog in one build (a catalog rebuilt per backend costs O(n^2) with 70 servers).
  const seeded: { id: string; snapshot: BackendCatalog }[] = [];
  for (const [index, backend] of admitted.entries()) {
    const snapshot = cached[index];
    if (!snapshot) continue;
    supervisors[index]!.seedFromCache(snapshot, false);
    seeded.push({ id: backend.id, snapshot });
  }
  const refused = seeded.length > 0 ? await host.admitAll(seeded) : new Map<string, SwitchboardError>();
  const toStart: BackendSupervisor[] = [];
  for (const [index, backend] of admitted.entries()) {
    const supervisor = supervisors[index]!;
    const snapshot = cached[index];
    const refusal = refused.get(backend.id);
    // The live listing decides (and reports the collision or limit if it persists).
    if (refusal) host.logger.warn(`cached catalog of "${backend.id}" not published: ${refusal.message}`);
    if (snapshot && !refusal && startModeOf(backend, host.proxy) === 'on-demand') {
      supervisor.seedFromCache(snapshot, true);
    } else {
      toStart.push(supervisor);
    }
  }
  await Promise.all(toStart.map((supervisor) => supervisor.start()));
}
