/**
 * The registry methods of the contract over the real bridge: a search page
 * with each entry's options and form fields (required first, secrets marked,
 * invalid entries with their reason), adding an npm entry that the running
 * core then serves, "added" marks, and the PATH stdio backends get.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BridgeHarness } from '../../helpers/bridgeHarness.js';
import { startLocalRegistry, type LocalRegistry } from '../../helpers/localRegistry.js';
import { fillSandboxNpxCache } from '../../helpers/npxCache.js';

const fixtures = join(import.meta.dirname, '../../fixtures/registry');
const doc = (path: string): Record<string, unknown> => JSON.parse(readFileSync(join(fixtures, path), 'utf8'));

const harness = await BridgeHarness.create();
// Run under npm (npm test), the tests inherit its npm_config_cache, which would send a sandboxed npx to a
// cache outside its private home: as for a user who starts Switchboard directly, npx uses ~/.npm there.
delete process.env['npm_config_cache'];
/** Switchboard's state directory in the harness (the sandboxes' private homes are there). */
const stateDir = join(harness.root, 'state', 'mcp-switchboard');
let registry: LocalRegistry;
beforeAll(async () => {
  registry = await startLocalRegistry([
    doc('entries/server-memory.json'),
    doc('entries/server-everything.json'),
    doc('examples/valid/with-remote.json'),
    doc('examples/invalid/bad-name-pattern.json'),
  ]);
  process.env['SWITCHBOARD_REGISTRY_URL'] = registry.url;
  await harness.start();
}, 60_000);
afterAll(async () => {
  delete process.env['SWITCHBOARD_REGISTRY_URL'];
  await harness.stop();
  await registry.close().catch(() => undefined); // already closed by the offline case
});

describe('registry through the bridge', () => {
  it('searches: entries with kinds, options and fields; an invalid one with its reason', async () => {
    const client = await harness.bridge();
    const page = await client.call('registry.search', { text: '' });
    if (!page.ok) throw new Error(page.error.message);
    expect(page.result.offline).toBe(false);
    const memory = page.result.entries.find((e) => e.name === 'io.github.modelcontextprotocol/server-memory')!;
    expect(memory).toMatchObject({ valid: true, title: 'Memory', kinds: ['npm'], version: '2026.8.31' });
    expect(memory.repositoryUrl).toBe('https://github.com/modelcontextprotocol/servers');
    expect(memory.options[0]).toMatchObject({
      kind: 'npm',
      runtime: 'npx',
      fields: [{ key: 'env:MEMORY_FILE_PATH', required: true, secret: false, format: 'filepath' }],
    });
    const remote = page.result.entries.find((e) => e.name === 'io.github.user/remote-weather')!;
    expect(remote.options[0]!.fields.map((f) => [f.key, f.required, f.secret])).toEqual([
      ['header:Authorization', true, true],
      ['var:host', false, false],
    ]);
    const invalid = page.result.entries.find((e) => e.name === 'no-namespace-separator')!;
    expect(invalid).toMatchObject({ valid: false, options: [] });
    expect(invalid.reason).toMatch(/^name: must match pattern/);
  });

  it('adds an npm entry: a missing value named, a clash refused, then checked, saved with its source, served, marked added', async () => {
    const client = await harness.bridge();
    const missing = await client.call('registry.add', {
      ref: 'io.github.modelcontextprotocol/server-memory',
      values: {},
    });
    expect(missing).toMatchObject({
      ok: false,
      error: { code: 'input_invalid', data: { key: 'env:MEMORY_FILE_PATH' } },
    });
    // An ID already taken (the harness's "mem") is refused and nothing is saved.
    const clash = await client.call('registry.add', {
      ref: 'io.github.modelcontextprotocol/server-memory',
      id: 'mem',
      values: { 'env:MEMORY_FILE_PATH': join(harness.root, 'graph.jsonl') },
    });
    expect(clash).toMatchObject({ ok: false, error: { code: 'duplicate_backend' } });
    expect(Object.keys(await harness.savedServers())).toEqual(['mem', 'remote']);
    // Sandboxed, npx finds the package in its private home, as an earlier start leaves it (helpers/npxCache.ts).
    await fillSandboxNpxCache(stateDir, 'every', '@modelcontextprotocol/server-everything@2026.8.31');
    const added = await client.call('registry.add', {
      ref: 'io.github.modelcontextprotocol/server-everything',
      id: 'every',
      values: {},
    });
    if (!added.ok) throw new Error(JSON.stringify(added.error));
    expect(added.result.id).toBe('every');
    expect((await harness.savedServers())['every']).toMatchObject({
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-everything@2026.8.31', 'stdio'],
      source: { name: 'io.github.modelcontextprotocol/server-everything', version: '2026.8.31' },
    });
    let ids: string[] = [];
    for (let i = 0; i < 100 && !ids.includes('every'); i++) {
      const list = await client.call('backends.list');
      ids = list.ok ? list.result.filter((v) => v.health.status === 'up').map((v) => v.health.id) : [];
      if (!ids.includes('every')) await new Promise((r) => setTimeout(r, 100));
    }
    expect(ids).toContain('every');
    const page = await client.call('registry.search', { text: 'everything' });
    expect(page.ok && page.result.entries[0]!.addedAs).toBe('every');
  }, 90_000);

  it('outdated: an entry added at an old version shows the newer version; an unreachable registry says nothing (it closes the registry)', async () => {
    const client = await harness.bridge();
    const memoryFile = join(harness.root, 'old-graph.jsonl');
    await fillSandboxNpxCache(stateDir, 'old-memory', '@modelcontextprotocol/server-memory@2026.8.31');
    const added = await client.call('registry.add', {
      ref: 'io.github.modelcontextprotocol/server-memory',
      id: 'old-memory',
      values: { 'env:MEMORY_FILE_PATH': memoryFile },
    });
    if (!added.ok) throw new Error(JSON.stringify(added.error));
    const before = await client.call('registry.outdated');
    expect(before).toEqual({ ok: true, result: [] });
    const next = doc('entries/server-memory.json') as { version: string; packages: { version: string }[] };
    next.version = '2026.9.1';
    next.packages[0]!.version = '2026.9.1';
    registry.publish(next as unknown as Record<string, unknown>);
    const after = await client.call('registry.outdated');
    expect(after).toEqual({
      ok: true,
      result: [
        {
          id: 'old-memory',
          name: 'io.github.modelcontextprotocol/server-memory',
          current: '2026.8.31',
          latest: '2026.9.1',
        },
      ],
    });
    // The card reads where it came from off the backend view's entry.
    const list = await client.call('backends.list');
    const view = list.ok ? list.result.find((v) => v.health.id === 'old-memory') : undefined;
    expect(view?.entry['source']).toMatchObject({ registry: registry.url, version: '2026.8.31' });
    // The registry goes away: the cached answer is offline, and offline says nothing (not an error).
    await registry.close();
    expect(await client.call('registry.outdated')).toEqual({ ok: true, result: [] });
  }, 90_000);

  it('says where the PATH of stdio backends came from', async () => {
    const client = await harness.bridge();
    const path = await client.call('env.path');
    expect(path).toMatchObject({ ok: true, result: { source: expect.stringMatching(/^(login-shell|fallback)$/) } });
    expect(path.ok && path.result.path.length).toBeGreaterThan(0);
  });
});
