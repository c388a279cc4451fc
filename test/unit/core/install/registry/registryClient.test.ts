import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HttpCache, ageOf } from '../../../../../electron/core/install/registry/httpCache.js';
import { RegistryClient, parseRegistryRef } from '../../../../../electron/core/install/registry/registryClient.js';
import { startLocalRegistry, type LocalRegistry } from '../../../../helpers/localRegistry.js';

const fixtures = join(import.meta.dirname, '../../../../fixtures/registry');
const doc = (path: string): Record<string, unknown> => JSON.parse(readFileSync(join(fixtures, path), 'utf8'));

let dir: string;
let registry: LocalRegistry;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sb-registry-'));
  registry = await startLocalRegistry([
    doc('examples/valid/minimal.json'),
    doc('examples/valid/with-package.json'),
    doc('examples/valid/with-remote.json'),
    doc('examples/docs/filesystem.json'),
    doc('examples/invalid/package-version-latest.json'),
  ]);
});
afterEach(async () => {
  await registry.close().catch(() => undefined);
  await rm(dir, { recursive: true, force: true });
});

const clientFor = (urls: string[], now?: () => number) =>
  new RegistryClient({ urls, cache: new HttpCache({ directory: dir, timeoutMs: 2000, ...(now ? { now } : {}) }) });

describe('RegistryClient', () => {
  it('pages through search results with cursors and lists an invalid entry with its reason', async () => {
    const client = clientFor([registry.url]);
    const first = await client.search('', { limit: 2 });
    expect(first.entries.map((e) => e.name)).toEqual(['io.github.user/weather', 'io.github.user/local-weather']);
    expect(first.nextCursor).toBeDefined();
    const names = first.entries.map((e) => e.name);
    let cursor = first.nextCursor;
    while (cursor) {
      const page = await client.search('', { limit: 2, cursor });
      names.push(...page.entries.map((e) => e.name));
      cursor = page.nextCursor;
    }
    expect(names).toHaveLength(5);
    const all = await client.search('bad-version');
    expect(all.entries).toHaveLength(1);
    expect(all.entries[0]).toMatchObject({ valid: false, name: 'io.github.user/bad-version' });
    expect(all.entries[0]!.valid ? '' : all.entries[0]!.reason).toMatch(/packages\.0\.version/);
    expect(registry.requests.some((r) => r.includes('search=bad-version') && r.includes('version=latest'))).toBe(true);
  });

  it('revalidates with the ETag (304) and serves the cache marked offline when the registry is gone', async () => {
    let clock = Date.parse('2026-01-01T09:00:00Z');
    const client = clientFor([registry.url], () => clock);
    const fresh = await client.search('weather');
    expect(fresh.offline).toBe(false);
    await client.search('weather');
    expect(registry.requests.at(-1)).toMatch(/-> 304$/);
    await registry.close();
    const offline = await client.search('weather');
    expect(offline.offline).toBe(true);
    expect(offline.entries.map((e) => e.name)).toEqual(fresh.entries.map((e) => e.name));
    clock += 3 * 3600_000;
    expect(ageOf(offline.fetchedAt, clock)).toBe('3 h ago');
    await expect(client.search('never-asked')).rejects.toThrow(/cannot reach http:\/\/127\.0\.0\.1/);
  });

  it('reads a version, the latest, and all versions; names the registries that lack one', async () => {
    const client = clientFor([registry.url]);
    registry.publish({ ...doc('examples/valid/minimal.json'), version: '1.1.0' });
    expect((await client.get('io.github.user/weather')).entry.version).toBe('1.1.0');
    expect((await client.get('io.github.user/weather', '1.0.2')).entry.version).toBe('1.0.2');
    expect((await client.versions('io.github.user/weather')).map((e) => e.version)).toEqual(['1.1.0', '1.0.2']);
    await expect(client.get('io.github.user/nope')).rejects.toThrow(`io.github.user/nope is not in ${registry.url}`);
  });

  it('searches several registries (a company one beside the official) and keeps going when one is down', async () => {
    const second = await startLocalRegistry([doc('entries/server-memory.json')]);
    try {
      const client = clientFor(['http://127.0.0.1:9/', second.url, registry.url]);
      const page = await client.search('');
      expect(page.entries.map((e) => e.registry)).toContain(second.url);
      expect(page.entries.map((e) => e.name)).toContain('io.github.modelcontextprotocol/server-memory');
      expect(page.failures).toEqual([
        { registry: 'http://127.0.0.1:9', message: expect.stringMatching(/cannot reach/) },
      ]);
      const found = await client.get('io.github.user/weather');
      expect(found.entry.registry).toBe(registry.url);
    } finally {
      await second.close();
    }
  });

  it('parses name@version', () => {
    expect(parseRegistryRef('io.github.user/weather@1.0.2')).toEqual({
      name: 'io.github.user/weather',
      version: '1.0.2',
    });
    expect(parseRegistryRef('io.github.user/weather')).toEqual({ name: 'io.github.user/weather', version: 'latest' });
  });
});
