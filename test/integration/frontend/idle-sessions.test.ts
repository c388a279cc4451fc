/**
 * Abandoned 2025-era sessions are freed, through the real core and endpoint:
 * a session with no request and no open stream for `sessionIdleMs` is ended
 * (its client gets 404 and initializes again), one with an open stream is
 * kept, each client profile keeps at most `maxSessionsPerClient` (the least
 * recently used goes first), the process keeps at most `maxSessions` (one
 * more initialize is refused with 503, saying why), and /readyz counts them.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstText, fixture, nodeServer, startProxy, type Harness } from '../../helpers/harness.js';
import { waitUntil } from '../../helpers/processes.js';

const IDLE_MS = 600;

/** A fresh raw HTTP client that initializes, makes one call and goes away without DELETE (no GET stream). */
async function abandonSession(proxy: Harness): Promise<string> {
  const post = (session: string | undefined, body: unknown) => rawPost(proxy, session, body);
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

function rawPost(proxy: Harness, session: string | undefined, body: unknown): Promise<Response> {
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

const liveSessions = async (proxy: Harness): Promise<number> =>
  ((await (await fetch(proxy.url.replace(/\/mcp$/, '/readyz'))).json()) as { sessions: number }).sessions;

describe('idle and capped 2025-era sessions', () => {
  let proxy: Harness;

  beforeAll(async () => {
    proxy = await startProxy({
      proxy: { sessionIdleMs: IDLE_MS, maxSessionsPerClient: 3 },
      mcpServers: { f: nodeServer(fixture('fault-server.mjs'), ['stdio']) },
    });
  });
  afterAll(() => proxy?.close());

  const live = () => liveSessions(proxy);
  const post = (session: string | undefined, body: unknown) => rawPost(proxy, session, body);
  const abandonedSession = () => abandonSession(proxy);

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

describe('the bound on every 2025-era session of the process', () => {
  it('holds 1,000 idle sessions by default (proxy.maxSessions), and refuses the 1,001st with session_limit', async () => {
    // One profile's sessions: its own bound (maxSessionsPerClient, 256 by default) raised to the process's.
    const proxy = await startProxy({
      proxy: { maxSessionsPerClient: 1_000 },
      mcpServers: { f: nodeServer(fixture('fault-server.mjs'), ['stdio']) },
    });
    const initialize = (name: string) => ({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name, version: '1' } },
    });
    try {
      for (let batch = 0; batch < 20; batch++) {
        const answers = await Promise.all(
          Array.from({ length: 50 }, (_, i) => rawPost(proxy, undefined, initialize(`idle-${batch * 50 + i}`))),
        );
        for (const answer of answers) {
          expect(answer.status).toBe(200);
          await answer.text();
        }
      }
      expect(await liveSessions(proxy)).toBe(1_000);
      const refused = await rawPost(proxy, undefined, initialize('one-too-many'));
      expect(refused.status).toBe(503);
      const body = (await refused.json()) as { error: { message: string; data: Record<string, unknown> } };
      expect(body.error.message).toContain('maximum of 1000 live 2025-era sessions (proxy.maxSessions)');
      expect(body.error.data).toEqual({ code: 'session_limit', retryable: true, maxSessions: 1_000 });
      expect(await liveSessions(proxy)).toBe(1_000);
    } finally {
      await proxy.close();
    }
  }, 60_000);

  it('refuses one more initialize at maxSessions with 503 and session_limit; a session ended makes room', async () => {
    const proxy = await startProxy({
      proxy: { maxSessions: 2 },
      mcpServers: { f: nodeServer(fixture('fault-server.mjs'), ['stdio']) },
    });
    try {
      const first = await abandonSession(proxy);
      await abandonSession(proxy);
      const initialize = {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'third', version: '1' } },
      };
      const refused = await rawPost(proxy, undefined, initialize);
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('5');
      const body = (await refused.json()) as { error: { message: string; data: Record<string, unknown> } };
      expect(body.error.message).toContain('maximum of 2 live 2025-era sessions (proxy.maxSessions)');
      expect(body.error.data).toEqual({ code: 'session_limit', retryable: true, maxSessions: 2 });
      expect(await liveSessions(proxy)).toBe(2);
      // The client that ends its session (DELETE) makes room for the next.
      const ended = await fetch(proxy.url, {
        method: 'DELETE',
        headers: {
          authorization: `Bearer ${proxy.token}`,
          'mcp-session-id': first,
          'mcp-protocol-version': '2025-11-25',
        },
      });
      expect(ended.status).toBe(200);
      await abandonSession(proxy);
      expect(await liveSessions(proxy)).toBe(2);
    } finally {
      await proxy.close();
    }
  });
});

describe('memory after a churn of abandoned sessions', () => {
  it('gives the heap back once sessionIdleMs has ended them', async () => {
    // A full GC on demand, so heap figures count only what is still referenced.
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const heap = (): number => {
      gc();
      gc();
      return process.memoryUsage().heapUsed;
    };
    // Idle time far longer than the churn, so every session is alive at its end; the sweep is then
    // run as if that time had passed (the timer itself is the first test's business).
    const proxy = await startProxy({
      proxy: { sessionIdleMs: 600_000, maxSessionsPerClient: 1000 },
      mcpServers: { f: nodeServer(fixture('fault-server.mjs'), ['stdio']) },
    });
    try {
      for (let i = 0; i < 60; i++) await abandonSession(proxy); // warm-up (JIT, caches)
      proxy.endpoint.sweepIdleSessions(Date.now() + 600_000);
      await waitUntil(async () => (await liveSessions(proxy)) === 0);
      const before = heap();
      for (let i = 0; i < 200; i += 20) await Promise.all(Array.from({ length: 20 }, () => abandonSession(proxy)));
      const live = await liveSessions(proxy);
      const peak = heap();
      proxy.endpoint.sweepIdleSessions(Date.now() + 600_000);
      await waitUntil(async () => (await liveSessions(proxy)) === 0);
      const after = heap();
      const mb = (bytes: number) => Math.round(bytes / 10_485.76) / 100;
      console.log(`heap MB: before ${mb(before)}, ${live} live sessions ${mb(peak)}, after the idle end ${mb(after)}`);
      expect(live).toBe(200);
      // The sessions held memory, and ending them gave most of it back (kept sessions would keep it all).
      expect(peak - before).toBeGreaterThan(1024 * 1024);
      expect(after - before).toBeLessThan((peak - before) / 2);
    } finally {
      await proxy.close();
    }
  }, 90_000);
});
