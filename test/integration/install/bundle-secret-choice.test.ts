/**
 * Without an OS keychain (the test points D-Bus nowhere), a bundle's
 * sensitive user_config value is not turned into a `${VAR}` behind the
 * user's back: `bundles.install` asks, naming the variable, and leaves
 * nothing behind; then either choice is honoured, as for registry entries
 * and pasted snippets (install/registry/secretChoice.ts).
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BridgeHarness } from '../../helpers/bridgeHarness.js';
import { bundleBytes, bundleManifest } from '../../helpers/bundles.js';

const saved = { DBUS: process.env['DBUS_SESSION_BUS_ADDRESS'], DISPLAY: process.env['DISPLAY'] };
const harness = await BridgeHarness.create();
beforeAll(async () => {
  process.env['DBUS_SESSION_BUS_ADDRESS'] = 'unix:path=/nonexistent/bus';
  delete process.env['DISPLAY'];
  process.env['API_KEY'] = 'key-from-env'; // what the user set, as the check of a reference needs
  await harness.start();
}, 60_000);
afterAll(async () => {
  delete process.env['API_KEY'];
  if (saved.DBUS !== undefined) process.env['DBUS_SESSION_BUS_ADDRESS'] = saved.DBUS;
  else delete process.env['DBUS_SESSION_BUS_ADDRESS'];
  if (saved.DISPLAY !== undefined) process.env['DISPLAY'] = saved.DISPLAY;
  await harness.stop();
});

const servers = async () =>
  (JSON.parse(await readFile(harness.configPath, 'utf8')) as { mcpServers: Record<string, Record<string, unknown>> })
    .mcpServers;
const bundlesDir = () => join(harness.root, 'state', 'mcp-switchboard', 'bundles');

async function install(id: string, secretStorage?: 'reference' | 'config') {
  const client = await harness.bridge();
  const data = (await bundleBytes(bundleManifest('greeter'))).toString('base64');
  return client.call('bundles.install', {
    fileName: 'greeter.mcpb',
    data,
    id,
    values: { 'var:tools': 'greet', 'var:api_key': 'typed-in-key' },
    ...(secretStorage ? { secretStorage } : {}),
  });
}

describe('a bundle secret without a keychain', () => {
  it('asks where it goes, naming the variable, and leaves nothing behind', async () => {
    const info = await (await harness.bridge()).call('app.info');
    expect(info.ok && info.result.keychain.available).toBe(false);
    const asked = await install('ask');
    expect(asked).toMatchObject({
      ok: false,
      error: {
        code: 'input_invalid',
        data: { field: 'secretStorage', variables: [{ field: 'env.API_KEY', variable: 'API_KEY', set: true }] },
      },
    });
    expect(await servers()).not.toHaveProperty('ask');
    expect(await readdir(bundlesDir()).catch(() => [])).toEqual([]);
  });

  it('an environment variable: the reference is saved, the value nowhere', async () => {
    const added = await install('by-ref', 'reference');
    if (!added.ok) throw new Error(added.error.message);
    expect(added.result.secrets).toEqual(['${API_KEY}']);
    expect((await servers())['by-ref']?.['env']).toMatchObject({ API_KEY: '${API_KEY}', FIXTURE_TOOLS: 'greet' });
    expect(await readFile(harness.configPath, 'utf8')).not.toContain('typed-in-key');
  }, 60_000);

  it('config.json, as chosen: the value is saved there', async () => {
    const added = await install('plain', 'config');
    if (!added.ok) throw new Error(added.error.message);
    expect(added.result.secrets).toEqual(['config.json (plain text)']);
    expect((await servers())['plain']?.['env']).toMatchObject({ API_KEY: 'typed-in-key' });
  }, 60_000);
});
