/**
 * The one way a config store is opened: by `serve` for its core, and by the
 * CLI and the fallbacks that run without a core (registry adds, client
 * profiles, imports). Every such store writes atomically and keeps its
 * backups in the same state dir, so `config backups` lists what any of them
 * replaced.
 */
import { ConfigStore, fileWriter, type AtomicWriter } from './configStore.js';

/** Where a store keeps backups and how it writes (defaults: this user's state dir, the atomic file writer). */
export interface OpenConfigStoreOptions {
  stateDir?: string;
  writer?: AtomicWriter;
}

/** A store on the config file at `path`. */
export function openConfigStore(path: string, options: OpenConfigStoreOptions = {}): ConfigStore {
  return new ConfigStore(path, options.writer ?? fileWriter, options.stateDir ? { stateDir: options.stateDir } : {});
}

/** The config file at `path`, read and validated once (no store kept). */
export function readConfigFile(path: string, options: OpenConfigStoreOptions = {}) {
  return openConfigStore(path, options).read();
}

/** Sets `mcpServers[id]` in the file at `path` (a new or replaced entry; the rest of the file as it was). */
export async function writeServerEntry(
  path: string,
  id: string,
  entry: Record<string, unknown>,
  options: OpenConfigStoreOptions = {},
): Promise<void> {
  const store = openConfigStore(path, options);
  await store.load();
  await store.updateServers((servers) => {
    servers[id] = entry;
  });
}
