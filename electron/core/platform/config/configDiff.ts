/**
 * What a hand edit of the config file changed, backend by backend: the core
 * adds, removes or restarts exactly those, and leaves the others running. A
 * backend whose tool overrides alone changed is not restarted: its catalog is
 * built again with them.
 */
import type { StoredConfig } from './configStore.js';
import type { BackendConfig } from './schema.js';

/** Backends to add, remove or restart, with the raw entries to apply. */
export interface BackendDiff {
  removed: string[];
  added: { id: string; entry: unknown }[];
  changed: { id: string; entry: unknown }[];
  /** Backends whose `overrides` alone changed, with their new config. */
  overridden: BackendConfig[];
}

/** A backend's config as JSON, without its overrides (what a restart depends on). */
function launchJson(backend: BackendConfig): string {
  return JSON.stringify({ ...backend, overrides: undefined });
}

/** Compares the running backends with a newly read config. */
export function diffBackends(running: BackendConfig[], stored: StoredConfig): BackendDiff {
  const before = new Map(running.map((backend) => [backend.id, launchJson(backend)]));
  const whole = new Map(running.map((backend) => [backend.id, JSON.stringify(backend)]));
  const after = new Map(stored.config.backends.map((backend) => [backend.id, backend]));
  const entry = (id: string): unknown => JSON.parse(stored.entries.get(id) ?? '{}') as unknown;
  return {
    removed: [...before.keys()].filter((id) => !after.has(id)),
    added: [...after.keys()].filter((id) => !before.has(id)).map((id) => ({ id, entry: entry(id) })),
    changed: [...after]
      .filter(([id, backend]) => before.has(id) && before.get(id) !== launchJson(backend))
      .map(([id]) => ({ id, entry: entry(id) })),
    overridden: [...after.values()].filter(
      (backend) => before.get(backend.id) === launchJson(backend) && whole.get(backend.id) !== JSON.stringify(backend),
    ),
  };
}
