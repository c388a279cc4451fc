/**
 * After `kill -9` of serve, a backend that does not exit when its stdin
 * closes (test/fixtures/servers/stubborn.mjs: it also runs a child of its
 * own) keeps running, re-parented. The next serve of the same config ends it
 * and its child within seconds, saying so; a serve of another config started
 * meanwhile leaves them alone, and its own backends are never touched by the
 * next serve of the first config. Real built `serve` processes (Linux: /proc).
 */
import { readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BIN } from '../../helpers/cli.js';
import { fixture, nodeServer } from '../../helpers/harness.js';
import { isolatedUser, type IsolatedUser } from '../../helpers/isolatedUser.js';
import { isAlive, waitUntil } from '../../helpers/processes.js';
import { spawnServer, type SpawnedServer } from '../../helpers/spawnServer.js';

const ENDED = /ended (\d+) process\(es\) left by Switchboard (\d+) \(gone\) of this config: ([\d, ]+)/;

/** The parent PID of `pid`, from /proc. */
function parentOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
}

let user: IsolatedUser;
const started: SpawnedServer[] = [];
const spared: number[] = [];
beforeEach(async () => {
  user = await isolatedUser();
});
afterEach(async () => {
  for (const serve of started.splice(0)) await serve.stop();
  for (const pid of spared.splice(0)) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  await user.cleanup();
});

/** A config in `name`.json whose one backend is the stubborn fixture, writing its PIDs to `name`.pids. */
async function stubbornConfig(name: string): Promise<{ configPath: string; pids: () => Promise<number[]> }> {
  const configPath = join(user.root, `${name}.json`);
  const pidFile = join(user.root, `${name}.pids`);
  const backend = nodeServer(fixture('stubborn.mjs'), [], { env: { STUBBORN_PID_FILE: pidFile } });
  await writeFile(configPath, JSON.stringify({ mcpServers: { stubborn: backend } }));
  const pids = async () =>
    (await readFile(pidFile, 'utf8').catch(() => ''))
      .split('\n')
      .filter(Boolean)
      .map((line) => Number(line.split(' ')[1]));
  return { configPath, pids };
}

/** serve of `configPath`, resolved once it listens and `ready` (extra) matched its output. */
async function serve(configPath: string, ready = /MCP endpoint: \S+/): Promise<SpawnedServer> {
  const running = await spawnServer([BIN, 'serve', '--config', configPath, '--port', '0'], ready, user.env, 30_000);
  started.push(running);
  return running;
}

describe.skipIf(process.platform !== 'linux')('processes left by a serve killed with SIGKILL', () => {
  it('are ended by the next serve of the same config, and only they', async () => {
    const first = await stubbornConfig('first');
    const other = await stubbornConfig('other');
    const killed = await serve(first.configPath);
    await waitUntil(async () => (await first.pids()).length === 2, {
      timeoutMs: 20_000,
      description: 'the backend and its child',
    });
    const orphans = await first.pids();
    killed.child.kill('SIGKILL');
    await waitUntil(() => killed.child.exitCode !== null || killed.child.signalCode !== null);
    started.splice(started.indexOf(killed), 1);
    spared.push(...orphans);
    // Left running, re-parented (to init, or to a subreaper such as a test runner): no longer serve's.
    await waitUntil(() => orphans.every((pid) => isAlive(pid) && parentOf(pid) !== killed.child.pid), {
      description: 'the orphans re-parented',
    });

    // Another config's serve, meanwhile: its backends are its own, and the first's orphans are not its business.
    await serve(other.configPath);
    await waitUntil(async () => (await other.pids()).length === 2, {
      timeoutMs: 20_000,
      description: 'the other backend',
    });
    const others = await other.pids();
    spared.push(...others);
    expect(orphans.every(isAlive)).toBe(true);

    const next = await serve(first.configPath, ENDED);
    const [, count, ownerPid, ended] = next.match;
    expect(Number(ownerPid)).toBe(killed.child.pid);
    expect(Number(count)).toBe(2);
    expect(ended!.split(', ').map(Number).sort()).toEqual([...orphans].sort());
    await waitUntil(() => orphans.every((pid) => !isAlive(pid)), { timeoutMs: 5000, description: 'the orphans ended' });
    // The other config's backend and child still run, and so does the new serve's own backend.
    expect(others.every(isAlive)).toBe(true);
    await waitUntil(async () => (await first.pids()).length === 4, {
      timeoutMs: 20_000,
      description: 'the new backend',
    });
    expect((await first.pids()).slice(2).every(isAlive)).toBe(true);
  }, 90_000);

  it("a second serve of the same config, running, never ends the first one's backends", async () => {
    const shared = await stubbornConfig('shared');
    await serve(shared.configPath);
    await waitUntil(async () => (await shared.pids()).length === 2, { timeoutMs: 20_000, description: 'the backend' });
    const live = await shared.pids();
    spared.push(...live);
    await serve(shared.configPath);
    await waitUntil(async () => (await shared.pids()).length === 4, {
      timeoutMs: 20_000,
      description: 'the second backend',
    });
    spared.push(...(await shared.pids()).slice(2));
    // Give a wrong reaper time to act.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(live.every(isAlive)).toBe(true);
  }, 90_000);
});
