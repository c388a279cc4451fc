/**
 * What a sandbox costs a server: the time from spawn to its listed catalog,
 * and a tool call's round trip, for the same server (server-memory) run as it
 * is and under bubblewrap with the defaults, interleaved in one run so the
 * machine's load falls on both alike. Prints the ratio side by side. Then
 * learn mode (sandbox/learnRun.ts) on three real servers: the time to learn
 * each (start recorded under strace, lists, a few calls) against the same
 * server's sandboxed start to its listed catalog.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { silentLogger } from '../electron/core/api/index.js';
import { parseConfig } from '../electron/core/platform/index.js';
import { SwitchboardCore } from '../electron/core/switchboard/index.js';
import { sandboxSupport } from '../electron/core/backends/index.js';
import { findCommand, learnPermissions, type LearnCall } from '../electron/core/backends/index.js';
import { printTable, summarize, type LatencyStats } from './lib.js';

const ROOT = resolve(import.meta.dirname, '..');
const MEMORY = join(ROOT, 'node_modules/@modelcontextprotocol/server-memory/dist/index.js');
const FILESYSTEM = join(ROOT, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');
const EVERYTHING = join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const LEARN_ROUNDS = 3;
const ROUNDS = 7;
const CALLS = 200;

async function measure(sandbox: boolean, dir: string): Promise<{ startMs: number; calls: number[] }> {
  const { config, problems } = parseConfig({
    mcpServers: {
      memory: {
        command: process.execPath,
        args: [MEMORY],
        env: { MEMORY_FILE_PATH: join(dir, 'memory.json') },
        sandbox: sandbox ? { write: [dir] } : false,
      },
    },
  });
  if (!config) throw new Error(JSON.stringify(problems));
  const core = new SwitchboardCore(config, {
    environment: { ...process.env, XDG_STATE_HOME: dir },
    logger: silentLogger,
    clientInfo: { name: 'bench', version: '0' },
    stateDir: join(dir, 'state'),
  });
  await core.start();
  const health = core.health()[0];
  if (health?.status !== 'up') throw new Error(`not up: ${JSON.stringify(health?.lastError)}`);
  // Spawn to listed catalog, as the supervisor times it.
  const startMs = health.startMs ?? Number.NaN;
  const connection = core.pool.liveConnection('memory');
  if (!connection) throw new Error('no connection');
  const calls: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    const at = performance.now();
    await connection.callTool({ name: 'read_graph', arguments: {} }, {} as never);
    calls.push(performance.now() - at);
  }
  await core.dispose();
  return { startMs, calls };
}

const support = await sandboxSupport();
if (!support.available) {
  console.log(`sandbox bench skipped: ${support.reason}`);
} else {
  const dir = mkdtempSync(join(tmpdir(), 'bench-sandbox-'));
  const starts = { plain: [] as number[], sandboxed: [] as number[] };
  const calls = { plain: [] as number[], sandboxed: [] as number[] };
  try {
    for (let round = 0; round < ROUNDS; round++)
      for (const sandboxed of round % 2 === 0 ? [false, true] : [true, false]) {
        const result = await measure(sandboxed, dir);
        const key = sandboxed ? 'sandboxed' : 'plain';
        starts[key].push(result.startMs);
        calls[key].push(...result.calls);
      }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const s = { plain: summarize(starts.plain), sandboxed: summarize(starts.sandboxed) };
  const c = { plain: summarize(calls.plain), sandboxed: summarize(calls.sandboxed) };
  const ratio = (a: LatencyStats, b: LatencyStats) => (b.p50 / a.p50).toFixed(2);
  printTable(
    `sandbox cost: server-memory plain vs under bubblewrap (${ROUNDS} starts, ${CALLS} calls each)`,
    ['measure', 'plain p50', 'sandboxed p50', 'ratio'],
    [
      ['start to listed (ms)', s.plain.p50.toFixed(0), s.sandboxed.p50.toFixed(0), ratio(s.plain, s.sandboxed)],
      ['tool call (ms)', c.plain.p50.toFixed(3), c.sandboxed.p50.toFixed(3), ratio(c.plain, c.sandboxed)],
    ],
  );
}

/** One server learn mode is timed on: its arguments, env and the calls made while learning. */
interface LearnCase {
  name: string;
  args: string[];
  env: Record<string, string>;
  calls: LearnCall[];
}

