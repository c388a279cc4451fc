/**
 * The catalog cache's file handling: an entry is found again only for the
 * same launch line, never holds env or header values, is not written above
 * its size bound, and a removal is not overtaken by an earlier save.
 */
import { readdir, readFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CatalogCache } from '../../../../electron/core/catalog/catalogCache.js';
import type { Logger } from '../../../../electron/core/platform/deps.js';
import { makeConfig, tempDir } from '../../../helpers/basics.js';

const catalog = {
  tools: [{ name: 'echo', description: 'echo', inputSchema: { type: 'object' as const } }],
  prompts: [],
  resources: [],
  resourceTemplates: [],
};

describe('CatalogCache', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let warnings: string[];
  let logger: Logger;
  beforeEach(async () => {
    dir = await tempDir();
    warnings = [];
    logger = { info: () => {}, warn: (m) => warnings.push(m), error: () => {} };
  });
  afterEach(() => dir.cleanup());

  const backend = (entry: Record<string, unknown>) => makeConfig({ mcpServers: { one: entry } }).backends[0]!;

  it('keys entries by the launch line, not by env values, and never writes those values', async () => {
    const cache = new CatalogCache(dir.path, { logger });
    await cache.save(backend({ command: 'node', args: ['a.js'], env: { TOKEN: 'sk-live-secret-value' } }), catalog);
    const text = await readFile(cache.fileOf('one'), 'utf8');
    expect(text).not.toContain('sk-live-secret-value');
    // Another token value: the same server, the same catalog.
    expect(await cache.load(backend({ command: 'node', args: ['a.js'], env: { TOKEN: 'other' } }))).toEqual(catalog);
    // Another argument or another set of variables: another server.
    expect(await cache.load(backend({ command: 'node', args: ['b.js'], env: { TOKEN: 'x' } }))).toBeUndefined();
    expect(await cache.load(backend({ command: 'node', args: ['a.js'] }))).toBeUndefined();
    expect(warnings).toEqual([]);
  });

  it('does not write an entry above its size bound (and drops an older one)', async () => {
    const cache = new CatalogCache(dir.path, { logger, maxEntryBytes: 2000 });
    const config = backend({ command: 'node' });
    await cache.save(config, catalog);
    const big = { ...catalog, tools: [{ ...catalog.tools[0]!, description: 'x'.repeat(5000) }] };
    await cache.save(config, big);
    expect(await cache.load(config)).toBeUndefined();
    expect(warnings.join('\n')).toMatch(/catalog of "one" not cached: larger than 2000 bytes/);
  });

  it('runs saves and removals of one backend in order and leaves no temp files', async () => {
    const cache = new CatalogCache(dir.path, { logger });
    const config = backend({ command: 'node' });
    const saving = cache.save(config, catalog);
    const removing = cache.remove('one');
    await Promise.all([saving, removing]);
    expect(await readdir(dir.path)).toEqual([]);
    expect(await cache.load(config)).toBeUndefined();
  });

  it('reads many entries in one call to its place, and counts a place that fails as a miss', async () => {
    const reads: string[][] = [];
    const files = new Map<string, string>();
    let down = false;
    const place = {
      name: 'test place',
      read: async (ids: readonly string[]) => {
        if (down) throw new Error('place down');
        reads.push([...ids]);
        return ids.map((id) => files.get(id));
      },
      write: async (id: string, text: string) => {
        if (down) throw new Error('place down');
        files.set(id, text);
      },
      remove: async (id: string) => void files.delete(id),
    };
    const cache = new CatalogCache(dir.path, { logger, place });
    const [one, two] = makeConfig({ mcpServers: { one: { command: 'a' }, two: { command: 'b' } } }).backends;
    await cache.save(one!, catalog, 42);
    expect(await cache.loadEntries([one!, two!])).toEqual([{ catalog, startMs: 42 }, undefined]);
    expect(reads).toEqual([['one', 'two']]);
    expect(await readdir(dir.path)).toEqual([]);

    down = true;
    expect(await cache.loadEntries([one!, two!])).toEqual([undefined, undefined]);
    await expect(cache.save(two!, catalog)).resolves.toBeUndefined();
    expect(warnings.some((warning) => warning.includes('place down'))).toBe(true);
  });
});
