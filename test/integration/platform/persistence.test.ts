/**
 * Runtime changes persist to the config file, written atomically; hand edits of
 * the file while running are picked up; a bad edit or a failing disk loses
 * nothing.
 */
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigStore, type AtomicWriter } from '../../../electron/core/platform/index.js';
import { fixture, nodeServer, startProxy, tempDir } from '../../helpers/harness.js';
import { waitUntil } from '../../helpers/processes.js';

describe('config persistence', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let path: string;

  beforeEach(async () => {
    dir = await tempDir();
    path = join(dir.path, 'config.json');
  });
  afterEach(() => dir.cleanup());

  async function startWithFile(raw: Record<string, unknown>, writer?: AtomicWriter) {
    await writeFile(path, `${JSON.stringify(raw, null, 2)}\n`);
    const store = new ConfigStore(path, writer);
    await store.load();
    return startProxy(raw, { store });
  }

  it('saves added and removed backends, keeping every other key of the file', async () => {
    const proxy = await startWithFile({
      $schema: 'https://example.com/schema.json',
      proxy: { maxQueue: 50 },
      mcpServers: { one: nodeServer(fixture('configurable.mjs')) },
    });
    try {
      const entry = nodeServer(fixture('configurable.mjs'), [], { env: { FIXTURE_TOOLS: 'hi' } });
      await proxy.core.addBackend('two', entry);
      const saved = JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>;
      expect(saved).toMatchObject({ $schema: 'https://example.com/schema.json', proxy: { maxQueue: 50 } });
      expect(Object.keys(saved['mcpServers'] as object)).toEqual(['one', 'two']);
      expect((saved['mcpServers'] as Record<string, unknown>)['two']).toEqual(entry);
      await proxy.core.removeBackend('one');
      const after = JSON.parse(await readFile(path, 'utf8')) as { mcpServers: object };
      expect(Object.keys(after.mcpServers)).toEqual(['two']);
      // No temp files left behind.
      expect(await readdir(dir.path)).toEqual(['config.json']);
    } finally {
      await proxy.close();
    }
  });

  it('leaves the old file intact when the write fails, and does not add the backend', async () => {
    const failing: AtomicWriter = {
      write: () => Promise.reject(Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' })),
    };
    const original = { mcpServers: { one: nodeServer(fixture('configurable.mjs')) } };
    const proxy = await startWithFile(original, failing);
    try {
      const before = await readFile(path, 'utf8');
      await expect(proxy.core.addBackend('two', nodeServer(fixture('configurable.mjs')))).rejects.toMatchObject({
        message: expect.stringMatching(/cannot save .*config\.json: ENOSPC.*left as it was/),
      });
      expect(await readFile(path, 'utf8')).toBe(before);
      expect(proxy.core.health().map((backend) => backend.id)).toEqual(['one']);
      await expect(proxy.core.removeBackend('one')).rejects.toMatchObject({
        message: expect.stringContaining('ENOSPC'),
      });
      expect(proxy.core.health().map((backend) => backend.id)).toEqual(['one']);
    } finally {
      await proxy.close();
    }
  });

  it('picks up hand edits: added, changed and removed entries', async () => {
    const proxy = await startWithFile({ mcpServers: { one: nodeServer(fixture('configurable.mjs')) } });
    try {
      const edited = {
        mcpServers: {
          one: nodeServer(fixture('configurable.mjs'), [], { env: { FIXTURE_TOOLS: 'renamed' } }),
          added: nodeServer(fixture('configurable.mjs'), [], { env: { FIXTURE_TOOLS: 'fresh' } }),
        },
      };
      await writeFile(path, JSON.stringify(edited, null, 2));
      await waitUntil(
        () => proxy.core.catalog().toolIndex.has('added__fresh') && proxy.core.catalog().toolIndex.has('one__renamed'),
        {
          timeoutMs: 10_000,
          description: 'the edit to be applied',
        },
      );
      expect(proxy.core.catalog().toolIndex.has('one__echo')).toBe(false);
      await writeFile(path, JSON.stringify({ mcpServers: { added: edited.mcpServers.added } }, null, 2));
      await waitUntil(
        () =>
          proxy.core
            .health()
            .map((backend) => backend.id)
            .join() === 'added',
        { timeoutMs: 10_000 },
      );
    } finally {
      await proxy.close();
    }
  });

  it('applies two quick hand edits one after the other, without a spurious duplicate', async () => {
    const proxy = await startWithFile({ mcpServers: { one: nodeServer(fixture('configurable.mjs')) } });
    const errors: string[] = [];
    proxy.core.events.on('configError', ({ message }) => errors.push(message));
    try {
      const server = (tools: string) => nodeServer(fixture('configurable.mjs'), [], { env: { FIXTURE_TOOLS: tools } });
      const one = nodeServer(fixture('configurable.mjs'));
      await writeFile(path, JSON.stringify({ mcpServers: { one, two: server('b') } }, null, 2));
      // The second save lands while the first one's server is still starting.
      await new Promise((resolve) => setTimeout(resolve, 300));
      await writeFile(path, JSON.stringify({ mcpServers: { one, two: server('b'), three: server('c') } }, null, 2));
      await waitUntil(
        () => proxy.core.catalog().toolIndex.has('three__c') && proxy.core.catalog().toolIndex.has('two__b'),
        {
          timeoutMs: 15_000,
          description: 'both edits to be applied',
        },
      );
      expect(proxy.core.health().map((backend) => backend.id)).toEqual(['one', 'two', 'three']);
      expect(errors).toEqual([]);
    } finally {
      await proxy.close();
    }
  });

  it('keeps a hand-added (or client-imported) server that cannot start: down and retrying, as at startup', async () => {
    const proxy = await startWithFile({ mcpServers: { one: nodeServer(fixture('configurable.mjs')) } });
    const errors: string[] = [];
    proxy.core.events.on('configError', ({ message }) => errors.push(message));
    try {
      const broken = { command: process.execPath, args: ['-e', 'process.exit(3)'] };
      await writeFile(
        path,
        JSON.stringify({ mcpServers: { one: nodeServer(fixture('configurable.mjs')), broken } }, null, 2),
      );
      await waitUntil(
        () => proxy.core.health().some((backend) => backend.id === 'broken' && backend.status === 'down'),
        {
          timeoutMs: 10_000,
          description: 'the broken server to be shown down',
        },
      );
      expect(proxy.core.health()).toMatchObject([
        { id: 'one', status: 'up' },
        { id: 'broken', status: 'down' },
      ]);
      expect(errors).toEqual([]);
      // Removing it by hand again stops its retries.
      await writeFile(path, JSON.stringify({ mcpServers: { one: nodeServer(fixture('configurable.mjs')) } }, null, 2));
      await waitUntil(() => proxy.core.health().length === 1, { timeoutMs: 10_000 });
    } finally {
      await proxy.close();
    }
  });

  it('refuses a broken hand edit, says why, and keeps running with the last good config', async () => {
    const proxy = await startWithFile({ mcpServers: { one: nodeServer(fixture('configurable.mjs')) } });
    const errors: string[] = [];
    proxy.core.events.on('configError', ({ message }) => errors.push(message));
    try {
      await writeFile(path, '{ "mcpServers": { "one": { "command": "node", } } }');
      await waitUntil(() => errors.length > 0, { timeoutMs: 10_000, description: 'a config error' });
      expect(errors[0]).toMatch(/config\.json: \(line 1, column \d+\): not valid JSON/);
      expect(proxy.core.health()).toMatchObject([{ id: 'one', status: 'up' }]);
    } finally {
      await proxy.close();
    }
  });
});
