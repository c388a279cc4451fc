/**
 * A web-standard MCP handler on node:http, for a body the endpoint has already
 * read and parsed: the 2026-07-28 handler, and each 2025-era session's
 * transport (sessionTransport.ts). It does what the SDK's `toNodeHandler` and
 * the Node transport's adapter do (the client profile as `authInfo`, the
 * request aborted when its response closes early, a 500 when the handler
 * throws, SSE written with backpressure) at less CPU and latency per request,
 * which the profiles and A/B runs of a proxied tools/call showed
 * (bench/hopProfile.ts, bench/hopCompare.ts, docs/benchmarks.md): the web
 * `Request` is built without a body, since the SDK reads the parsed one it is
 * given and never the request's (toNodeHandler serialized the body again and
 * wrapped it in a stream), and without following our abort signal (a
 * `Request` given a `signal` makes its own and ties the two together: 27 µs
 * of CPU against 10 µs, measured alone); it hands out ours as it is. A JSON
 * answer is written whole with its Content-Length in one write. A POST's event
 * stream answered at once is written whole too (see streamBody): the Node
 * transport's adapter, given a stream with a chunk ready (the 2025-era priming
 * event) but not ended, waited a timer tick before sending anything, which
 * cost every 2025-era call about a millisecond.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FetchLikeMcpHandler } from '@modelcontextprotocol/node';
import type { AuthInfo } from '@modelcontextprotocol/server';

/** Serves one request whose parsed JSON body is `parsedBody` (undefined: a GET or DELETE). */
export type ModernNodeHandler = (req: IncomingMessage, res: ServerResponse, parsedBody: unknown) => Promise<void>;

/** `handler` on node:http, for requests whose body was read and parsed already. */
export function modernNodeHandler(handler: FetchLikeMcpHandler): ModernNodeHandler {
  return async (req, res, parsedBody) => {
    let finished = false;
    const abort = new AbortController();
    res.on('close', () => {
      if (!finished) abort.abort();
    });
    if (res.destroyed) abort.abort();
    let response: Response;
    try {
      const authInfo = (req as IncomingMessage & { auth?: AuthInfo }).auth;
      response = await handler.fetch(bodylessRequest(req, abort.signal), {
        ...(authInfo !== undefined ? { authInfo } : {}),
        parsedBody,
      });
    } catch {
      response = Response.json(
        { jsonrpc: '2.0', error: { code: -32603, message: 'Internal server error' }, id: echoableId(parsedBody) },
        { status: 500 },
      );
    }
    await writeResponse(res, response, abort.signal, req.method === 'POST');
    finished = true;
  };
}

/** A `Request` whose `signal` is the one it was given, not a copy that follows it. */
class SignalledRequest extends Request {
  readonly #signal: AbortSignal;

  constructor(url: string, init: RequestInit, signal: AbortSignal) {
    super(url, init);
    this.#signal = signal;
  }

  static {
    // `signal` is the platform's getter on Request.prototype; this one shadows it for these requests.
    Object.defineProperty(SignalledRequest.prototype, 'signal', {
      get(this: SignalledRequest): AbortSignal {
        return this.#signal;
      },
    });
  }
}

/** The web `Request` the SDK's handler reads: method, URL, headers and the abort signal; no body. */
function bodylessRequest(req: IncomingMessage, signal: AbortSignal): Request {
  const host = first(req.headers.host) ?? 'localhost';
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name.startsWith(':')) continue;
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else headers.set(name, value);
  }
  // The body travels parsed; the original's length and encoding no longer describe anything.
  headers.delete('content-length');
  headers.delete('content-encoding');
  headers.delete('transfer-encoding');
  return new SignalledRequest(
    `http://${host}${req.url ?? '/'}`,
    { method: (req.method ?? 'POST').toUpperCase(), headers },
    signal,
  );
}

/**
 * How long a POST's event stream may hold back what it has (its headers, a 2025-era priming event)
 * waiting for the answer, so that a call answered at once leaves in one write. A stream that lives
 * longer (a slow call, one that sends progress or asks the client something) is sent from then on
 * as it comes, its priming event first, so the client can resume it.
 */
export const HOLD_STREAM_MS = 20;

/** One read of a response body. */
type Read = Awaited<ReturnType<ReadableStreamDefaultReader<Uint8Array>['read']>>;

/** Writes `response` to `res`: a JSON body whole, a stream as it comes (waiting while `res` is full). */
async function writeResponse(
  res: ServerResponse,
  response: Response,
  aborted: AbortSignal,
  post: boolean,
): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  if (response.body === null) {
    res.writeHead(response.status, headers).end();
    return;
  }
  if (isJson(headers['content-type'])) {
    let bytes: Buffer;
    try {
      bytes = Buffer.from(await response.arrayBuffer());
    } catch {
      res.destroy();
      return;
    }
    headers['content-length'] = String(bytes.length);
    res.writeHead(response.status, headers).end(bytes);
    return;
  }
  await streamBody(res, response.status, headers, response.body, aborted, post);
}

