/**
 * Nothing a user writes is lost: `serve` runs as its own process and the UI's
 * writes go through the bridge, while the test edits config.json by hand as an
 * editor would. A half-typed file is never replaced, hand edits followed at
 * once by UI writes both survive, and kill -9 in the middle of a stream of
 * writes leaves a valid file holding every acknowledged change.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connectBridge, type BridgeClient } from '../../helpers/bridgeClient.js';
import { nextEvent } from '../../helpers/bridgeHarness.js';
import { fixture, nodeServer } from '../../helpers/harness.js';
import { isolatedUser, serveAs, type IsolatedUser } from '../../helpers/isolatedUser.js';
import { waitUntil } from '../../helpers/processes.js';

type Served = Awaited<ReturnType<typeof serveAs>>;

describe('config writes racing the user', () => {
  let user: IsolatedUser;
  let served: Served | undefined;
  let bridge: BridgeClient | undefined;

  beforeEach(async () => {
    user = await isolatedUser();
  });
  afterEach(async () => {
    await bridge?.close();
    await served?.stop();
    bridge = served = undefined;
    await user.cleanup();
  });

  async function start(config: Record<string, unknown>): Promise<BridgeClient> {
    await writeFile(user.configPath, `${JSON.stringify(config, null, 2)}\n`);
    served = await serveAs(user);
    bridge = await connectBridge({ origin: served.origin, token: user.env.SWITCHBOARD_TOKEN });
    return bridge;
  }

  const deny = (client: BridgeClient, tool: string) =>
    client.call('policy.setRule', { backendId: 'mem', kind: 'tools', original: tool, rule: 'deny' });

  /** The saved file as plain data (shape checked by the assertions). */
  type Saved = {
    mcpServers: Record<string, unknown>;
    policy?: { backends: { mem: { tools: Record<string, string> } } };
  };
  const saved = async () => JSON.parse(await readFile(user.configPath, 'utf8')) as Saved;

  it('never replaces a half-typed file: the write is refused naming line and column, and goes through once it is fixed', async () => {
    const client = await start({ mcpServers: {} });
    const halfTyped = '{\n  "mcpServers": {},\n  "policy": {\n    "defaultRule": "allow",\n    "backends": {"mem": \n';
    await writeFile(user.configPath, halfTyped);
    const banner = nextEvent(client, 'configChanged', (payload) => payload.error !== undefined);
    const refused = await deny(client, 'delete_entities');
    expect(refused).toEqual({
      ok: false,
      error: {
        code: 'config_unparsed',
        message:
          'config.json has an edit that does not parse yet (line 6, column 1): fix it or undo it, then try again',
        data: expect.objectContaining({ line: 6, column: 1 }),
      },
    });
    expect(await readFile(user.configPath, 'utf8')).toBe(halfTyped);
    // The UI is told at once, and its banner shows the same text.
    expect((await banner).error).toContain('config.json has an edit that does not parse yet (line 6, column 1)');
    const info = await client.call('app.info');
    expect(info).toMatchObject({ ok: true, result: { configError: expect.stringContaining('line 6, column 1') } });

    const finished =
      '{\n  "mcpServers": {},\n  "policy": {\n    "defaultRule": "allow",\n    "backends": {"mem": {}}\n  }\n}\n';
    // Fixing it clears the banner: the UI is told, and app.info has no error any more.
    const cleared = nextEvent(client, 'configChanged', (payload) => payload.error === undefined);
    await writeFile(user.configPath, finished);
    await cleared;
    const fixedInfo = await client.call('app.info');
    expect(fixedInfo.ok && fixedInfo.result.configError).toBeUndefined();
    expect(await deny(client, 'delete_entities')).toEqual({ ok: true });
    const text = await readFile(user.configPath, 'utf8');
    expect(text.startsWith('{\n  "mcpServers": {},\n  "policy": {\n    "defaultRule": "allow",\n')).toBe(true);
    expect(JSON.parse(text).policy.backends.mem).toEqual({ tools: { delete_entities: 'deny' } });
  });

  it('keeps hand edits made just before a UI write: the servers are in the file and start', async () => {
    const client = await start({ mcpServers: {} });
    for (let i = 0; i < 3; i++) {
      // As an editor saves: the whole file, read and written back with one server more.
      const current = await saved();
      current.mcpServers[`hand${i}`] = nodeServer(fixture('configurable.mjs'), [], {
        env: { FIXTURE_TOOLS: `t${i}` },
      });
      await writeFile(user.configPath, `${JSON.stringify(current, null, 2)}\n`);
      expect(await deny(client, `tool${i}`)).toEqual({ ok: true });
    }
    const final = await saved();
    expect(Object.keys(final.mcpServers).sort()).toEqual(['hand0', 'hand1', 'hand2']);
    expect(final.policy?.backends.mem.tools).toEqual({ tool0: 'deny', tool1: 'deny', tool2: 'deny' });
    await waitUntil(
      async () => {
        const listed = await client.call('backends.list');
        return listed.ok && listed.result.filter((backend) => backend.health.status === 'up').length === 3;
      },
      { timeoutMs: 20_000, description: 'the three hand-added servers to be up' },
    );
  });

  it('after kill -9 amid a stream of UI writes, every acknowledged change is in a valid file and no temp file remains', async () => {
    const client = await start({ mcpServers: {}, policy: { backends: { mem: {} } } });
    const acknowledged: string[] = [];
    let stop = false;
    // The last call may never be answered (the process is gone): the stream is not awaited.
    void (async () => {
      for (let i = 0; !stop; i++) {
        const outcome = await deny(client, `tool${i}`).catch(() => ({ ok: false }));
        if (!outcome.ok || stop) break;
        acknowledged.push(`tool${i}`);
      }
    })();
    await waitUntil(() => acknowledged.length >= 15, { timeoutMs: 30_000, description: '15 acknowledged writes' });
    stop = true;
    served!.child.kill('SIGKILL');
    await new Promise((resolve) => served!.child.once('exit', resolve));
    await bridge!.close();
    bridge = undefined;
    const rules = (await saved()).policy?.backends.mem.tools ?? {};
    for (const tool of acknowledged) expect(rules[tool], tool).toBe('deny');

    // A temp file as a writer killed mid-write leaves it (kill -9 cannot be timed to produce one).
    await writeFile(join(user.configDir, '.config.json.0123456789ab.tmp'), '{"half');
    served = await serveAs(user);
    const left = (await readdir(user.configDir)).filter((name) => name.endsWith('.tmp'));
    expect(left).toEqual([]);
    bridge = await connectBridge({ origin: served.origin, token: user.env.SWITCHBOARD_TOKEN });
    expect(await deny(bridge, 'after-restart')).toEqual({ ok: true });
    expect((await saved()).policy?.backends.mem.tools['after-restart']).toBe('deny');
  });

  it('lists backups and restores one through the bridge and the CLI', async () => {
    const client = await start({ mcpServers: {} });
    expect(await deny(client, 'first')).toEqual({ ok: true });
    expect(await deny(client, 'second')).toEqual({ ok: true });
    const backups = await client.call('config.backups');
    expect(backups.ok && backups.result.map((backup) => backup.index)).toEqual([1, 2]);
    // Backup 1 is the file before the last write: it has "first" but not "second".
    expect(await client.call('config.restore', { index: 1 })).toMatchObject({ ok: true, result: { index: 1 } });
    expect((await saved()).policy?.backends.mem.tools).toEqual({ first: 'deny' });
    // The CLI finds the running instance's config, lists the same backups (plus the restored-over file).
    const listed = await user.run('config', 'backups');
    expect(listed.code).toBe(0);
    expect(listed.stdout.trim().split('\n')).toHaveLength(3);
    const restored = await user.run('config', 'restore', '3');
    expect(restored).toMatchObject({ code: 0, stdout: expect.stringContaining('from backup 3') });
    expect(restored.stderr).toContain('note: acting on the running Switchboard');
    expect((await saved()).policy).toBeUndefined();
    expect(await user.run('config', 'restore', '99')).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('no backup 99'),
    });
    // The next UI write patches the restored file, not what the running instance had before.
    expect(await deny(client, 'third')).toEqual({ ok: true });
    expect((await saved()).policy?.backends.mem.tools).toEqual({ third: 'deny' });
  });
});
