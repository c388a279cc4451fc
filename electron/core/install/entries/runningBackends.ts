/**
 * Which backends exist and where they came from, for adding and updating
 * from a registry: from the running core's configs when there is one (one
 * owner of the config file in a process), else from the config file itself
 * (the CLI, with no core running in the process).
 */
import { readConfigFile, writeServerEntry } from '../../platform/config/openConfigStore.js';
import type { BackendConfig, BackendSource } from '../../platform/config/schema.js';

/** What a running core offers about its backends (host/registryHandlers.ts wires it). */
export interface RunningBackends {
  /** The backend configs in force. */
  configs(): readonly BackendConfig[];
  /** A backend's raw config entry (secret references as saved), or undefined. */
  entry(id: string): Promise<Record<string, unknown> | undefined>;
  /** Replaces a backend's entry, saved, and restarts it (the core's updateBackend). */
  replace(id: string, entry: Record<string, unknown>): Promise<void>;
}

/** Where to read backends from. */
export interface BackendsSource {
  configPath: string;
  backends?: RunningBackends;
}

/** A backend ID from a registry name: its last part, made valid and unique. */
export function backendIdFromName(name: string, taken: Set<string>): string {
  let base = (name.split('/').pop() ?? name).replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^[^A-Za-z]+/, '');
  if (base === '') base = 'server';
  let id = base;
  for (let n = 2; taken.has(id); n++) id = `${base}-${n}`;
  return id;
}

/** The IDs already in use. */
export async function takenIds(ctx: BackendsSource): Promise<Set<string>> {
  if (ctx.backends) return new Set(ctx.backends.configs().map((backend) => backend.id));
  return new Set((await readConfigFile(ctx.configPath)).entries.keys());
}

/** Backend ID -> registry source, for the backends that have one. */
export async function backendSources(ctx: BackendsSource): Promise<Map<string, BackendSource>> {
  const out = new Map<string, BackendSource>();
  if (ctx.backends) {
    for (const backend of ctx.backends.configs()) if (backend.source) out.set(backend.id, backend.source);
    return out;
  }
  for (const [id, text] of (await readConfigFile(ctx.configPath)).entries) {
    const source = (JSON.parse(text) as { source?: BackendSource }).source;
    if (source) out.set(id, source);
  }
  return out;
}

/** The raw entry of backend `id` (undefined: none). */
export async function backendEntry(ctx: BackendsSource, id: string): Promise<Record<string, unknown> | undefined> {
  if (ctx.backends) return ctx.backends.entry(id);
  const text = (await readConfigFile(ctx.configPath)).entries.get(id);
  return text === undefined ? undefined : (JSON.parse(text) as Record<string, unknown>);
}

/** Saves backend `id`'s new entry: through the running core, else into the config file. */
export async function replaceEntry(ctx: BackendsSource, id: string, entry: Record<string, unknown>): Promise<void> {
  if (ctx.backends) return ctx.backends.replace(id, entry);
  await writeServerEntry(ctx.configPath, id, entry);
}
