/**
 * The local endpoint: both protocol eras on one URL, remote backends of every
 * transport (Streamable HTTP 2025 and 2026, legacy SSE), bearer tokens and
 * DNS-rebinding checks, liveness and readiness.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVERYTHING, firstText, fixture, nodeServer, startProxy, type Harness } from '../../helpers/harness.js';
import { freePort, spawnServer, type SpawnedServer } from '../../helpers/spawnServer.js';

describe('frontend endpoint', () => {
  let proxy: Harness;
  const servers: SpawnedServer[] = [];

  beforeAll(async () => {
    const everythingPort = await freePort();
    const [streamable, modern] = await Promise.all([
      spawnServer([EVERYTHING, 'streamableHttp'], /listening on port/, { PORT: String(everythingPort) }),
      spawnServer([fixture('http-server.mjs')], /LISTENING (\S+)/, { PORT: '0' }),
    ]);
    servers.push(streamable, modern);
    proxy = await startProxy({
      mcpServers: {
        remote: { type: 'http', url: `http://127.0.0.1:${everythingPort}/mcp` },
        modern: { url: modern.match[1] },
        local: nodeServer(fixture('configurable.mjs')),
      },
    });
  });
  afterAll(async () => {
    await proxy?.close();
    await Promise.all(servers.map((server) => server.stop()));
  });

  it('connects to Streamable HTTP backends of both eras', () => {
    const health = Object.fromEntries(proxy.core.health().map((backend) => [backend.id, backend]));
    expect(health['remote']).toMatchObject({ status: 'up', transport: 'http', era: 'legacy' });
    expect(health['modern']).toMatchObject({
      status: 'up',
      transport: 'http',
      era: 'modern',
      protocolVersion: '2026-07-28',
    });
  });

  it('serves a 2025-era client (v1 SDK) with sessions', async () => {
    const client = await proxy.connectV1();
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(['remote__echo', 'modern__echo', 'local__echo']),
    );
    const remote = await client.callTool({ name: 'remote__echo', arguments: { message: 'v1' } });
    expect(firstText(remote as { content?: unknown })).toContain('v1');
    const modern = await client.callTool({ name: 'modern__echo', arguments: { text: 'v1' } });
    expect(firstText(modern as { content?: unknown })).toBe('v1');
    expect(proxy.endpoint.sessionCount).toBeGreaterThan(0);
  });

  it('serves a 2026-07-28 client statelessly on the same URL', async () => {
    const client = await proxy.connect('modern');
    expect(client.getProtocolEra()).toBe('modern');
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('remote__get-sum');
    const sum = await client.callTool({ name: 'remote__get-sum', arguments: { a: 1, b: 2 } });
    expect(firstText(sum)).toContain('3');
    expect(firstText(await client.callTool({ name: 'modern__add', arguments: { a: 2, b: 3 } }))).toContain('5');
    await expect(client.callTool({ name: 'nothing__here', arguments: {} })).rejects.toMatchObject({ code: -32602 });
  });

  it('refuses requests without the bearer token, or with a wrong one', async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
    const headers = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
    const none = await fetch(proxy.url, { method: 'POST', headers, body });
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer/);
    const wrong = await fetch(proxy.url, {
      method: 'POST',
      headers: { ...headers, Authorization: 'Bearer nope' },
      body,
    });
    expect(wrong.status).toBe(401);
    await expect(proxy.connect('legacy', 'wrong-token')).rejects.toThrow();
    await expect(proxy.connect('modern', 'wrong-token')).rejects.toThrow();
  });

  it('answers 403 to a non-loopback Origin or Host (DNS rebinding), even with the token', async () => {
    const auth = {
      Authorization: `Bearer ${proxy.token}`,
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
    };
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
    });
    const evilOrigin = await fetch(proxy.url, {
      method: 'POST',
      headers: { ...auth, Origin: 'http://evil.example' },
      body,
    });
    expect(evilOrigin.status).toBe(403);
    const evilHost = await rawRequest(proxy.url, { ...auth, Host: 'evil.example:80' }, body);
    expect(evilHost).toBe(403);
    const fine = await fetch(proxy.url, {
      method: 'POST',
      headers: { ...auth, Origin: 'http://localhost:3000' },
      body,
    });
    expect(fine.status).toBe(200);
  });

  it('serves /healthz and /readyz without a token', async () => {
    const base = proxy.url.replace(/\/mcp$/, '');
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ ready: true, counts: { up: 3, down: 0 } });
  });
});

describe('legacy SSE backend', () => {
  it('connects over HTTP+SSE and routes calls', async () => {
    const port = await freePort();
    const sse = await spawnServer([EVERYTHING, 'sse'], /running on port/, { PORT: String(port) });
    const proxy = await startProxy({ mcpServers: { oldsse: { type: 'sse', url: `http://127.0.0.1:${port}/sse` } } });
    try {
      expect(proxy.core.health()[0]).toMatchObject({ status: 'up', transport: 'sse', era: 'legacy' });
      const client = await proxy.connect();
      const result = await client.callTool({ name: 'oldsse__echo', arguments: { message: 'over sse' } });
      expect(firstText(result)).toContain('over sse');
      const read = await client.readResource({ uri: 'mcp-proxy://oldsse/demo://resource/dynamic/text/1' });
      expect(read.contents[0]?.uri).toBe('mcp-proxy://oldsse/demo://resource/dynamic/text/1');
    } finally {
      await proxy.close();
      await sse.stop();
    }
  });
});

describe('readiness', () => {
  it('is 503 until every backend has finished its first attempt, and 503 when none is up', async () => {
    const proxy = await startProxy(
      {
        mcpServers: {
          broken: nodeServer(fixture('faulty.mjs'), ['exit-at-start']),
          slow: nodeServer(fixture('slow.mjs')),
        },
      },
      { wait: false },
    );
    try {
      const readyz = proxy.url.replace(/\/mcp$/, '/readyz');
      const early = await fetch(readyz);
      expect(early.status).toBe(503);
      expect(await early.json()).toMatchObject({ ready: false, counts: { connecting: 2 } });
      await proxy.core.start().catch(() => undefined);
    } finally {
      await proxy.close();
    }
    const none = await startProxy({ mcpServers: { broken: nodeServer(fixture('faulty.mjs'), ['exit-at-start']) } });
    try {
      const response = await fetch(none.url.replace(/\/mcp$/, '/readyz'));
      expect(response.status).toBe(503);
      expect(await response.json()).toMatchObject({ ready: false, counts: { down: 1 } });
    } finally {
      await none.close();
    }
    const empty = await startProxy({ mcpServers: {} });
    try {
      expect((await fetch(empty.url.replace(/\/mcp$/, '/readyz'))).status).toBe(200);
    } finally {
      await empty.close();
    }
  });
});

/** fetch() will not send a forged Host header; node:http will. */
async function rawRequest(url: string, headers: Record<string, string>, body: string): Promise<number> {
  const { request } = await import('node:http');
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end(body);
  });
}
