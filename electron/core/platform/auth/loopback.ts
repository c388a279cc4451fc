/**
 * The loopback redirect listener of one authorization flow (RFC 8252 §7.3,
 * as the MCP authorization spec asks of native clients): an HTTP server on
 * 127.0.0.1 that lives only for the flow, accepts the redirect only when its
 * `state` matches (RFC 6749 §10.12; the SDK does not check it), answers the
 * browser with a small page saying the window can be closed, and gives up on
 * timeout or abort.
 */
import { timingSafeEqual } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ErrorCode, SwitchboardError } from '../../../../shared/errors.js';

/** What the authorization server sent back (RFC 6749 §4.1.2; `iss`: RFC 9207). */
export interface AuthorizationResponse {
  code: string;
  iss?: string;
}

/** Options of {@link startLoopbackListener}. */
export interface LoopbackOptions {
  /** The `state` sent with the authorization request. */
  state: string;
  /** A port to try first (e.g. the one a client was registered with); any free port otherwise. */
  port?: number;
  /** How long to wait for the browser (default 5 minutes). */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** The service named on the page shown to the user. */
  label?: string;
}

/** A listening redirect endpoint. */
export interface LoopbackListener {
  /** `http://127.0.0.1:<port>/callback`. */
  redirectUrl: string;
  port: number;
  /** Settles with the first redirect whose state matches, or fails (error, timeout, abort). */
  response: Promise<AuthorizationResponse>;
  /** Stops listening (idempotent). */
  close(): void;
}

const CALLBACK_PATH = '/callback';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

function answer(res: ServerResponse, status: number, title: string, message: string): void {
  const html = `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>
<body style="font-family:system-ui,sans-serif;margin:3em"><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p></body></html>`;
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(html);
}

function sameState(expected: string, received: string | null): boolean {
  if (received === null) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(received);
  return a.length === b.length && timingSafeEqual(a, b);
}

async function listen(server: ReturnType<typeof createServer>, port: number): Promise<boolean> {
  server.listen(port, '127.0.0.1');
  try {
    await Promise.race([once(server, 'listening'), once(server, 'error').then(([error]) => Promise.reject(error))]);
    return true;
  } catch {
    return false;
  }
}

/** Starts the listener; rejects only if no port at all can be had. */
export async function startLoopbackListener(options: LoopbackOptions): Promise<LoopbackListener> {
  const label = options.label ?? 'MCP Switchboard';
  let settle: { resolve: (value: AuthorizationResponse) => void; reject: (error: Error) => void } | undefined;
  const response = new Promise<AuthorizationResponse>((resolve, reject) => (settle = { resolve, reject }));
  // Nobody may be awaiting yet when it fails (e.g. aborted before the URL was used).
  response.catch(() => undefined);
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method !== 'GET' || url.pathname !== CALLBACK_PATH) {
      answer(res, 404, 'Not found', 'This address only receives the authorization redirect.');
      return;
    }
    // A redirect whose state is not ours is refused and the flow keeps waiting (CSRF, RFC 6749 §10.12).
    if (!sameState(options.state, url.searchParams.get('state'))) {
      answer(res, 400, 'Authorization refused', 'This response does not belong to the sign-in in progress.');
      return;
    }
    const error = url.searchParams.get('error');
    const code = url.searchParams.get('code');
    if (error !== null || code === null) {
      const description = url.searchParams.get('error_description');
      const reason = `${error ?? 'no authorization code'}${description ? `: ${description}` : ''}`;
      answer(res, 400, 'Authorization failed', `${label} was not authorized (${reason}). You can close this window.`);
      finish(new SwitchboardError(ErrorCode.AuthorizationFailed, `the authorization server refused: ${reason}`));
      return;
    }
    answer(res, 200, 'Authorization complete', `${label} is authorized. You can close this window.`);
    const iss = url.searchParams.get('iss');
    finish(undefined, iss === null ? { code } : { code, iss });
  });
  if (!(options.port !== undefined && (await listen(server, options.port))) && !(await listen(server, 0))) {
    throw new SwitchboardError(
      ErrorCode.AuthorizationFailed,
      'cannot listen on 127.0.0.1 for the authorization redirect',
    );
  }
  const port = (server.address() as AddressInfo).port;
  const timeoutMs = options.timeoutMs ?? 300_000;
  const timer = setTimeout(
    () =>
      finish(
        new SwitchboardError(
          ErrorCode.AuthorizationFailed,
          `no authorization within ${Math.round(timeoutMs / 1000)} s`,
        ),
      ),
    timeoutMs,
  );
  timer.unref();
  const onAbort = (): void =>
    finish(new SwitchboardError(ErrorCode.AuthorizationFailed, 'authorization was cancelled'));
  options.signal?.addEventListener('abort', onAbort, { once: true });
  if (options.signal?.aborted) onAbort();

  let closed = false;
  function close(): void {
    if (closed) return;
    closed = true;
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
    server.close();
    server.closeAllConnections();
  }
  function finish(error: Error | undefined, value?: AuthorizationResponse): void {
    if (error) settle?.reject(error);
    else if (value) settle?.resolve(value);
    // Let the page reach the browser before the connections go.
    setImmediate(close);
  }
  return { redirectUrl: `http://127.0.0.1:${port}${CALLBACK_PATH}`, port, response, close };
}
