/**
 * A client that stops reading while a backend floods it, through the built
 * `serve` (issue 25, containment): a 2025-era session opens its GET stream
 * and calls a tool that floods 400 MB of log messages (20,000 of 20 KB) and 20,000 progress
 * notifications, and reads neither stream. serve's memory stays far below the
 * flood's size, the stuck session is ended with a log line saying so, and
 * meanwhile another client's calls (a flood of its own included) all get
 * their answers.
 */
import { request, type ClientRequest, type IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstText, fixture, nodeServer } from '../../helpers/harness.js';
import { waitUntil } from '../../helpers/processes.js';
import { MODERN_REVISION, requestHeaders, sseMessages } from '../../helpers/tasks2026Wire.js';
import { startServeHttp, type ServedHttp } from '../../helpers/serveHttp.js';

const COUNT = 20_000;
const LOG_BYTES = 20_000;
const STALL_MS = 3000;

describe('a client that stops reading', () => {
  let serve: ServedHttp;
  const unread: ClientRequest[] = [];

  beforeAll(async () => {
    serve = await startServeHttp({
      // 200 logs of 20 KB a second (after a burst of 200) fill the stalled client's socket at once: the default
      // byte rate (256 KB/s) would take minutes to, so it is raised here.
      proxy: { clientStallMs: STALL_MS, maxLogBytesPerSecond: 64 * 1024 * 1024 },
      mcpServers: { noisy: nodeServer(fixture('flood.mjs')), quiet: nodeServer(fixture('slow.mjs')) },
    });
  }, 60_000);
  afterAll(async () => {
    for (const req of unread) req.destroy();
    await serve?.stop();
  });

  const headers = (session?: string): Record<string, string> => ({
    authorization: `Bearer ${serve.token}`,
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2025-11-25',
    ...(session ? { 'mcp-session-id': session } : {}),
  });
  const post = (body: unknown, session?: string): Promise<Response> =>
    fetch(serve.url, { method: 'POST', headers: headers(session), body: JSON.stringify(body) });

  /** Sends a request whose response is never read: its socket fills and serve's writes back up. */
  function sendUnread(method: string, session: string, body?: unknown): void {
    const req = request(serve.url, { method, headers: headers(session) });
    req.on('response', (res) => res.pause());
    req.on('error', () => undefined);
    req.end(body === undefined ? undefined : JSON.stringify(body));
    unread.push(req);
  }

  it('bounds serve’s memory, ends the stuck session and keeps answering the others', async () => {
    const other = await serve.connect();
    while ((await other.listTools()).tools.length < 7) await new Promise((resolve) => setTimeout(resolve, 100));
    const rssBefore = await serve.rssMb();
    const peakWhile = async (work: Promise<unknown>): Promise<number> => {
      let peak = 0;
      let done = false;
      void work.finally(() => (done = true));
      while (!done) {
        peak = Math.max(peak, await serve.rssMb());
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      await work;
      return peak;
    };
    // The same flood to a client that reads: what the flood costs serve anyway (reading, parsing).
    const readPeak = await peakWhile(
      other.callTool(
        { name: 'noisy__flood', arguments: { count: COUNT, bytes: LOG_BYTES } },
        { timeout: 60_000, onprogress: () => undefined },
      ),
    );

    const params = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'stalled', version: '1' } };
    const init = await post({ jsonrpc: '2.0', id: 1, method: 'initialize', params });
    await init.text();
    const session = init.headers.get('mcp-session-id')!;
    await (await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, session)).text();
    sendUnread('GET', session);
    const flood = { name: 'noisy__flood', arguments: { count: COUNT, bytes: LOG_BYTES }, _meta: { progressToken: 1 } };
    sendUnread('POST', session, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: flood });

    // Meanwhile another client calls both servers and gets every answer.
    let rssPeak = 0;
    let calls = 0;
    const ownFlood = other.callTool(
      { name: 'noisy__flood', arguments: { count: 2000 } },
      { timeout: 60_000, onprogress: () => undefined },
    );
    await waitUntil(
      async () => {
        rssPeak = Math.max(rssPeak, await serve.rssMb());
        expect(firstText(await other.callTool({ name: 'quiet__echo', arguments: { text: `c${calls}` } }))).toBe(
          `c${calls}`,
        );
        calls++;
        return /ended session \S+ of client \S+: it stopped reading its streams for 3000 ms/.test(serve.stderr());
      },
      { timeoutMs: 40_000, intervalMs: 100, description: 'serve ends the stalled session' },
    );
    expect(firstText(await ownFlood)).toBe('flooded 2000');
    expect(calls).toBeGreaterThan(5);

    // The stalled session is gone (404), and what it held is freed.
    const after = await post({ jsonrpc: '2.0', id: 3, method: 'ping' }, session);
    expect(after.status).toBe(404);
    await after.text();
    rssPeak = Math.max(rssPeak, await serve.rssMb());
    // The flood is 400 MB of log text: the stalled client cost serve little more than a reading one,
    // and a fraction of the flood (before the bounds, serve held what the client did not read).
    // The margin over a reading client: 40 MB was missed by 4-14 MB in 5 of 9 runs on this 2-core machine,
    // builds of the same serve code passing and failing alike (GC timing). Where the peak comes from, measured
    // (three runs, load 2.5-5): the flood to the client that READS costs serve 85, 106 and 134 MB over its start,
    // the garbage of 400 MB in transit that V8 collects later under load; the stalled client adds 26, 38 and
    // 16 MB over that. So the absolute bound tracks the reading flood's garbage (150 was missed at 151.9 on a
    // loaded CI run), and the margin over the reading client is what says the stalled one is bounded.
    expect(rssPeak - rssBefore).toBeLessThan(Math.max(readPeak - rssBefore, 0) + 60);
    expect(rssPeak - rssBefore).toBeLessThan(170);
    expect(firstText(await other.callTool({ name: 'quiet__echo', arguments: { text: 'still' } }))).toBe('still');
    // However many notifications waited for the stalled streams, one drain/close listener pair per response:
    // before, each one offered added a pair, and Node warned past ten.
    expect(serve.stderr()).not.toContain('MaxListenersExceededWarning');
  }, 90_000);

  it('holds a 2026-07-28 call’s progress while its stream is unread, and delivers its answer once read', async () => {
    const other = await serve.connect();
    while ((await other.listTools()).tools.length < 7) await new Promise((resolve) => setTimeout(resolve, 100));
    const rssBefore = await serve.rssMb();
    const params = {
      name: 'noisy__flood',
      arguments: { count: COUNT, bytes: LOG_BYTES },
      _meta: {
        progressToken: 5,
        'io.modelcontextprotocol/protocolVersion': MODERN_REVISION,
        'io.modelcontextprotocol/clientInfo': { name: 'stalled-2026', version: '1' },
        'io.modelcontextprotocol/clientCapabilities': {},
      },
    };
    const req = request(serve.url, {
      method: 'POST',
      headers: { ...requestHeaders('tools/call', params), authorization: `Bearer ${serve.token}` },
    });
    unread.push(req);
    const response = new Promise<IncomingMessage>((resolve, reject) => {
      req.on('response', (res) => {
        res.pause();
        resolve(res);
      });
      req.on('error', reject);
    });
    req.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params }));
    const res = await response;
    // Unread for a while, the flood under way; serve stays bounded and the other client answered.
    let peak = 0;
    const until = Date.now() + 6000;
    while (Date.now() < until) {
      peak = Math.max(peak, await serve.rssMb());
      expect(firstText(await other.callTool({ name: 'quiet__echo', arguments: { text: 'x' } }))).toBe('x');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(peak - rssBefore).toBeLessThan(150);
    // Read at last: its progress came in order, and its answer is there.
    let progress = 0;
    let answer: Record<string, unknown> | undefined;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        res.on('data', (chunk: Buffer) => controller.enqueue(new Uint8Array(chunk)));
        res.on('end', () => controller.close());
        res.resume();
      },
    });
    for await (const message of sseMessages(body)) {
      if (message.method === 'notifications/progress') progress++;
      if (message.id === 1) {
        answer = message;
        break;
      }
    }
    expect(JSON.stringify(answer?.result)).toContain(`flooded ${COUNT}`);
    expect(progress).toBeLessThan(COUNT / 4);
  }, 90_000);
});
