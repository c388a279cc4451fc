/**
 * Secrets in the real OS keychain (Secret Service via gnome-keyring under
 * dbus-run-session; see test/helpers/keyring-run.mjs). The keychain tests skip,
 * saying why, when no Secret Service answers, unless SWITCHBOARD_REQUIRE_KEYCHAIN=1
 * (set by the keyring runner, so CI runs them for real).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { BackendHealth } from '../../../shared/model/health.js';
import { ConfigStore, KeytarStore } from '../../../electron/core/platform/index.js';
import { keychainForTests } from '../../helpers/keychain.js';
import { EVERYTHING, MEMORY, ROOT, firstText, nodeServer, startProxy, type Harness } from '../../helpers/harness.js';

const SERVICE = `mcp-switchboard-test-${process.pid}`;
const store = new KeytarStore({ service: SERVICE, timeoutMs: 5000 });
const { status, required, titleSuffix: skipReason } = await keychainForTests(store);
if (!status.available && !required) console.warn(`secrets.test.ts: keychain tests skipped: ${status.reason ?? ''}`);

let harness: Harness | undefined;
const dirs: string[] = [];

afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

afterAll(async () => {
  if (status.available) for (const name of await store.list()) await store.delete(name);
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

function healthOf(id: string): BackendHealth {
  const found = harness?.core.health().find((entry) => entry.id === id);
  if (!found) throw new Error(`no backend "${id}"`);
  return found;
}

async function tempConfig(): Promise<ConfigStore> {
  const dir = await mkdtemp(join(tmpdir(), 'sb-secrets-'));
  dirs.push(dir);
  return new ConfigStore(join(dir, 'config.json'));
}

describe('the keychain is reachable where it is required', () => {
  it.runIf(required)('finds a Secret Service', () => {
    expect(status).toMatchObject({ available: true });
  });
});

describe.skipIf(!status.available && !required)(`secrets in the OS keychain${skipReason}`, () => {
  it('secrets survive a restart: a new store instance reads them', async () => {
    await store.set('restart-token', 'value-survives-1234');
    const again = new KeytarStore({ service: SERVICE });
    expect(await again.get('restart-token')).toBe('value-survives-1234');
    expect(await again.list()).toContain('restart-token');
    expect(await again.delete('restart-token')).toBe(true);
    expect(await store.get('restart-token')).toBeUndefined();
  });

  it('a backend whose env refers to a secret gets the value; the config file never holds it', async () => {
    const value = `sekrit-${Date.now()}`;
    await store.set('everything-token', value);
    const config = await tempConfig();
    harness = await startProxy({}, { store: config, secrets: store });
    const entry = nodeServer(EVERYTHING, ['stdio'], { env: { EVERYTHING_TOKEN: { secret: 'everything-token' } } });
    const health = await harness.core.addBackend('everything', entry);
    expect(health.status).toBe('up');
    const client = await harness.connect();
    const result = await client.callTool({ name: 'everything__get-env', arguments: {} });
    expect(firstText(result)).toContain(value);
    const text = await readFile(config.path, 'utf8');
    expect(text).toContain('"secret": "everything-token"');
    expect(text).not.toContain(value);
  });

  it('removing a backend deletes the secrets only it referred to', async () => {
    await store.set('shared-token', 'shared-value');
    await store.set('own-token', 'own-value');
    const config = await tempConfig();
    harness = await startProxy({}, { store: config, secrets: store });
    const env = (extra: Record<string, unknown>) => ({ SHARED: { secret: 'shared-token' }, ...extra });
    await harness.core.addBackend('one', nodeServer(MEMORY, [], { env: env({ OWN: { secret: 'own-token' } }) }));
    await harness.core.addBackend('two', nodeServer(EVERYTHING, ['stdio'], { env: env({}) }));
    await harness.core.removeBackend('one');
    expect(await store.get('own-token')).toBeUndefined();
    expect(await store.get('shared-token')).toBe('shared-value');
    await harness.core.removeBackend('two');
    expect(await store.get('shared-token')).toBeUndefined();
  });

  it('an edit that drops a secret reference deletes that secret, unless another backend still uses it', async () => {
    await store.set('kept-token', 'kept-value');
    await store.set('dropped-token', 'dropped-value');
    await store.set('shared-edit', 'shared-value');
    const config = await tempConfig();
    harness = await startProxy({}, { store: config, secrets: store });
    await harness.core.addBackend(
      'one',
      nodeServer(MEMORY, [], {
        env: { A: { secret: 'kept-token' }, B: { secret: 'dropped-token' }, C: { secret: 'shared-edit' } },
      }),
    );
    await harness.core.addBackend('two', nodeServer(EVERYTHING, ['stdio'], { env: { C: { secret: 'shared-edit' } } }));
    const health = await harness.core.updateBackend(
      'one',
      nodeServer(MEMORY, [], { env: { A: { secret: 'kept-token' } } }),
    );
    expect(health.status).toBe('up');
    expect(await store.get('kept-token')).toBe('kept-value');
    expect(await store.get('dropped-token')).toBeUndefined();
    expect(await store.get('shared-edit')).toBe('shared-value');
  });

  it('once a secret moves to the keychain no backup holds it, and a restored backup works, its secret read from there', async () => {
    const value = `backup-sekrit-${Date.now()}`;
    const config = await tempConfig();
    harness = await startProxy({}, { store: config, secrets: store });
    // Kept in plain text first; two more writes leave backups holding it.
    await harness.core.addBackend(
      'everything',
      nodeServer(EVERYTHING, ['stdio'], { env: { EVERYTHING_TOKEN: value } }),
    );
    await config.updateSection('policy', (policy) => ({ ...policy, defaultRule: 'allow' }));
    await config.updateSection('policy', (policy) => ({ ...policy, exposure: 'all' }));
    const backupsHolding = async () =>
      (await Promise.all((await config.backups()).map((backup) => readFile(backup.path, 'utf8')))).filter((text) =>
        text.includes(value),
      );
    expect(await backupsHolding()).toHaveLength(2);
    // The move, as the UI makes it: the value into the keychain, the server's env refers to it.
    await store.set('everything-moved', value);
    const moved = await harness.core.updateBackend(
      'everything',
      nodeServer(EVERYTHING, ['stdio'], { env: { EVERYTHING_TOKEN: { secret: 'everything-moved' } } }),
    );
    expect(moved.status).toBe('up');
    expect(await backupsHolding()).toEqual([]);
    expect(await readFile(config.path, 'utf8')).not.toContain(value);
    // The oldest backup (the file once the server was added, in plain text then) restored: a config that works after a restart.
    const backups = await config.backups();
    await config.restore(backups.length);
    const restored = JSON.parse(await readFile(config.path, 'utf8')) as Record<string, unknown>;
    expect(JSON.stringify(restored)).toContain('"secret":"everything-moved"');
    await harness.close();
    harness = await startProxy(restored, { store: config, secrets: store });
    const client = await harness.connect();
    const result = await client.callTool({ name: 'everything__get-env', arguments: {} });
    expect(firstText(result)).toContain(value);
  });

  it('a missing secret fails only that backend, naming the field and the secret', async () => {
    harness = await startProxy(
      {
        mcpServers: {
          good: nodeServer(EVERYTHING, ['stdio']),
          bad: nodeServer(EVERYTHING, ['stdio'], { env: { API_KEY: { secret: 'never-stored' } } }),
        },
      },
      { secrets: store },
    );
    expect(healthOf('good').status).toBe('up');
    const bad = healthOf('bad');
    expect(bad.status).toBe('down');
    expect(bad.lastError?.message).toContain('mcpServers.bad.env.API_KEY');
    expect(bad.lastError?.message).toContain('"never-stored"');
  });
});

describe('without a keychain', () => {
  it('a backend referring to a secret is down with "the OS keychain is not available"', async () => {
    const broken = new KeytarStore({ load: () => Promise.reject(new Error('no native module here')) });
    expect(await broken.status()).toMatchObject({ available: false, backend: 'none' });
    harness = await startProxy(
      {
        mcpServers: {
          good: nodeServer(EVERYTHING, ['stdio']),
          remote: { url: 'http://127.0.0.1:9/mcp', headers: { Authorization: { secret: 'remote-auth' } } },
        },
      },
      { secrets: broken },
    );
    expect(healthOf('good').status).toBe('up');
    const remote = healthOf('remote');
    expect(remote.status).toBe('down');
    expect(remote.lastError?.message).toContain(
      'mcpServers.remote.headers.Authorization: secret "remote-auth" cannot be read: the OS keychain is not available: keytar could not be loaded (no native module here)',
    );
    expect(remote.lastError?.message).toContain('npm rebuild keytar'); // and what to do about it
  });

  it('with no Secret Service on the bus, status says why (in a child process)', async () => {
    const script = [
      `import { KeytarStore } from ${JSON.stringify(join(ROOT, 'electron/core/platform/secrets/keytarStore.ts'))};`,
      `console.log(JSON.stringify(await new KeytarStore({ timeoutMs: 5000 }).status()));`,
    ].join('\n');
    const environment: NodeJS.ProcessEnv = { ...process.env, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus' };
    delete environment['DISPLAY'];
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script],
      { cwd: ROOT, env: environment, timeout: 30_000 },
    );
    const answer = JSON.parse(stdout.trim()) as { available: boolean; reason?: string };
    expect(answer.available).toBe(false);
    expect(answer.reason).toBeTruthy();
  });
});
