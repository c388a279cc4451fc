/**
 * Learn mode (sandbox/learnRun.ts) on three real servers, with real
 * bubblewrap and strace: each is run recorded through initialize, its lists
 * and a few calls, the proposal is checked exactly (server-filesystem: its
 * folder, for writing, as it wrote; server-memory: its memory file's folder;
 * server-everything: nothing beyond the defaults), then accepted and the
 * server run sandboxed under it, where the same calls work. A secret in the
 * server's environment and arguments appears nowhere in what learn mode
 * gives back. Learning from refusals (learnByRefusals.ts, how macOS and
 * Windows learn under srt) is run here under real bubblewrap, whose refusals
 * the server's own error words name: the hostile fixture's read at start, a
 * write outside its folders and a connection are each learned in a run of
 * their own, and the server then works under the proposal.
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import { EVERYTHING, fixture, MEMORY, ROOT, startProxy, tempDir } from '../../helpers/harness.js';
import { sandboxSupport } from '../../../electron/core/backends/index.js';
import { findCommand } from '../../../electron/core/backends/process/commandLookup.js';
import {
  learnPermissions,
  type LearnCall,
  type LearnResult,
} from '../../../electron/core/backends/supervisor/learnRun.js';
import { acceptedSetting, grantDiff } from '../../../electron/core/backends/process/sandbox/learnDiff.js';
import { learnByRefusals } from '../../../electron/core/backends/supervisor/learnByRefusals.js';

const FILESYSTEM = join(ROOT, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');
const support = await sandboxSupport();
const strace = findCommand('strace', process.env['PATH'] ?? '');
const why = !support.available ? ` (skipped: ${support.reason})` : !strace ? ' (skipped: no strace)' : '';
const mustRun = process.env['CI'] === 'true';
const SECRET = 'sk-learn-canary-5f1e2d';

let dir: { path: string; cleanup: () => Promise<void> };
let home: string;
let state: string;
beforeAll(async () => {
  dir = await tempDir();
  home = join(dir.path, 'home');
  state = join(dir.path, 'state');
  await mkdir(home, { recursive: true });
});
afterAll(() => dir.cleanup());

/** The user's environment with the server's laid over, as the core spawns it. */
function environment(env: Record<string, string>): Record<string, string> {
  const merged: Record<string, string> = { ...getDefaultEnvironment() };
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined) merged[key] = value;
  return { ...merged, HOME: home, LEARN_TOKEN: SECRET, ...env };
}

async function learn(
  id: string,
  args: string[],
  env: Record<string, string>,
  calls: LearnCall[],
): Promise<LearnResult> {
  const result = await learnPermissions({
    launch: { id, command: process.execPath, args, cwd: undefined, env: environment(env) },
    stateDir: state,
    extraPath: [],
    calls,
    windowMs: 300,
    timeoutMs: 60_000,
  });
  expect(JSON.stringify(result)).not.toContain(SECRET);
  return result;
}

/** Runs the server sandboxed under the accepted setting and makes `calls` through Switchboard. */
async function underAccepted(
  id: string,
  args: string[],
  env: Record<string, string>,
  result: LearnResult,
  calls: LearnCall[],
): Promise<{ ok: boolean; text: string }[]> {
  const sandbox = acceptedSetting(grantDiff(undefined, result.grant));
  const proxy = await startProxy(
    { mcpServers: { [id]: { command: process.execPath, args, env: { HOME: home, ...env }, sandbox } } },
    { deps: { stateDir: state } },
  );
  try {
    expect(proxy.core.health()[0]).toMatchObject({ status: 'up', sandbox: { state: 'on', engine: 'bubblewrap' } });
    const client = await proxy.connect();
    const outcomes = [];
    for (const call of calls) {
      const answer = await client.callTool({ name: `${id}__${call.name}`, arguments: call.arguments });
      const content = answer.content as { text?: string }[];
      outcomes.push({ ok: answer.isError !== true, text: content.map((block) => block.text ?? '').join('') });
    }
    return outcomes;
  } finally {
    await proxy.close();
  }
}

