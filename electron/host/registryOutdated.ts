/**
 * `registry.outdated` for the Servers screen: the `outdated` check
 * (install/registry/registryUpdates.ts) bounded by a timeout, keeping only the
 * backends whose registry answered, live, with a different version. A
 * registry that cannot be reached (or answers only from the cache) says
 * nothing: the screen shows no update rather than an error.
 */
import type { RegistryUpdateView } from '../../shared/model/registryViews.js';
import { registryClientFor, listOutdated, type RunningBackends } from '../core/install/index.js';

/** How long the check may take before it gives up (ms). */
export const OUTDATED_TIMEOUT_MS = 5_000;

/** What the check needs. */
export interface OutdatedDeps {
  configPath: string | undefined;
  stateDir: string;
  environment: NodeJS.ProcessEnv;
  signal?: AbortSignal;
  timeoutMs?: number;
  /** The running core's backends (else the config file is read). */
  backends?: RunningBackends;
}

/** The backends with an update available; `[]` when there is no config file or the registry is unreachable. */
export async function registryUpdates(deps: OutdatedDeps): Promise<RegistryUpdateView[]> {
  if (deps.configPath === undefined) return [];
  const timeout = AbortSignal.timeout(deps.timeoutMs ?? OUTDATED_TIMEOUT_MS);
  const signal = deps.signal ? AbortSignal.any([deps.signal, timeout]) : timeout;
  const check = async (): Promise<RegistryUpdateView[]> => {
    const client = await registryClientFor(deps.configPath!, deps.stateDir, deps.environment);
    const rows = await listOutdated({
      configPath: deps.configPath!,
      client,
      signal,
      ...(deps.backends ? { backends: deps.backends } : {}),
    });
    return rows.flatMap((row) =>
      row.latest !== undefined && !row.error && !row.offline && row.latest !== row.current
        ? [{ id: row.id, name: row.name, current: row.current, latest: row.latest }]
        : [],
    );
  };
  // The signal bounds each request; the race bounds the whole check (e.g. many backends).
  const expired = new Promise<RegistryUpdateView[]>((resolve) =>
    signal.addEventListener('abort', () => resolve([]), { once: true }),
  );
  try {
    return await Promise.race([check(), expired]);
  } catch {
    return []; // an unreadable config or an unreachable registry: nothing to say
  }
}
