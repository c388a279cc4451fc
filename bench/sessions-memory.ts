// Memory of idle 2025-era sessions up to the bound (issue 38): SESSIONS clients initialize, list the
// tools once and stay (no DELETE, no stream), as editors left open do; the process holds them all
// until `proxy.maxSessions` (set to SESSIONS), and the next initialize is refused with 503
// (`session_limit`). The real core and HTTP endpoint run in this process (so the heap is measured
// after a full GC), the backend is our fault server over stdio, the clients are raw HTTP. Printed:
// heap used and RSS at 0, 100 and SESSIONS idle sessions, the memory per idle session (heap and
// RSS, the slope from 0 to SESSIONS), and the refusal at the bound with its time.
// Run: node --expose-gc --import tsx bench/sessions-memory.ts [SESSIONS=1000]
import { performance } from 'node:perf_hooks';
import { fixture, nodeServer, startProxy } from '../test/helpers/harness.js';
import { printTable } from './lib.js';

const SESSIONS = Number(process.argv[2] ?? 1000);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');

const proxy = await startProxy({
  proxy: { maxSessions: SESSIONS, maxSessionsPerClient: SESSIONS, sessionIdleMs: 3_600_000 },
  mcpServers: { f: nodeServer(fixture('fault-server.mjs'), ['stdio']) },
});

const post = (session: string | undefined, body: unknown): Promise<Response> =>
  fetch(proxy.url, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${proxy.token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
      ...(session ? { 'mcp-session-id': session } : {}),
    },
    body: JSON.stringify(body),
  });

const initialize = (i: number) => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: `editor-${i}`, version: '1' } },
});

/** One idle session: initialized, its tools listed once. */
async function open(i: number): Promise<void> {
  const init = await post(undefined, initialize(i));
  await init.text();
  const session = init.headers.get('mcp-session-id') ?? undefined;
  if (!session) throw new Error(`initialize ${i} answered ${init.status}`);
  await (await post(session, { jsonrpc: '2.0', method: 'notifications/initialized' })).text();
  await (await post(session, { jsonrpc: '2.0', id: 2, method: 'tools/list' })).text();
}

function memory(): { heapMb: number; rssMb: number } {
  gc!();
  gc!();
  const usage = process.memoryUsage();
  return { heapMb: usage.heapUsed / 1048576, rssMb: usage.rss / 1048576 };
}

const round1 = (value: number) => Math.round(value * 10) / 10;

try {
  // Warm-up (JIT, caches), then those sessions ended.
  for (let i = 0; i < 50; i++) await open(i);
  proxy.endpoint.sweepIdleSessions(Date.now() + 3_600_000);
  const start = memory();
  const rows: string[][] = [];
  const row = (sessions: number) => {
    const now = memory();
    rows.push([String(sessions), round1(now.heapMb).toFixed(1), round1(now.rssMb).toFixed(1)]);
    return now;
  };
  row(0);
  let opened = 0;
  for (const target of [100, SESSIONS]) {
    for (; opened < target; opened += 25)
      await Promise.all(Array.from({ length: Math.min(25, target - opened) }, (_, j) => open(opened + j)));
    opened = target;
    row(proxy.endpoint.sessionCount);
  }
  const full = memory();
  const t = performance.now();
  const refused = await post(undefined, initialize(SESSIONS));
  const refusalMs = performance.now() - t;
  const body = (await refused.json()) as { error?: { data?: { code?: string } } };
  printTable(
    `${SESSIONS} idle 2025-era sessions on one process (proxy.maxSessions ${SESSIONS})`,
    ['sessions', 'heap MB', 'RSS MB'],
    rows,
  );
  console.log(
    `per idle session: heap ${round1(((full.heapMb - start.heapMb) * 1024) / SESSIONS)} KB, ` +
      `RSS ${round1(((full.rssMb - start.rssMb) * 1024) / SESSIONS)} KB; ` +
      `session ${SESSIONS + 1}: HTTP ${refused.status} ${body.error?.data?.code} in ${round1(refusalMs)} ms`,
  );
} finally {
  await proxy.close();
}