describe.skipIf((!support.available || !strace) && !mustRun)(`learn mode on real servers${why}`, () => {
  it('server-filesystem with one folder: that folder, for writing, as it wrote there', async () => {
    const folder = join(dir.path, 'files');
    await mkdir(folder, { recursive: true });
    await writeFile(join(folder, 'seed.txt'), 'seed\n');
    const calls = (name: string): LearnCall[] => [
      { name: 'list_directory', arguments: { path: folder } },
      { name: 'read_text_file', arguments: { path: join(folder, 'seed.txt') } },
      { name: 'write_file', arguments: { path: join(folder, `${name}.txt`), content: name } },
    ];
    const result = await learn('fs', [FILESYSTEM, folder], {}, calls('learned'));
    expect(result.calls.map((call) => call.ok)).toEqual([true, true, true]);
    expect(result.listed.tools).toBeGreaterThan(5);
    expect(result.grant).toEqual({ read: [], write: [folder], network: [], addresses: [] });

    // Without it, the default sandbox refuses the write: the grant is needed, not decoration.
    const none = { ...result, grant: { read: [], write: [], network: [], addresses: [] } };
    const refused = await underAccepted('fs', [FILESYSTEM, folder], {}, none, calls('default'));
    expect(refused.map((outcome) => outcome.ok)).toEqual([true, true, false]);

    const outcomes = await underAccepted('fs', [FILESYSTEM, folder], {}, result, calls('sandboxed'));
    expect(outcomes.map((outcome) => outcome.ok)).toEqual([true, true, true]);
    expect(outcomes[1]?.text).toBe('seed\n');
    expect(await readFile(join(folder, 'sandboxed.txt'), 'utf8')).toBe('sandboxed');
  }, 180_000);

  it("server-memory with its file in the home: that file's folder, for writing", async () => {
    await mkdir(join(home, 'memory'), { recursive: true });
    const env = { MEMORY_FILE_PATH: join(home, 'memory', 'memory.json') };
    const calls = (name: string): LearnCall[] => [
      { name: 'create_entities', arguments: { entities: [{ name, entityType: 'test', observations: ['seen'] }] } },
      { name: 'read_graph', arguments: {} },
    ];
    const result = await learn('memory', [MEMORY], env, calls('learned'));
    expect(result.calls.map((call) => call.ok)).toEqual([true, true]);
    expect(result.grant).toEqual({ read: [], write: ['~/memory'], network: [], addresses: [] });

    const outcomes = await underAccepted('memory', [MEMORY], env, result, calls('sandboxed'));
    expect(outcomes.map((outcome) => outcome.ok)).toEqual([true, true]);
    // It reads what the learned run wrote to the real file, and saves to it.
    expect(outcomes[1]?.text).toContain('learned');
    expect(await readFile(env.MEMORY_FILE_PATH, 'utf8')).toContain('sandboxed');
  }, 180_000);

  it('server-everything: nothing beyond the defaults', async () => {
    const calls: LearnCall[] = [
      { name: 'echo', arguments: { message: 'hello' } },
      { name: 'get-sum', arguments: { a: 2, b: 3 } },
    ];
    const result = await learn('everything', [EVERYTHING, 'stdio'], {}, calls);
    expect(result.calls.map((call) => call.ok)).toEqual([true, true]);
    expect(result.listed.prompts).toBeGreaterThan(0);
    expect(result.grant).toEqual({ read: [], write: [], network: [], addresses: [] });

    const outcomes = await underAccepted('everything', [EVERYTHING, 'stdio'], {}, result, calls);
    expect(outcomes.map((outcome) => outcome.ok)).toEqual([true, true]);
    expect(outcomes[0]?.text).toContain('hello');
  }, 180_000);
});

describe.skipIf(!support.available && !mustRun)(`learning from refusals (as on macOS and Windows)${why}`, () => {
  let listener: Server;
  let port: number;
  beforeAll(async () => {
    listener = createServer((socket) => socket.end());
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    port = (listener.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((resolve) => listener.close(() => resolve())));

  it('lifts one refusal per run: a read at start, a write, a connection; the server then works under it', async () => {
    const key = join(home, '.ssh', 'id_rsa');
    await mkdir(join(home, '.ssh'), { recursive: true });
    await writeFile(key, 'PRIVATE KEY CANARY\n');
    await mkdir(join(home, 'notes'), { recursive: true });
    const args = [fixture('hostile.mjs')];
    const env = { HOSTILE_READ_AT_START: key };
    const calls: LearnCall[] = [
      { name: 'write_file', arguments: { path: join(home, 'notes', 'out.txt'), content: 'kept' } },
      { name: 'tunnel', arguments: { host: '127.0.0.1', port } },
    ];
    const result = await learnByRefusals({
      launch: { id: 'hostile', command: process.execPath, args, cwd: undefined, env: environment(env) },
      stateDir: state,
      extraPath: [],
      calls,
      windowMs: 0,
      timeoutMs: 90_000,
    });
    expect(JSON.stringify(result)).not.toContain(SECRET);
    expect(result.grant).toEqual({
      read: ['~/.ssh/id_rsa'],
      write: ['~/notes'],
      network: [`127.0.0.1:${port}`],
      addresses: [],
    });
    expect(result.calls.map((call) => call.ok)).toEqual([true, true]);
    await rm(join(home, 'notes', 'out.txt'));
    const outcomes = await underAccepted('hostile', args, env, result, calls);
    expect(outcomes.map((outcome) => outcome.ok)).toEqual([true, true]);
    expect(await readFile(join(home, 'notes', 'out.txt'), 'utf8')).toBe('kept');
  }, 120_000);
});

describe('learn mode where it is not wired', () => {
  it.each([
    ['darwin', 'macOS'],
    ['win32', 'Windows'],
  ] as const)('on %s says so, naming the platform', async (platform, name) => {
    const refused = learnPermissions({
      launch: { id: 'x', command: process.execPath, args: [MEMORY], cwd: undefined, env: environment({}) },
      stateDir: state,
      extraPath: [],
      calls: [],
      windowMs: 0,
      timeoutMs: 1000,
      platform,
    });
    await expect(refused).rejects.toMatchObject({ code: 'not_supported', data: { platform: name } });
    await expect(refused).rejects.toThrow(`on ${name} learn mode learns from what the sandbox refuses instead`);
  });
});
