/**
 * What metrics read from a running core when scraped: backend health, the
 * tasks it holds, the open 2025-era sessions of its endpoint, and whether a
 * tool is in the catalog (a tool name outside it is bucketed, so clients
 * cannot grow the metrics by calling made-up names).
 */
import type { Catalog } from '../core/catalog/index.js';
import type { MetricsSource } from '../core/platform/index.js';
import type { Switchboard } from '../core/api/index.js';

/** The tools and prompts of each catalog snapshot as `server NUL name`, built on the first question about it. */
const toolKeys = new WeakMap<Catalog, Set<string>>();

function toolsOf(catalog: Catalog): Set<string> {
  let keys = toolKeys.get(catalog);
  if (!keys) {
    // Prompts too: their latency is labelled by name the same way.
    const origins = [...catalog.toolIndex.values(), ...catalog.promptIndex.values()];
    keys = new Set(origins.map((origin) => `${origin.backendId}\0${origin.original}`));
    toolKeys.set(catalog, keys);
  }
  return keys;
}

/** The metrics source of `core`, whose endpoint has `sessions()` open 2025-era sessions. */
export function metricsSource(core: Switchboard, sessions: () => number): MetricsSource {
  return {
    health: () => core.backends.health(),
    taskStatuses: () => core.tasks.registry.list().map((task) => task.status),
    sessions,
    hasTool: (server, tool) => toolsOf(core.catalog()).has(`${server}\0${tool}`),
  };
}
