/**
 * A web-standard MCP handler on node:http (the 2026-07-28 handler, a 2025-era
 * session's transport): the handler gets the parsed body, the caller's
 * authInfo and a body-less request with the client's headers; a JSON answer
 * arrives whole with its Content-Length, and so does a POST's event stream
 * that ends at once (priming event and answer in one write); a stream that
 * lives sends its priming event within the hold bound and then each event as
 * it is sent; a GET stream shows its headers at once; a throwing handler
 * answers 500 with the request's id; a client that goes away aborts the
 * request's signal.
 */
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FetchLikeMcpHandler } from '@modelcontextprotocol/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOLD_STREAM_MS, modernNodeHandler } from '../../../../../electron/core/frontend/http/modernNodeHandler.js';

/** What the handler saw of the last request. */
let seen: { request: Request; parsedBody: unknown; authInfo: unknown } | undefined;
let answer: (request: Request) => Promise<Response>;
let server: Server;
let base: string;

beforeAll(async () => {
  const handler: FetchLikeMcpHandler = {
    fetch: (req, options) => {
      seen = { request: req, parsedBody: options?.parsedBody, authInfo: options?.authInfo };
      return answer(req);
    },
  };
  const serve = modernNodeHandler(handler);
  server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString()));
    req.on('end', () => {
      (req as IncomingMessage & { auth?: unknown }).auth = { token: '', clientId: 'team', scopes: [] };
      void serve(req, res, text ? JSON.parse(text) : undefined);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const call = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'echo' } };

/** POSTs `body`; resolves with the response and its body text. */
function post(body: unknown): Promise<{ res: IncomingMessage; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(base, { method: 'POST', headers: { 'content-type': 'application/json', 'x-probe': 'p' } });
    req.on('response', (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve({ res, text }));
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

describe('modernNodeHandler', () => {
  it('hands the handler the parsed body, authInfo and headers, and writes a JSON answer whole', async () => {
    answer = () => Promise.resolve(Response.json({ jsonrpc: '2.0', id: 7, result: { content: [] } }));
    const { res, text } = await post(call);
    expect(seen?.parsedBody).toEqual(call);
    expect(seen?.authInfo).toMatchObject({ clientId: 'team' });
    expect(seen?.request.method).toBe('POST');
    expect(seen?.request.headers.get('x-probe')).toBe('p');
    expect(seen?.request.body).toBeNull();
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-length']).toBe(String(Buffer.byteLength(text)));
    expect(res.headers['transfer-encoding']).toBeUndefined();
    expect(JSON.parse(text)).toEqual({ jsonrpc: '2.0', id: 7, result: { content: [] } });
  });

  it('streams an event stream as it is sent', async () => {
    let push: ((text: string) => void) | undefined;
    let end: (() => void) | undefined;
    answer = () =>
      Promise.resolve(
        new Response(
          new ReadableStream<Uint8Array>({
            start(controller) {
              push = (text) => controller.enqueue(new TextEncoder().encode(text));
              end = () => controller.close();
            },
          }),
          { headers: { 'content-type': 'text/event-stream' } },
        ),
      );
    const first = new Promise<string>((resolve, reject) => {
      const req = request(base, { method: 'POST', headers: { 'content-type': 'application/json' } });
      req.on('response', (res) => {
        expect(res.headers['content-type']).toBe('text/event-stream');
        res.once('data', (chunk: Buffer) => {
          resolve(chunk.toString());
          res.resume();
        });
      });
      req.on('error', reject);
      req.end(JSON.stringify(call));
    });
    await expect.poll(() => push !== undefined).toBe(true);
    push?.('data: first\n\n');
    // The first event arrives while the stream is still open.
    expect(await first).toBe('data: first\n\n');
    end?.();
  });

  /** A stream the test writes to: `push` an event, `end` it. */
  function sse(): { response: Response; push: (text: string) => void; end: () => void } {
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
    return {
      response: new Response(body, { headers: { 'content-type': 'text/event-stream' } }),
      push: (text) => controller.enqueue(new TextEncoder().encode(text)),
      end: () => controller.close(),
    };
  }

  const priming = 'id: 1.s.0\nretry: 1000\ndata: \n\n';
  const answered = 'event: message\nid: 1.s.1\ndata: {"jsonrpc":"2.0","id":7,"result":{}}\n\n';

  it("writes a POST's stream that ends at once whole, priming event and answer, with its Content-Length", async () => {
    answer = () => {
      const stream = sse();
      stream.push(priming);
      // The answer comes a little later (the backend's round trip), well within the bound.
      setTimeout(() => {
        stream.push(answered);
        stream.end();
      }, 2);
      return Promise.resolve(stream.response);
    };
    const { res, text } = await post(call);
    expect(res.headers['content-type']).toBe('text/event-stream');
    expect(res.headers['transfer-encoding']).toBeUndefined();
    expect(res.headers['content-length']).toBe(String(Buffer.byteLength(text)));
    expect(text).toBe(priming + answered);
  });

  it("sends a living POST stream's priming event once the bound has passed, before the answer", async () => {
    let stream: ReturnType<typeof sse> | undefined;
    answer = () => {
      stream = sse();
      stream.push(priming);
      return Promise.resolve(stream.response);
    };
    const sent = Date.now();
    const first = await new Promise<{ chunk: string; at: number; chunked: boolean }>((resolve, reject) => {
      const req = request(base, { method: 'POST', headers: { 'content-type': 'application/json' } });
      req.on('response', (res) => {
        res.once('data', (chunk: Buffer) => {
          resolve({ chunk: chunk.toString(), at: Date.now(), chunked: res.headers['transfer-encoding'] === 'chunked' });
          res.resume();
        });
      });
      req.on('error', reject);
      req.end(JSON.stringify(call));
    });
    expect(first.chunk).toBe(priming);
    expect(first.chunked).toBe(true);
    expect(first.at - sent).toBeGreaterThanOrEqual(HOLD_STREAM_MS - 2);
    stream?.push(answered);
    stream?.end();
  });

  it('shows a GET stream its headers at once, before any event', async () => {
    let stream: ReturnType<typeof sse> | undefined;
    answer = () => {
      stream = sse();
      return Promise.resolve(stream.response);
    };
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const req = request(base, { method: 'GET' });
      req.on('response', (res) => {
        resolve(res.statusCode);
        res.resume();
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(200);
    stream?.end();
  });

  it('answers 500 with the request id when the handler throws', async () => {
    answer = () => Promise.reject(new Error('closed handler'));
    const { res, text } = await post(call);
    expect(res.statusCode).toBe(500);
    expect(JSON.parse(text)).toEqual({
      jsonrpc: '2.0',
      id: 7,
      error: { code: -32603, message: 'Internal server error' },
    });
  });

  it('aborts the request signal when the client goes away before the answer', async () => {
    let aborted: Promise<void> | undefined;
    answer = (req) => {
      // A Request all the same, whose signal is the endpoint's own (modernNodeHandler.ts).
      expect(req).toBeInstanceOf(Request);
      aborted = new Promise((resolve) => req.signal.addEventListener('abort', () => resolve(), { once: true }));
      return aborted.then(() => new Response(null, { status: 499 }));
    };
    const req = request(base, { method: 'POST', headers: { 'content-type': 'application/json' } });
    req.on('error', () => undefined);
    req.end(JSON.stringify(call));
    await expect.poll(() => aborted !== undefined).toBe(true);
    req.destroy();
    await aborted;
  });
});