/**
 * Copies `body` to `res` until it ends, fails, or the client goes away. What is ready at once (a
 * 2025-era POST's priming event) is held, for a POST until its next event or {@link HOLD_STREAM_MS}:
 * a stream that has ended by then (a call answered at once) is written whole, headers, priming event
 * and answer with its Content-Length, in one write. Otherwise the headers and what was held leave
 * (at once for a GET: its client waits for the headers), then each event as it comes, the last
 * with the stream's end.
 */
async function streamBody(
  res: ServerResponse,
  status: number,
  headers: Record<string, string>,
  body: ReadableStream<Uint8Array>,
  aborted: AbortSignal,
  post: boolean,
): Promise<void> {
  const reader = body.getReader();
  const held: Uint8Array[] = [];
  let next: Promise<Read> = reader.read();
  let done = false;
  try {
    done = await gather(
      reader,
      held,
      () => next,
      (read) => (next = read),
    );
    if (!done && post && !aborted.aborted) {
      const first = await within(next, HOLD_STREAM_MS, aborted);
      if (first !== undefined) {
        if (first.done) done = true;
        else {
          held.push(first.value);
          next = reader.read();
          done = await gather(
            reader,
            held,
            () => next,
            (read) => (next = read),
          );
        }
      }
    }
    if (done) {
      const whole = Buffer.concat(held);
      headers['content-length'] = String(whole.length);
      res.writeHead(status, headers).end(whole);
      return;
    }
    if (aborted.aborted) return;
    res.writeHead(status, headers);
    if (held.length === 0) res.flushHeaders();
    for (const chunk of held) res.write(chunk);
    await copyRest(res, reader, next, aborted);
  } catch {
    // The stream failed or was cancelled: end what was sent, as toNodeHandler does.
  } finally {
    if (!res.writableEnded) res.end();
    // Leaving early (the client went away) cancels the stream, as leaving toNodeHandler's for-await does.
    reader.cancel().catch(() => undefined);
  }
}

/** Moves every chunk that is ready now into `held`; true when the stream has ended. */
async function gather(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  held: Uint8Array[],
  next: () => Promise<Read>,
  setNext: (read: Promise<Read>) => void,
): Promise<boolean> {
  for (;;) {
    const ready = await unlessPending(next());
    if (ready === undefined) return false;
    if (ready.done) return true;
    held.push(ready.value);
    setNext(reader.read());
  }
}

/** The rest of a live stream, each chunk as it comes, the last with the end (one write instead of two). */
async function copyRest(
  res: ServerResponse,
  reader: ReadableStreamDefaultReader<Uint8Array>,
  first: Promise<Read>,
  aborted: AbortSignal,
): Promise<void> {
  let drained: (() => void) | undefined;
  const release = (): void => {
    drained?.();
    drained = undefined;
  };
  res.on('drain', release);
  const closed = new Promise<void>((resolve) => aborted.addEventListener('abort', () => resolve(), { once: true }));
  let next = first;
  try {
    for (;;) {
      const { done, value } = await next;
      if (done || aborted.aborted) return;
      next = reader.read();
      if ((await unlessPending(next))?.done === true) {
        res.end(value);
        return;
      }
      if (!res.write(value)) await Promise.race([new Promise<void>((resolve) => (drained = resolve)), closed]);
    }
  } finally {
    res.off('drain', release);
  }
}

/** `promise`'s outcome if it is settled within a couple of microtasks, else undefined. */
function unlessPending<T>(promise: Promise<T>): Promise<T | undefined> {
  return Promise.race([promise, Promise.resolve().then(() => undefined)]);
}

/** `promise`'s outcome if it settles within `ms` (and before `aborted`), else undefined. */
function within<T>(promise: Promise<T>, ms: number, aborted: AbortSignal): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const bound = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
    onAbort = () => resolve(undefined);
    aborted.addEventListener('abort', onAbort, { once: true });
  });
  return Promise.race([promise, bound]).finally(() => {
    clearTimeout(timer);
    aborted.removeEventListener('abort', onAbort!);
  });
}

function isJson(contentType: string | undefined): boolean {
  return contentType !== undefined && /^\s*application\/json\s*(;|$)/i.test(contentType);
}

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** The id to echo on an error answer: a single request's string or number id, else null. */
function echoableId(body: unknown): string | number | null {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return null;
  const { method, id } = body as { method?: unknown; id?: unknown };
  if (typeof method !== 'string') return null;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}
