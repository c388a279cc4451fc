/**
 * What a sandbox costs a server: the time from spawn to its listed catalog,
 * and a tool call's round trip, for the same server (server-memory) run as it
 * is and under bubblewrap with the defaults, interleaved in one run so the
 * machine's load falls on both alike. Prints the ratio side by side.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { silentLogger } from '../electron/core/api/index.js';
import { parseConfig } from '../electron/core/platform/index.js';
import { SwitchboardCore } from '../electron/core/switchboard/index.js';
import { sandboxSupport } from '../electron/core/backends/index.js';
import { printTable, summarize, type LatencyStats } from './lib.js';

const ROOT = resolve(import.meta.dirname, '..');
const MEMORY = join(ROOT, 'node_modules/@modelcontextprotocol/server-memory/dist/index.js');
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
