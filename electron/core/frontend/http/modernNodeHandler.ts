/**
 * The 2026-07-28 handler on node:http, for a body the endpoint has already
 * read and parsed. It does what the SDK's `toNodeHandler` does (the client
 * profile as `authInfo`, the request aborted when its response closes early,
 * a 500 when the handler throws, SSE written with backpressure) at less CPU
 * per request, which the profile of a proxied tools/call showed
 * (bench/hopProfile.ts, docs/benchmarks.md): the web `Request` is built
 * without a body, since the SDK reads the parsed one it is given and never
 * the request's (toNodeHandler serialized the body again and wrapped it in a
 * stream), and without following our abort signal (a `Request` given a
 * `signal` makes its own and ties the two together: 27 µs of CPU against
 * 10 µs, measured alone); it hands out ours as it is. A JSON answer is
 * written whole with its Content-Length in one write (toNodeHandler read it
 * through a stream and sent it chunked: two writes on the socket).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FetchLikeMcpHandler } from '@modelcontextprotocol/node';
import type { AuthInfo } from '@modelcontextprotocol/server';

/** Serves one request whose parsed JSON body is `parsedBody`. */
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
    await writeResponse(res, response, abort.signal);
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

/** Writes `response` to `res`: a JSON body whole, a stream as it comes (waiting while `res` is full). */
async function writeResponse(res: ServerResponse, response: Response, aborted: AbortSignal): Promise<void> {
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
  res.writeHead(response.status, headers);
  await streamBody(res, response.body, aborted);
  res.end();
}

/** Copies `body` to `res`, chunk by chunk, until it ends, fails, or the client goes away. */
async function streamBody(res: ServerResponse, body: ReadableStream<Uint8Array>, aborted: AbortSignal): Promise<void> {
  let drained: (() => void) | undefined;
  const release = (): void => {
    drained?.();
    drained = undefined;
  };
  res.on('drain', release);
  const closed = new Promise<void>((resolve) => aborted.addEventListener('abort', () => resolve(), { once: true }));
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || aborted.aborted) break;
      if (!res.write(value)) await Promise.race([new Promise<void>((resolve) => (drained = resolve)), closed]);
    }
  } catch {
    // The stream failed or was cancelled: end what was sent, as toNodeHandler does.
  } finally {
    res.off('drain', release);
    // Leaving early (the client went away) cancels the stream, as leaving toNodeHandler's for-await does.
    reader.cancel().catch(() => undefined);
  }
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
