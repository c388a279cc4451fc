/**
 * A `fetch` for backend transports over node:http(s) with keep-alive agents.
 * undici's fetch and its web streams cost far more per request than
 * node:http with keep-alive (undici's own benchmarks put http keep-alive at
 * about twice fetch's throughput: https://github.com/nodejs/undici/issues/1203);
 * `npm run bench` (bench/proxy-latency.ts) shows the cost per proxied call.
 * Plain responses are buffered (they are small JSON-RPC messages) and handed
 * over without a web stream (bufferedResponse.ts); event
 * streams stay streams, each event bounded (HTML Living Standard,
 * "Server-sent events": an event ends at a blank line): a stream carrying an
 * event over the limit is ended with an error, the events before it pass
 * unchanged. Redirects are not followed: the SDK asks for `redirect: 'manual'`
 * and follows them itself, within the origin. With tracing on, each request
 * carries the active span's `traceparent`.
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { Readable, Transform, type TransformCallback } from 'node:stream';
import { injectTraceContext } from '../../platform/observability/traceHeaders.js';
import { bufferedResponse } from './bufferedResponse.js';

const httpAgent = new HttpAgent({ keepAlive: true });
const httpsAgent = new HttpsAgent({ keepAlive: true });

const BOUNDARIES = [Buffer.from('\n\n'), Buffer.from('\r\n\r\n'), Buffer.from('\r\r')];

/** Where the last event boundary in `bytes` ends, or -1. */
function lastBoundaryEnd(bytes: Buffer): number {
  let end = -1;
  for (const boundary of BOUNDARIES) {
    const at = bytes.lastIndexOf(boundary);
    if (at !== -1) end = Math.max(end, at + boundary.length);
  }
  return end;
}

/** Passes an event stream through, failing it at the first event over `maxBytes`. */
export class SseEventLimit extends Transform {
  /** Bytes of the event being received. */
  private current = 0;
  /** The last bytes seen, so a boundary split across chunks is found. */
  private carry: Buffer = Buffer.alloc(0);

  constructor(
    private readonly maxBytes: number,
    private readonly onOversize?: (message: string) => void,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    const joined = Buffer.concat([this.carry, chunk]);
    const end = lastBoundaryEnd(joined);
    this.current = end === -1 ? this.current + chunk.length : joined.length - end;
    this.carry = Buffer.from(joined.subarray(-3));
    if (this.current > this.maxBytes) {
      const message = `an event of over ${this.maxBytes} bytes, over maxMessageBytes (${this.maxBytes})`;
      this.onOversize?.(message);
      done(new Error(`the backend sent ${message}`));
      return;
    }
    done(null, chunk);
  }
}

/** Headers of a RequestInit as a plain object. */
function headersOf(init: RequestInit | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!init?.headers) return out;
  // The SDK passes a Headers already: read it as it is rather than copy it first.
  const headers = init.headers instanceof Headers ? init.headers : new Headers(init.headers);
  headers.forEach((value, key) => {
    out[key] = value;
  });
  return out;
}

function responseHeaders(res: IncomingMessage): Headers {
  const headers = new Headers();
  for (let i = 0; i < res.rawHeaders.length; i += 2) headers.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
  return headers;
}

async function bodyBytes(body: RequestInit['body']): Promise<Buffer | undefined> {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return Buffer.from(body);
  if (body instanceof ArrayBuffer) return Buffer.from(body);
  if (ArrayBuffer.isView(body)) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  // Anything else (URLSearchParams, streams, forms): let the platform encode it.
  return Buffer.from(await new Response(body).arrayBuffer());
}

/** What a limited fetch reports when it refuses a message over its limit. */
export type OnOversize = (message: string) => void;

/** `fetch` over node:http(s) with keep-alive; same contract as the global one for what the SDK uses. */
export function nodeFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  return limitedFetch(input, init, Number.POSITIVE_INFINITY);
}