function learnCases(dir: string): LearnCase[] {
  const files = join(dir, 'files');
  mkdirSync(files, { recursive: true });
  writeFileSync(join(files, 'seed.txt'), 'seed');
  const entities = { entities: [{ name: 'a', entityType: 't', observations: ['o'] }] };
  return [
    {
      name: 'server-filesystem',
      args: [FILESYSTEM, files],
      env: {},
      calls: [
        { name: 'read_text_file', arguments: { path: join(files, 'seed.txt') } },
        { name: 'write_file', arguments: { path: join(files, 'out.txt'), content: 'x' } },
      ],
    },
    {
      name: 'server-memory',
      args: [MEMORY],
      env: { MEMORY_FILE_PATH: join(dir, 'home', 'memory', 'memory.json') },
      calls: [
        { name: 'create_entities', arguments: entities },
        { name: 'read_graph', arguments: {} },
      ],
    },
    {
      name: 'server-everything',
      args: [EVERYTHING, 'stdio'],
      env: {},
      calls: [{ name: 'echo', arguments: { message: 'hi' } }],
    },
  ];
}

/** A sandboxed start (spawn to listed catalog) of `entry`, as the supervisor times it. */
async function sandboxedStartMs(learnCase: LearnCase, dir: string): Promise<number> {
  const { config, problems } = parseConfig({
    mcpServers: { s: { command: process.execPath, args: learnCase.args, env: learnCase.env, sandbox: true } },
  });
  if (!config) throw new Error(JSON.stringify(problems));
  const core = new SwitchboardCore(config, {
    environment: { ...process.env, HOME: join(dir, 'home') },
    logger: silentLogger,
    clientInfo: { name: 'bench', version: '0' },
    stateDir: join(dir, 'state'),
  });
  await core.start();
  const health = core.health()[0];
  await core.dispose();
  if (health?.status !== 'up') throw new Error(`not up: ${JSON.stringify(health?.lastError)}`);
  return health.startMs ?? Number.NaN;
}

async function learnMs(learnCase: LearnCase, dir: string): Promise<number> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
  const result = await learnPermissions({
    launch: {
      id: 's',
      command: process.execPath,
      args: learnCase.args,
      cwd: undefined,
      env: { ...env, HOME: join(dir, 'home'), ...learnCase.env },
    },
    stateDir: join(dir, 'state'),
    extraPath: [],
    calls: learnCase.calls,
    windowMs: 0,
    timeoutMs: 120_000,
  });
  return result.durationMs;
}

if (support.available && process.platform === 'linux' && findCommand('strace', process.env['PATH'] ?? '')) {
  const dir = mkdtempSync(join(tmpdir(), 'bench-learn-'));
  const rows: string[][] = [];
  try {
    mkdirSync(join(dir, 'home', 'memory'), { recursive: true });
    for (const learnCase of learnCases(dir)) {
      const starts: number[] = [];
      const learns: number[] = [];
      for (let round = 0; round < LEARN_ROUNDS; round++) {
        starts.push(await sandboxedStartMs(learnCase, dir));
        learns.push(await learnMs(learnCase, dir));
      }
      const start = summarize(starts).p50;
      const learn = summarize(learns).p50;
      rows.push([learnCase.name, start.toFixed(0), learn.toFixed(0), (learn / start).toFixed(2)]);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  printTable(
    `learn mode: time to learn (start under strace, lists, calls) vs a sandboxed start to listed (${LEARN_ROUNDS} runs each, p50)`,
    ['server', 'sandboxed start (ms)', 'learn (ms)', 'ratio'],
    rows,
  );
} else {
  console.log('learn mode bench skipped: needs Linux, bubblewrap and strace');
}
