/**
 * Abandoned 2025-era sessions are freed, through the real core and endpoint:
 * a session with no request and no open stream for `sessionIdleMs` is ended
 * (its client gets 404 and initializes again), one with an open stream is
 * kept, each client profile keeps at most `maxSessionsPerClient` (the least
 * recently used goes first), and /readyz counts them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstText, fixture, nodeServer, startProxy, type Harness } from '../helpers/harness.js';
import { waitUntil } from '../helpers/processes.js';

const IDLE_MS = 600;

describe('idle and capped 2025-era sessions', () => {
  let proxy: Harness;

  beforeAll(async () => {
    proxy = await startProxy({
      proxy: { sessionIdleMs: IDLE_MS, maxSessionsPerClient: 3 },
      mcpServers: { f: nodeServer(fixture('fault-server.mjs'), ['stdio']) },
    });
  });
  afterAll(() => proxy?.close());

  const live = async (): Promise<number> =>
    ((await (await fetch(proxy.url.replace(/\/mcp$/, '/readyz'))).json()) as { sessions: number }).sessions;

  async function post(session: string | undefined, body: unknown): Promise<Response> {
    return fetch(proxy.url, {
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
  }

  /** A client that initializes, makes one call and goes away without DELETE (no GET stream). */
  async function abandonedSession(): Promise<string> {
    const init = await post(undefined, {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'gone', version: '1' } },
    });
    await init.text();
    const session = init.headers.get('mcp-session-id')!;
    await (await post(session, { jsonrpc: '2.0', method: 'notifications/initialized' })).text();
    const call = await post(session, {
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'f__echo', arguments: { text: 'x' } },
    });
    expect(await call.text()).toContain('"text":"x"');
    return session;
  }

  const ping = (session: string) => post(session, { jsonrpc: '2.0', id: 9, method: 'ping' });

  it('ends a session idle for sessionIdleMs: 404, and the client initializes again', async () => {
    const session = await abandonedSession();
    expect(await live()).toBeGreaterThanOrEqual(1);
    await waitUntil(async () => (await live()) === 0, {
      timeoutMs: IDLE_MS * 5,
      description: 'the idle session to end',
    });
    const gone = await ping(session);
    expect(gone.status).toBe(404);
    // A fresh initialize works.
    const again = await abandonedSession();
    expect((await ping(again)).status).toBe(200);
  });

  it('keeps sessions with an open stream (SDK clients of both kinds) past sessionIdleMs', async () => {
    const v2 = await proxy.connect('legacy');
    const v1 = await proxy.connectV1();
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS * 3));
    expect(firstText(await v2.callTool({ name: 'f__echo', arguments: { text: 'v2' } }))).toBe('v2');
    expect(await v1.callTool({ name: 'f__echo', arguments: { text: 'v1' } })).toMatchObject({
      content: [{ text: 'v1' }],
    });
    await v2.close();
    await v1.close();
  });

  it('ends the least recently used session beyond maxSessionsPerClient', async () => {
    await waitUntil(async () => (await live()) === 0, { timeoutMs: IDLE_MS * 5 });
    const first = await abandonedSession();
    const second = await abandonedSession();
    const third = await abandonedSession();
    // Using the first makes the second the least recently used.
    expect((await ping(first)).status).toBe(200);
    const fourth = await abandonedSession();
    expect(await live()).toBe(3);
    expect((await ping(second)).status).toBe(404);
    for (const session of [first, third, fourth]) expect((await ping(session)).status).toBe(200);
  });
});
