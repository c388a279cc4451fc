/**
 * The HTTP edges of our endpoint, through the real core and endpoint: slow
 * clients are cut while long streams are not, JSON-RPC batches are refused in
 * sessions of revisions that dropped them (2025-06-18 on) and answered in
 * 2025-03-26 ones, and methods a path does not serve answer 405 with Allow.
 */
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstText, fixture, nodeServer, startProxy, type Harness } from '../../helpers/harness.js';

const HEADERS_MS = 500;
const BODY_MS = 1000;

describe('HTTP edges', () => {
  let proxy: Harness;
  let port: number;

  beforeAll(async () => {
    proxy = await startProxy({
      proxy: { headersTimeoutMs: HEADERS_MS, bodyTimeoutMs: BODY_MS },
      mcpServers: { f: nodeServer(fixture('fault-server.mjs'), ['stdio']), s: nodeServer(fixture('slow.mjs')) },
    });
    port = Number(new URL(proxy.url).port);
  });
  afterAll(() => proxy?.close());

  /** A socket that sends `head` and then one more byte every 200 ms, never finishing; resolves when the server closes it. */
  function slowClient(head: string): { closed: Promise<{ afterMs: number; answer: string }>; socket: Socket } {
    const socket = connect(port, '127.0.0.1');
    const started = Date.now();
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString()));
    socket.on('error', () => undefined);
    socket.write(head);
    const drip = setInterval(() => socket.write('x'), 200);
    const closed = new Promise<{ afterMs: number; answer: string }>((resolve) =>
      socket.once('close', () => {
        clearInterval(drip);
        resolve({ afterMs: Date.now() - started, answer });
      }),
    );
    return { closed, socket };
  }

  const auth = () => `Authorization: Bearer ${proxy.token}\r\n`;

  it('cuts 50 slow request bodies and slow headers at their timeouts', async () => {
    const bodies = Array.from({ length: 50 }, () =>
      slowClient(
        `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${auth()}Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n{`,
      ),
    );
    const headers = Array.from({ length: 5 }, () =>
      slowClient(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX-Slow: `),
    );
    const cut = await Promise.all([...bodies, ...headers].map((client) => client.closed));
    for (const { afterMs, answer } of cut) {
      expect(answer).toMatch(/^HTTP\/1\.1 408/);
      // Checked every quarter timeout: cut by the body timeout plus a check interval, with slack for a busy machine.
      expect(afterMs).toBeLessThan(BODY_MS + 1500);
    }
    // The endpoint still answers.
    const client = await proxy.connect('legacy');
    expect(firstText(await client.callTool({ name: 'f__echo', arguments: { text: 'fine' } }))).toBe('fine');
  });

  it('keeps an idle keep-alive connection past the header timeout for its next request', async () => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString()));
    const get = `GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`;
    socket.write(get);
    await new Promise((resolve) => setTimeout(resolve, BODY_MS * 2));
    socket.write(get);
    await new Promise((resolve) => setTimeout(resolve, 300));
    socket.destroy();
    expect(answer.match(/HTTP\/1\.1 200/g)).toHaveLength(2);
    expect(answer).not.toContain('408');
  });

  it('does not cut an answer that takes longer than the request timeouts', async () => {
    const client = await proxy.connect('legacy');
    await expect(client.callTool({ name: 's__sleep', arguments: { ms: BODY_MS * 2 } })).resolves.toBeDefined();
  });

  it('keeps a 2025-era GET stream open past the request timeouts', async () => {
    const init = await post(undefined, initialize('2025-11-25'));
    const session = init.headers.get('mcp-session-id')!;
    const stream = await fetch(proxy.url, {
      headers: {
        authorization: `Bearer ${proxy.token}`,
        accept: 'text/event-stream',
        'mcp-session-id': session,
        'mcp-protocol-version': '2025-11-25',
      },
    });
    expect(stream.status).toBe(200);
    const reader = stream.body!.getReader();
    const outcome = await Promise.race([
      reader.read().then(() => 'data or end'),
      new Promise((resolve) => setTimeout(() => resolve('still open'), BODY_MS * 2.5)),
    ]);
    expect(outcome).toBe('still open');
    await reader.cancel();
  });

  function initialize(protocolVersion: string) {
    return {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    };
  }

  async function post(session: string | undefined, body: unknown, protocolVersion?: string): Promise<Response> {
    return fetch(proxy.url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${proxy.token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...(session ? { 'mcp-session-id': session } : {}),
        ...(protocolVersion ? { 'mcp-protocol-version': protocolVersion } : {}),
      },
      body: JSON.stringify(body),
    });
  }

  async function sessionOf(protocolVersion: string): Promise<string> {
    const init = await post(undefined, initialize(protocolVersion));
    expect(init.status).toBe(200);
    expect(await init.text()).toContain(`"protocolVersion":"${protocolVersion}"`);
    const session = init.headers.get('mcp-session-id')!;
    expect((await post(session, { jsonrpc: '2.0', method: 'notifications/initialized' }, protocolVersion)).status).toBe(
      202,
    );
    return session;
  }

  const batch = [
    { jsonrpc: '2.0', id: 2, method: 'tools/list' },
    { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'f__echo', arguments: { text: 'in a batch' } } },
  ];

  for (const version of ['2025-11-25', '2025-06-18']) {
    it(`refuses a JSON-RPC batch in a ${version} session, which keeps working`, async () => {
      const session = await sessionOf(version);
      const refused = await post(session, batch, version);
      expect(refused.status).toBe(400);
      expect(await refused.json()).toMatchObject({
        error: {
          code: -32600,
          message: expect.stringContaining(`JSON-RPC batches are not part of protocol version ${version}`),
        },
      });
      const single = await post(session, batch[1], version);
      expect(await single.text()).toContain('in a batch');
    });
  }

  it('answers a JSON-RPC batch in a 2025-03-26 session', async () => {
    const session = await sessionOf('2025-03-26');
    const answered = await post(session, batch, '2025-03-26');
    expect(answered.status).toBe(200);
    const text = await answered.text();
    expect(text).toContain('"id":2');
    expect(text).toContain('f__echo');
    expect(text).toContain('in a batch');
  });

  it('answers 405 with Allow for methods a path does not serve, token or not', async () => {
    for (const [method, path, allow] of [
      ['PUT', '/mcp', 'GET, POST, DELETE'],
      ['OPTIONS', '/mcp', 'GET, POST, DELETE'],
      ['PATCH', '/mcp', 'GET, POST, DELETE'],
      ['POST', '/healthz', 'GET, HEAD'],
      ['DELETE', '/readyz', 'GET, HEAD'],
    ] as const) {
      const res = await fetch(new URL(path, proxy.url), { method });
      expect({ method, path, status: res.status, allow: res.headers.get('allow') }).toEqual({
        method,
        path,
        status: 405,
        allow,
      });
    }
  });

  it('serves SDK clients of both eras as before', async () => {
    for (const era of ['legacy', 'modern'] as const) {
      const client = await proxy.connect(era);
      expect(firstText(await client.callTool({ name: 'f__echo', arguments: { text: era } }))).toBe(era);
    }
  });
});
