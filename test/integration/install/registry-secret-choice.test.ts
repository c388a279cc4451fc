/**
 * Without an OS keychain (the test points D-Bus nowhere), a registry entry's
 * secret is not turned into a `${VAR}` behind the user's back: `registry.add`
 * asks, naming the variable, and nothing is saved; then either choice is
 * honoured: a `${VAR}` reference (the value is written nowhere) or the value
 * in config.json, as the user chose.
 */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BridgeHarness } from '../../helpers/bridgeHarness.js';
import { startLocalRegistry, type LocalRegistry } from '../../helpers/localRegistry.js';
import { fillSandboxNpxCache } from '../../helpers/npxCache.js';

const fixtures = join(import.meta.dirname, '../../fixtures/registry');
const NAME = 'io.github.modelcontextprotocol/server-memory';
const saved = { DBUS: process.env['DBUS_SESSION_BUS_ADDRESS'], DISPLAY: process.env['DISPLAY'] };

const harness = await BridgeHarness.create();
// Run under npm (npm test), the tests inherit its npm_config_cache, which would send a sandboxed npx to a
// cache outside its private home: as for a user who starts Switchboard directly, npx uses ~/.npm there.
delete process.env['npm_config_cache'];
const stateDir = join(harness.root, 'state', 'mcp-switchboard');
const SPEC = '@modelcontextprotocol/server-memory@2026.8.31';
let registry: LocalRegistry;
beforeAll(async () => {
  // server-memory with one secret env var it ignores; sandboxed, npx finds it in each private home (helpers/npxCache.ts).
  const doc = JSON.parse(readFileSync(join(fixtures, 'entries/server-memory.json'), 'utf8')) as {
    packages: { environmentVariables: unknown[] }[];
  };
  doc.packages[0]!.environmentVariables.push({ name: 'MEMORY_TOKEN', description: 'A token', isSecret: true });
  registry = await startLocalRegistry([doc as unknown as Record<string, unknown>]);
  process.env['SWITCHBOARD_REGISTRY_URL'] = registry.url;
  process.env['DBUS_SESSION_BUS_ADDRESS'] = 'unix:path=/nonexistent/bus';
  delete process.env['DISPLAY'];
  process.env['MEMORY_TOKEN'] = 'token-from-env';
  await harness.start();
}, 60_000);
afterAll(async () => {
  delete process.env['SWITCHBOARD_REGISTRY_URL'];
  delete process.env['MEMORY_TOKEN'];
  if (saved.DBUS !== undefined) process.env['DBUS_SESSION_BUS_ADDRESS'] = saved.DBUS;
  else delete process.env['DBUS_SESSION_BUS_ADDRESS'];
  if (saved.DISPLAY !== undefined) process.env['DISPLAY'] = saved.DISPLAY;
  await harness.stop();
  await registry.close();
});

const servers = async () =>
  (JSON.parse(await readFile(harness.configPath, 'utf8')) as { mcpServers: Record<string, Record<string, unknown>> })
    .mcpServers;

describe('a registry secret without a keychain', () => {
  const values = (file: string) => ({
    'env:MEMORY_FILE_PATH': join(harness.root, file),
    'env:MEMORY_TOKEN': 'token-typed-in',
  });

  it('asks where it goes, naming the variable, and saves nothing', async () => {
    const client = await harness.bridge();
    const info = await client.call('app.info');
    expect(info.ok && info.result.keychain.available).toBe(false);
    const asked = await client.call('registry.add', { ref: NAME, id: 'mem-ask', values: values('a.json') });
    expect(asked).toMatchObject({
      ok: false,
      error: {
        code: 'input_invalid',
        data: {
          field: 'secretStorage',
          variables: [{ field: 'env.MEMORY_TOKEN', variable: 'MEMORY_TOKEN', set: true }],
        },
      },
    });
    expect(await servers()).not.toHaveProperty('mem-ask');
  });

  it('an environment variable: the reference is saved, the value nowhere', async () => {
    await fillSandboxNpxCache(stateDir, 'mem-ref', SPEC);
    const client = await harness.bridge();
    const added = await client.call('registry.add', {
      ref: NAME,
      id: 'mem-ref',
      values: values('b.json'),
      secretStorage: 'reference',
    });
    if (!added.ok) throw new Error(added.error.message);
    expect(added.result.secrets).toEqual(['${MEMORY_TOKEN}']);
    expect((await servers())['mem-ref']?.['env']).toMatchObject({ MEMORY_TOKEN: '${MEMORY_TOKEN}' });
    expect(await readFile(harness.configPath, 'utf8')).not.toContain('token-typed-in');
  }, 60_000);

  it('config.json, as chosen: the value is saved there', async () => {
    await fillSandboxNpxCache(stateDir, 'mem-plain', SPEC);
    const client = await harness.bridge();
    const added = await client.call('registry.add', {
      ref: NAME,
      id: 'mem-plain',
      values: values('c.json'),
      secretStorage: 'config',
    });
    if (!added.ok) throw new Error(added.error.message);
    expect(added.result.secrets).toEqual(['config.json (plain text)']);
    expect((await servers())['mem-plain']?.['env']).toMatchObject({ MEMORY_TOKEN: 'token-typed-in' });
  }, 60_000);
});
