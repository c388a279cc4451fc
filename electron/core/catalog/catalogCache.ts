/**
 * Each backend's last accepted catalog, kept in the state dir
 * (`<state dir>/catalogs/<id>.json`) so a restart can publish every item at
 * once, before any backend has started, and an on-demand server need not run
 * to be listed. An entry is written atomically (temp file + rename, mode
 * 0600), bounded in size, removed with its backend, and keyed by what decides
 * the catalog (command, args, cwd, URL, env and header names; never their
 * values, which may be secrets): an entry made for another launch line is
 * ignored. An entry that does not parse is ignored with a log line; the next
 * live listing writes it again. Where entries live is a seam (catalogPlace.ts):
 * these files by default, Redis when replicas share them; a place that fails
 * is a miss (logged), never an error.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { z } from 'zod';
import type { BackendCatalog } from '../backends/connection/backendConnection.js';
import type { AtomicWriter } from '../platform/config/configStore.js';
import type { BackendConfig } from '../platform/config/schema.js';
import type { Logger } from '../platform/deps.js';
import { fileCatalogPlace, type CatalogPlace } from './catalogPlace.js';
import { definitionHash, pinnedFields } from './definitionHash.js';

/** Entries above this size are not written (a catalog of 1000 rich tools is ~1-2 MB). */
export const DEFAULT_MAX_ENTRY_BYTES = 8 * 1024 * 1024;

const FORMAT = 1;

/** Items are checked loosely: the SDK validated them when they were listed. */
const item = z.looseObject({});
const EntrySchema = z.object({
  format: z.literal(FORMAT),
  backend: z.string(),
  key: z.string(),
  savedAt: z.string(),
  catalog: z.object({
    tools: z.array(item.extend({ name: z.string(), inputSchema: z.looseObject({}) })),
    prompts: z.array(item.extend({ name: z.string() })),
    resources: z.array(item.extend({ uri: z.string(), name: z.string() })),
    resourceTemplates: z.array(item.extend({ uriTemplate: z.string(), name: z.string() })),
    // Skills (SEP-2640), kept so a restart declares the extension and lists them before the server is up.
    skills: z.array(item.extend({ uri: z.string() })).optional(),
    skillFiles: z.record(z.string(), z.string()).optional(),
    skillsDirectoryRead: z.boolean().optional(),
  }),
  /** Each tool's pinned-definition hash, by original name (what pinning compares). */
  toolHashes: z.record(z.string(), z.string()),
  /** How long the start that listed it took (ms): the slowest servers are started first next time. */
  startMs: z.number().nonnegative().optional(),
});

/** A cached catalog and what is known of its server's last start. */
export interface CachedCatalog {
  catalog: BackendCatalog;
  startMs?: number;
}

/** What identifies the launch a catalog was listed from. Names only: values may be secrets. */
export function cacheKeyOf(backend: BackendConfig): string {
  const launch =
    backend.transport === 'stdio'
      ? [backend.transport, backend.command, backend.args, backend.cwd ?? '', Object.keys(backend.env).sort()]
      : [backend.transport, backend.url, Object.keys(backend.headers).sort()];
  return createHash('sha256').update(JSON.stringify(launch)).digest('hex').slice(0, 32);
}

/** Options of the cache. */
export interface CatalogCacheOptions {
  logger: Logger;
  maxEntryBytes?: number;
  /** How the default place (files in `dir`) writes. */
  writer?: AtomicWriter;
  /** Where entries live instead of files in `dir` (replicas: Redis). */
  place?: CatalogPlace;
}

/** The catalogs of every backend, one entry each. */
export class CatalogCache {
  /** Writes per backend, one at a time, so a removal cannot be overtaken by an older save. */
  private readonly chains = new Map<string, Promise<unknown>>();
  private readonly place: CatalogPlace;
  /** Backends whose latest listing could not be written (the place was away); one ID each, so bounded. */
  private readonly unsaved = new Set<string>();

  constructor(
    readonly dir: string,
    private readonly options: CatalogCacheOptions,
  ) {
    this.place = options.place ?? fileCatalogPlace(dir, options.writer);
  }

  /** The file of a backend's entry (IDs are `[A-Za-z][A-Za-z0-9_-]*`, safe as file names). */
  fileOf(backendId: string): string {
    return join(this.dir, `${backendId}.json`);
  }

