/**
 * Where the catalog cache's entries live (catalogCache.ts decides what an
 * entry is: its key, its size bound, its checks). A place holds text by
 * backend id: one file each in the state dir on a laptop or a single
 * `serve` (fileCatalogPlace), one Redis key each when replicas share them
 * (platform/cluster/redisCatalogPlace.ts, loaded only with a `cluster`
 * section). Reading many at once is one call, so a place over the network
 * reads every backend's entry at start in one round trip.
 */
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileWriter, type AtomicWriter } from '../platform/config/configStore.js';

/** Entries' text by backend id. Each call may reject (the cache logs it and treats it as a miss). */
export interface CatalogPlace {
  /** Where it is (log lines). */
  readonly name: string;
  /** The text of each id's entry, in order; undefined where there is none. */
  read(backendIds: readonly string[]): Promise<(string | undefined)[]>;
  write(backendId: string, text: string): Promise<void>;
  remove(backendId: string): Promise<void>;
}

/** One file per backend, `<dir>/<id>.json`, written atomically (IDs are `[A-Za-z][A-Za-z0-9_-]*`, safe as file names). */
export function fileCatalogPlace(dir: string, writer: AtomicWriter = fileWriter): CatalogPlace {
  const fileOf = (backendId: string) => join(dir, `${backendId}.json`);
  const readOne = async (backendId: string): Promise<string | undefined> => {
    try {
      return await readFile(fileOf(backendId), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  };
  return {
    name: dir,
    read: (backendIds) => Promise.all(backendIds.map(readOne)),
    write: (backendId, text) => writer.write(fileOf(backendId), text),
    remove: (backendId) => rm(fileOf(backendId), { force: true }),
  };
}
