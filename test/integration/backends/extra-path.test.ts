/**
 * Directories the user adds to the PATH of stdio backends (Settings,
 * `proxy.extraPath`): over the bridge a bad entry is refused naming it, a good
 * one is saved and a command found only there starts at once; and `serve`
 * started with the minimal PATH of a dock, its config listing that directory,
 * starts the same backend.
 */
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BridgeHarness } from '../../helpers/bridgeHarness.js';
import { BIN } from '../../helpers/cli.js';
import { MEMORY } from '../../helpers/harness.js';
import { spawnServer } from '../../helpers/spawnServer.js';

const harness = await BridgeHarness.create();
let tools: string;
beforeAll(async () => {
  // A node that only this directory has, under a name no PATH has.
  tools = join(harness.root, 'user-tools', 'bin');
  await mkdir(tools, { recursive: true });
  await symlink(process.execPath, join(tools, 'sb-extra-node'));
  await harness.start();
}, 60_000);
afterAll(() => harness.stop());

const memory = () => ({
  command: 'sb-extra-node',
  args: [MEMORY],
  env: { MEMORY_FILE_PATH: join(harness.root, 'm.json') },
});

describe.skipIf(process.platform === 'win32')('user-added PATH entries', () => {
  it('a relative or missing directory is refused naming the entry, and nothing is saved', async () => {
    const client = await harness.bridge();
    const relative = await client.call('env.setExtraPath', { paths: ['user-tools/bin'] });
    expect(relative).toMatchObject({ ok: false, error: { code: 'invalid_params', data: { field: 'paths.0' } } });
    expect(!relative.ok && relative.error.message).toBe(
      'paths.0 ("user-tools/bin"): must be an absolute directory path',
    );
    const missing = await client.call('env.setExtraPath', { paths: [tools, join(harness.root, 'nope')] });
    expect(!missing.ok && missing.error.message).toContain('paths.1');
    expect(!missing.ok && missing.error.message).toContain('no such directory');
    const config = JSON.parse(await readFile(harness.configPath, 'utf8')) as { proxy?: unknown };
    expect(config.proxy).toBeUndefined();
  });

  it('a command found only in an added directory starts, once it is added', async () => {
    const client = await harness.bridge();
    const before = await client.call('backends.add', { id: 'extra', entry: memory() });
    expect(before).toMatchObject({ ok: false });
    expect(!before.ok && before.error.message).toContain('sb-extra-node');
    const set = await client.call('env.setExtraPath', { paths: [tools] });
    if (!set.ok) throw new Error(set.error.message);
    expect(set.result.extra).toEqual([tools]);
    expect(set.result.path[0]).toBe(tools);
    const config = JSON.parse(await readFile(harness.configPath, 'utf8')) as { proxy?: { extraPath?: string[] } };
    expect(config.proxy?.extraPath).toEqual([tools]);
    const added = await client.call('backends.add', { id: 'extra', entry: memory() });
    if (!added.ok) throw new Error(added.error.message);
    expect(added.result.health.status).toBe('up');
    expect(added.result.health.counts.tools).toBeGreaterThan(0);
    expect(await client.call('env.path')).toMatchObject({ ok: true, result: { extra: [tools] } });
  }, 60_000);

  /** `serve` with a dock-like PATH on `config` (written first), in its own folder `name`. */
  async function dockServe(name: string, config: Record<string, unknown>) {
    const dir = join(harness.root, name);
    await mkdir(join(dir, 'home'), { recursive: true });
    const path = join(dir, 'config.json');
    await writeFile(path, JSON.stringify(config));
    const serve = await spawnServer([BIN, 'serve', '--config', path, '--port', '0', '--quiet'], /MCP endpoint: (\S+)/, {
      PATH: '/usr/bin:/bin',
      HOME: join(dir, 'home'),
      SHELL: '/bin/sh',
      XDG_CONFIG_HOME: join(dir, 'xdg'),
      XDG_STATE_HOME: join(dir, 'state'),
      SWITCHBOARD_TOKEN: 'extra-path-token',
    });
    const readyz = serve.match[1]!.replace(/\/mcp$/, '/readyz');
    /** The backend counts once `done` holds of them (or after 10 s). */
    const counts = async (done: (counts: Record<string, number>) => boolean) => {
      let body: { counts?: Record<string, number> } = {};
      for (let i = 0; i < 100; i++) {
        const response = await fetch(readyz);
        body = (await response.json()) as typeof body;
        if (response.status === 200 && done(body.counts ?? {})) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      return body.counts ?? {};
    };
    return { path, serve, counts };
  }

  it('serve started with a dock-like PATH uses the config’s extraPath for its stdio backends', async () => {
    const { serve, counts } = await dockServe('dock', {
      proxy: { extraPath: [tools] },
      mcpServers: { memory: memory() },
    });
    try {
      expect((await counts((c) => (c['up'] ?? 0) > 0))['up']).toBe(1);
    } finally {
      await serve.stop();
    }
  }, 60_000);

  it('a hand edit of extraPath in config.json applies without a restart', async () => {
    const { path, serve, counts } = await dockServe('hand-edit', { mcpServers: {} });
    try {
      await counts(() => true);
      // One edit: the directory, and a server whose command only that directory has.
      await writeFile(path, JSON.stringify({ proxy: { extraPath: [tools] }, mcpServers: { memory: memory() } }));
      // Settled: up, or down when the command was not found (as before the edit applied live).
      const after = await counts((c) => (c['up'] ?? 0) + (c['down'] ?? 0) > 0);
      expect(after).toMatchObject({ up: 1 });
    } finally {
      await serve.stop();
    }
  }, 60_000);
});
