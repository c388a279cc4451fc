/**
 * Backups after a secret moves to the keychain, on real files through the
 * config store: however it moved (a write of ours, a hand edit seen by the
 * watcher, a hand edit while nothing ran), no backup keeps the value; where it
 * was a whole env or header value the backup now refers to the same keychain
 * secret (a restore gives a config that validates and reads it from there),
 * any other copy is `[redacted]`, and the rest of each backup stays.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigStore } from '../../../../../electron/core/platform/config/configStore.js';
import { tempDir } from '../../../../helpers/basics.js';
import { waitUntil } from '../../../../helpers/processes.js';

const VALUE = 'sk-live-4f9c2e7a1b3d5f60';
const REFERENCE = { secret: 'api-token' };

/** A config holding the value as an env value, in a URL's query and in an argument. */
function withPlainSecret(extra: Record<string, unknown> = {}) {
  return {
    mcpServers: {
      api: { command: 'api-mcp', env: { API_TOKEN: VALUE, REGION: 'eu' } },
      web: { url: `https://example.test/mcp?api_key=${VALUE}` },
      cli: { command: 'tool', args: ['--token', VALUE] },
      ...extra,
    },
  };
}

describe('backups after a secret moves to the keychain', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let path: string;
  let store: ConfigStore;

  beforeEach(async () => {
    dir = await tempDir();
    path = join(dir.path, 'config.json');
    store = new ConfigStore(path, undefined, { stateDir: join(dir.path, 'state') });
    await writeFile(path, `${JSON.stringify(withPlainSecret(), null, 2)}\n`);
    await store.load();
    // Backups that hold the value: two writes of ours, before the move.
    await store.updateServers((servers) => (servers['a'] = { command: 'a' }));
    await store.updateServers((servers) => (servers['b'] = { command: 'b' }));
  });
  afterEach(async () => {
    store.unwatch();
    await dir.cleanup();
  });

  async function backupTexts(): Promise<string[]> {
    return Promise.all((await store.backups()).map((backup) => readFile(backup.path, 'utf8')));
  }

  /** The move as the UI and import do it: the value goes, a reference takes its place. */
  async function moveThroughStore(): Promise<void> {
    await store.updateServers((servers) => {
      const api = servers['api'] as { env: Record<string, unknown> };
      api.env['API_TOKEN'] = REFERENCE;
      delete servers['web'];
      delete servers['cli'];
    });
  }

  it('rewrites every backup: the reference where the value stood whole, [redacted] elsewhere, the rest kept', async () => {
    expect((await backupTexts()).every((text) => text.includes(VALUE))).toBe(true);
    await moveThroughStore();
    const texts = await backupTexts();
    expect(texts).toHaveLength(3);
    for (const text of texts) {
      expect(text).not.toContain(VALUE);
      const backup = JSON.parse(text) as ReturnType<typeof withPlainSecret>;
      expect(backup.mcpServers.api.env).toEqual({ API_TOKEN: REFERENCE, REGION: 'eu' });
      expect(backup.mcpServers.web.url).toBe('https://example.test/mcp?api_key=[redacted]');
      expect(backup.mcpServers.cli.args).toEqual(['--token', '[redacted]']);
    }
    // A restore gives a config that validates and refers to the keychain secret.
    await store.restore(1);
    const restored = await store.read();
    const api = restored.config.backends.find((backend) => backend.id === 'api');
    expect(api).toMatchObject({ env: { API_TOKEN: REFERENCE, REGION: 'eu' } });
    expect(Object.keys(JSON.parse(await readFile(path, 'utf8')).mcpServers)).toEqual(['api', 'web', 'cli', 'a', 'b']);
  });

  it('rewrites them after a hand edit the watcher sees', async () => {
    store.watch(
      () => undefined,
      () => undefined,
    );
    const moved = withPlainSecret();
    (moved.mcpServers.api.env as Record<string, unknown>)['API_TOKEN'] = REFERENCE;
    await writeFile(path, JSON.stringify({ mcpServers: { api: moved.mcpServers.api } }, null, 2));
    await waitUntil(async () => (await backupTexts()).every((text) => !text.includes(VALUE)), {
      description: 'the backups to lose the moved value',
    });
  });

  it('rewrites them at start after a hand edit made while nothing ran', async () => {
    await writeFile(
      path,
      JSON.stringify({ mcpServers: { api: { command: 'api-mcp', env: { API_TOKEN: REFERENCE } } } }),
    );
    await new ConfigStore(path, undefined, { stateDir: join(dir.path, 'state') }).load();
    expect((await backupTexts()).some((text) => text.includes(VALUE))).toBe(false);
  });

  it('leaves backups alone while the config keeps the value, or refers to it by ${VAR}', async () => {
    const before = await backupTexts();
    await store.updateServers((servers) => {
      (servers['api'] as { env: Record<string, unknown> }).env['API_TOKEN'] = '${API_TOKEN}';
    });
    await store.updateServers((servers) => (servers['c'] = { command: 'c', env: { K: REFERENCE } }));
    const after = await backupTexts();
    // Two new backups; the old ones byte for byte as they were.
    expect(after.slice(2)).toEqual(before);
    expect(after.filter((text) => text.includes(VALUE))).toHaveLength(4);
  });
});
