/**
 * What speaking each stdio server's own era costs: the time from spawn to a
 * listed catalog with `protocol: "auto"` (the `server/discover` probe first)
 * against `legacy` (straight to `initialize`), for a 2025 server that answers
 * the probe with an error (server-everything) and a server of both eras
 * spoken to in 2026-07-28 (the asks fixture); and a tool call's round trip to
 * the same server in each era. Interleaved in one run, ratios side by side.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { silentLogger } from '../electron/core/api/index.js';
import { parseConfig } from '../electron/core/platform/index.js';
import { SwitchboardCore } from '../electron/core/switchboard/index.js';
import { printTable, summarize } from './lib.js';

const ROOT = resolve(import.meta.dirname, '..');
const EVERYTHING = join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const ASKS = join(ROOT, 'test/fixtures/servers/asks.mjs');
const ROUNDS = 7;
const CALLS = 200;

interface Measured {
  startMs: number;
  era: string | undefined;
  calls: number[];
}

async function measure(args: string[], protocol: 'auto' | 'legacy', tool: string | undefined): Promise<Measured> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-eras-'));
  const { config, problems } = parseConfig({ mcpServers: { s: { command: process.execPath, args, protocol } } });
  if (!config) throw new Error(JSON.stringify(problems));
  const core = new SwitchboardCore(config, {
    environment: process.env,
    logger: silentLogger,
    clientInfo: { name: 'bench', version: '0' },
    stateDir: dir,
  });
  try {
    await core.start();
    const health = core.health()[0];
    if (health?.status !== 'up') throw new Error(`not up: ${JSON.stringify(health?.lastError)}`);
    const calls: number[] = [];
    const connection = core.pool.liveConnection('s');
    for (let i = 0; tool && connection && i < CALLS; i++) {
      const at = performance.now();
      await connection.callTool({ name: tool, arguments: {} }, {} as never);
      calls.push(performance.now() - at);
    }
    return { startMs: health.startMs ?? Number.NaN, era: health.era, calls };
  } finally {
    await core.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
}

const servers = [
  { name: 'server-everything (2025)', args: [EVERYTHING, 'stdio'], tool: undefined },
  { name: 'asks fixture (both eras)', args: [ASKS], tool: 'status' },
];
const rows: string[][] = [];
for (const server of servers) {
  const starts = { legacy: [] as number[], auto: [] as number[] };
  const calls = { legacy: [] as number[], auto: [] as number[] };
  const eras = new Set<string>();
  for (let round = 0; round < ROUNDS; round++)
    for (const protocol of round % 2 === 0 ? (['legacy', 'auto'] as const) : (['auto', 'legacy'] as const)) {
      const result = await measure(server.args, protocol, server.tool);
      starts[protocol].push(result.startMs);
      calls[protocol].push(...result.calls);
      if (protocol === 'auto') eras.add(result.era ?? '?');
    }
  const s = { legacy: summarize(starts.legacy), auto: summarize(starts.auto) };
  rows.push([
    `${server.name}: start to listed (ms), auto spoke ${[...eras].join('/')}`,
    s.legacy.p50.toFixed(0),
    s.auto.p50.toFixed(0),
    (s.auto.p50 / s.legacy.p50).toFixed(2),
  ]);
  if (server.tool) {
    const c = { legacy: summarize(calls.legacy), auto: summarize(calls.auto) };
    rows.push([
      `${server.name}: tool call (ms)`,
      c.legacy.p50.toFixed(3),
      c.auto.p50.toFixed(3),
      (c.auto.p50 / c.legacy.p50).toFixed(2),
    ]);
  }
}
printTable(
  `era probe: protocol legacy vs auto (${ROUNDS} starts each, ${CALLS} calls)`,
  ['measure', 'legacy p50', 'auto p50', 'ratio'],
  rows,
);
