/**
 * The backend transports' fetch: what the SDK reads of a response (status,
 * headers, url, text/json, an event stream read as it arrives), keep-alive,
 * abort, and redirects left to the caller.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeFetch } from '../../../../../electron/core/backends/transport/nodeFetch.js';

let server: Server;
let base: string;
const sockets = new Set<unknown>();
let releaseStream: (() => void) | undefined;

beforeAll(async () => {
  server = createServer((req, res) => {
    sockets.add(req.socket);
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      if (req.url === '/json') {
        res.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 's-1' });
        res.end(
          JSON.stringify({
            method: req.method,
            body,
            length: req.headers['content-length'],
            auth: req.headers.authorization,
          }),
        );
      } else if (req.url === '/sse') {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('data: first\n\n');
        releaseStream = () => res.end('data: second\n\n');
      } else if (req.url === '/redirect') {
        res.writeHead(307, { location: '/json' }).end();
      } else if (req.url === '/accepted') {
        res.writeHead(202).end();
      } else if (req.url === '/hang') {
        // Never answers.
      } else {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('nope');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('nodeFetch', () => {
  it('posts a body with its headers and returns status, headers, url and JSON', async () => {
    const response = await nodeFetch(`${base}/json`, {
      method: 'POST',
      headers: { Authorization: 'Bearer abc', 'content-type': 'application/json' },
      body: '{"x":1}',
    });
    expect(response.ok).toBe(true);
    expect(response.status).toBe(200);
    expect(response.url).toBe(`${base}/json`);
    expect(response.headers.get('mcp-session-id')).toBe('s-1');
    expect(await response.json()).toEqual({ method: 'POST', body: '{"x":1}', length: '7', auth: 'Bearer abc' });
  });

  it('reuses one connection for sequential requests (keep-alive)', async () => {
    sockets.clear();
    for (let i = 0; i < 5; i++) await (await nodeFetch(`${base}/json`)).text();
    expect(sockets.size).toBe(1);
  });

  it('hands an event stream over as it arrives, not when it ends', async () => {
    const response = await nodeFetch(`${base}/sse`, { headers: { accept: 'text/event-stream' } });
    const reader = response.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe('data: first\n\n');
    releaseStream!();
    let rest = '';
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      rest += new TextDecoder().decode(chunk.value);
    }
    expect(rest).toBe('data: second\n\n');
  });

  it('does not follow redirects, and gives empty bodies and errors as responses', async () => {
    const redirect = await nodeFetch(`${base}/redirect`, { redirect: 'manual' });
    expect(redirect.status).toBe(307);
    expect(redirect.headers.get('location')).toBe('/json');
    expect((await nodeFetch(`${base}/accepted`, { method: 'POST', body: '{}' })).status).toBe(202);
    const missing = await nodeFetch(`${base}/missing`);
    expect(missing.ok).toBe(false);
    expect(await missing.text()).toBe('nope');
  });

  it('rejects with the abort reason when aborted, and on a refused connection', async () => {
    const controller = new AbortController();
    const pending = nodeFetch(`${base}/hang`, { signal: controller.signal });
    controller.abort(new Error('stop now'));
    await expect(pending).rejects.toThrow();
    await expect(nodeFetch('http://127.0.0.1:1/')).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });
});