/**
 * `nodeFetch` refusing any JSON body or SSE event over `maxBytes`: a body
 * rejects the fetch, an event ends its stream with an error (after `onOversize`
 * is told why, so the request's failure can say so: streamEndWatch.ts).
 */
export function nodeFetchWithLimit(maxBytes: number, onOversize: OnOversize): typeof fetch {
  return ((input: string | URL | Request, init?: RequestInit) =>
    limitedFetch(input, init, maxBytes, onOversize)) as typeof fetch;
}

async function limitedFetch(
  input: string | URL | Request,
  init: RequestInit | undefined,
  maxBytes: number,
  onOversize?: OnOversize,
): Promise<Response> {
  if (input instanceof Request) return fetch(input, init);
  const url = typeof input === 'string' ? new URL(input) : input;
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return fetch(input, init);
  const body = await bodyBytes(init?.body);
  const headers = headersOf(init);
  // W3C trace context of the call's span, when tracing is on (platform/observability/traceHeaders.ts).
  injectTraceContext(headers);
  if (body) headers['content-length'] = String(body.length);
  const signal = init?.signal ?? undefined;
  signal?.throwIfAborted();
  const https = url.protocol === 'https:';
  const send = (retried: boolean): Promise<Response> =>
    new Promise<Response>((resolve, reject) => {
      const req = (https ? httpsRequest : httpRequest)(url, {
        method: init?.method ?? 'GET',
        headers,
        agent: https ? httpsAgent : httpAgent,
        ...(signal ? { signal } : {}),
      });
      let answered = false;
      req.once('error', (error: NodeJS.ErrnoException) => {
        // A kept-alive socket the backend closed while idle fails the next
        // request on it before any answer: the race Node's http docs describe
        // (`request.reusedSocket`, where they advise retrying). It is sent once
        // more on a fresh connection; a fresh socket's failure is the
        // backend's own and is reported as it is.
        if (!answered && !retried && req.reusedSocket && isResetBeforeAnswer(error) && !signal?.aborted) {
          resolve(send(true));
        } else {
          reject(error);
        }
      });
      req.once('response', (res) => {
        answered = true;
        const status = res.statusCode ?? 0;
        const responseInit = { status, statusText: res.statusMessage ?? '', headers: responseHeaders(res) };
        const noBody = status === 204 || status === 304 || init?.method === 'HEAD';
        const type = res.headers['content-type'] ?? '';
        if (noBody) {
          res.resume();
          resolve(withUrl(new Response(null, responseInit), url));
        } else if (type.includes('text/event-stream')) {
          const events = Number.isFinite(maxBytes) ? res.pipe(new SseEventLimit(maxBytes, onOversize)) : res;
          if (events !== res) res.once('error', (error) => events.destroy(error));
          resolve(withUrl(new Response(Readable.toWeb(events) as ReadableStream<Uint8Array>, responseInit), url));
        } else {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > maxBytes) {
              // The rejection itself fails the request (onOversize is for streams, which end instead).
              res.destroy();
              reject(
                new Error(`the backend sent an answer of over ${maxBytes} bytes, over maxMessageBytes (${maxBytes})`),
              );
              return;
            }
            chunks.push(chunk);
          });
          res.once('error', reject);
          res.once('end', () => resolve(withUrl(bufferedResponse(Buffer.concat(chunks), responseInit), url)));
        }
      });
      req.end(body);
    });
  return send(false);
}

/** The errors a request meets when its kept-alive socket was closed under it. */
function isResetBeforeAnswer(error: NodeJS.ErrnoException): boolean {
  return error.code === 'ECONNRESET' || error.code === 'EPIPE' || error.message === 'socket hang up';
}

/** `Response.url` is read-only and empty for constructed responses; the SDK reads it for redirects and errors. */
function withUrl(response: Response, url: URL): Response {
  Object.defineProperty(response, 'url', { value: url.href });
  return response;
}