  /**
   * The cached catalog of `backend`, or undefined: none, made for another
   * launch line, or unreadable (logged; the next live listing rewrites it).
   */
  async load(backend: BackendConfig): Promise<BackendCatalog | undefined> {
    return (await this.loadEntry(backend))?.catalog;
  }

  /** Like {@link load}, with the last start's duration when it was recorded. */
  async loadEntry(backend: BackendConfig): Promise<CachedCatalog | undefined> {
    return (await this.loadEntries([backend]))[0];
  }

  /** {@link loadEntry} of each backend, in order, read from the place in one call. */
  async loadEntries(backends: readonly BackendConfig[]): Promise<(CachedCatalog | undefined)[]> {
    let texts: (string | undefined)[];
    try {
      texts = await this.place.read(backends.map((backend) => backend.id));
    } catch (error) {
      this.options.logger.warn(`cached catalogs not read from ${this.place.name}: ${(error as Error).message}`);
      return backends.map(() => undefined);
    }
    return backends.map((backend, index) => this.parsed(backend, texts[index]));
  }

  private parsed(backend: BackendConfig, text: string | undefined): CachedCatalog | undefined {
    if (text === undefined) return undefined;
    let parsed: z.infer<typeof EntrySchema>;
    try {
      const result = EntrySchema.safeParse(JSON.parse(text));
      if (!result.success) throw new Error(result.error.issues[0]?.message ?? 'invalid entry');
      parsed = result.data;
    } catch (error) {
      this.ignored(backend.id, (error as Error).message);
      return undefined;
    }
    if (parsed.backend !== backend.id || parsed.key !== cacheKeyOf(backend)) return undefined;
    const catalog = parsed.catalog as unknown as BackendCatalog;
    return parsed.startMs === undefined ? { catalog } : { catalog, startMs: parsed.startMs };
  }

  /**
   * Saves a live catalog, with how long its start took when known (skipped,
   * with a log line, above the size bound). Never throws.
   */
  save(backend: BackendConfig, catalog: BackendCatalog, startMs?: number): Promise<void> {
    return this.queue(backend.id, async () => {
      const toolHashes = Object.fromEntries(
        catalog.tools.map((tool) => [tool.name, definitionHash(pinnedFields(tool))]),
      );
      const entry = {
        format: FORMAT,
        backend: backend.id,
        key: cacheKeyOf(backend),
        savedAt: new Date().toISOString(),
        catalog,
        toolHashes,
        ...(startMs === undefined ? {} : { startMs }),
      };
      const text = JSON.stringify(entry);
      const max = this.options.maxEntryBytes ?? DEFAULT_MAX_ENTRY_BYTES;
      if (Buffer.byteLength(text) > max) {
        this.options.logger.warn(`catalog of "${backend.id}" not cached: larger than ${max} bytes`);
        await this.place.remove(backend.id);
        return;
      }
      try {
        await this.place.write(backend.id, text);
        this.unsaved.delete(backend.id);
      } catch (error) {
        this.unsaved.add(backend.id);
        throw error;
      }
    });
  }

  /** Deletes a backend's entry (the backend was removed). Never throws. */
  remove(backendId: string): Promise<void> {
    this.unsaved.delete(backendId);
    return this.queue(backendId, () => this.place.remove(backendId));
  }

  /** The backends whose latest listing could not be written (to be saved again once the place is back); forgotten here. */
  takeUnsaved(): string[] {
    const ids = [...this.unsaved];
    this.unsaved.clear();
    return ids;
  }

  private queue(backendId: string, task: () => Promise<void>): Promise<void> {
    const run = (this.chains.get(backendId) ?? Promise.resolve()).then(task).catch((error: unknown) => {
      this.options.logger.warn(`catalog cache of "${backendId}": ${(error as Error).message}`);
    });
    this.chains.set(backendId, run);
    void run.then(() => {
      if (this.chains.get(backendId) === run) this.chains.delete(backendId);
    });
    return run;
  }

  private ignored(backendId: string, reason: string): void {
    this.options.logger.warn(`cached catalog of "${backendId}" ignored (it is rebuilt on the next listing): ${reason}`);
  }
}
