// Memory after churns of abandoned 2025-era sessions (issue 18, item 11): N clients initialize,
// make one call and go away without DELETE, as killed or restarted editors do; then
// sessionIdleMs ends them. The real core and HTTP endpoint run in this process (so the heap can
// be measured after a full GC), the backend is our fault server over stdio, the clients are raw
// HTTP. Printed: heap used after GC and RSS, before, at the peak and after the idle end, for two
// churns in a row (RSS keeps the allocator's pages, so the second churn shows whether memory
// is reused rather than grown). Run: node --expose-gc --import tsx bench/session-churn.ts [N=1500]
import { fixture, nodeServer, startProxy } from '../test/helpers/harness.js';

const SESSIONS = Number(process.argv[2] ?? 1500);
const IDLE_MS = 8000;
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');

const proxy = await startProxy({
  proxy: { sessionIdleMs: IDLE_MS, maxSessionsPerClient: SESSIONS * 2 },
  mcpServers: { f: nodeServer(fixture('fault-server.mjs'), ['stdio']) },
});

const post = async (session: string | undefined, body: unknown): Promise<Response> =>
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

async function abandon(i: number): Promise<void> {
  const params = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: `editor-${i}`, version: '1' } };
  const init = await post(undefined, { jsonrpc: '2.0', id: 1, method: 'initialize', params });
  await init.text();
  const session = init.headers.get('mcp-session-id') ?? undefined;
  await (await post(session, { jsonrpc: '2.0', method: 'notifications/initialized' })).text();
  const call = { name: 'f__echo', arguments: { text: 'x' } };
  await (await post(session, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: call })).text();
}

function memory(): { heapMb: number; rssMb: number } {
  gc!();
  gc!();
  const usage = process.memoryUsage();
  return { heapMb: Math.round(usage.heapUsed / 1048576), rssMb: Math.round(usage.rss / 1048576) };
}

async function idleEnd(): Promise<void> {
  while (proxy.endpoint.sessionCount > 0) await new Promise((resolve) => setTimeout(resolve, 250));
}

try {
  for (let i = 0; i < 50; i++) await abandon(i); // warm-up
  await idleEnd();
  const rows: Record<string, unknown>[] = [{ stage: 'start', sessions: 0, ...memory() }];
  for (const round of [1, 2]) {
    const started = Date.now();
    for (let i = 0; i < SESSIONS; i += 25) await Promise.all(Array.from({ length: 25 }, (_, j) => abandon(i + j)));
    const churnMs = Date.now() - started;
    rows.push({ stage: `churn ${round} (${churnMs} ms)`, sessions: proxy.endpoint.sessionCount, ...memory() });
    await idleEnd();
    rows.push({ stage: `idle end ${round}`, sessions: proxy.endpoint.sessionCount, ...memory() });
  }
  console.table(rows);
} finally {
  await proxy.close();
}
