/**
 * Edges of the HTTP endpoint that are not MCP: slow clients, methods a path
 * does not serve, and JSON-RPC batches where the session's protocol revision
 * no longer has them.
 */
import { createServer, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';

/** How long a client may take to send its request. */
export interface RequestTimeouts {
  /** To send the request line and headers (a slowloris client is cut at this). */
  headersTimeoutMs: number;
  /** To send the whole request, body included; never shorter than the header timeout. */
  bodyTimeoutMs: number;
}

/**
 * An HTTP server that cuts requests not received in time (Node answers 408
 * and closes the connection). Node only checks every `connectionsCheckingInterval`
 * (30 s by default), so the check runs at a quarter of the shorter timeout.
 * The timeout covers receiving the request only: a long response stream (a GET
 * stream, an SSE answer) is not cut.
 */
export function createTimedServer(timeouts: RequestTimeouts, listener: RequestListener, tls?: TlsFiles) {
  const requestTimeout = Math.max(timeouts.bodyTimeoutMs, timeouts.headersTimeoutMs);
  const options = {
    headersTimeout: timeouts.headersTimeoutMs,
    requestTimeout,
    connectionsCheckingInterval: Math.max(50, Math.min(timeouts.headersTimeoutMs, requestTimeout) / 4),
  };
  // Served over TLS directly (gateway mode without a reverse proxy): the same server, with a certificate.
  return tls
    ? createTlsServer({ ...options, cert: tls.cert, key: tls.key }, listener)
    : createServer(options, listener);
}

/** A certificate (chain) and its private key, PEM, as read from their files. */
export interface TlsFiles {
  cert: Buffer;
  key: Buffer;
}

/** Methods each fixed path serves; anything else is 405 with `Allow` (RFC 9110 §15.5.6). */
const ALLOWED: Record<string, string[]> = {
  '/mcp': ['GET', 'POST', 'DELETE'],
  '/healthz': ['GET', 'HEAD'],
  '/readyz': ['GET', 'HEAD'],
};

/**
 * Answers 405 (and returns true) when `path` is ours and does not serve the
 * request's method; `shown` is the path the answer names (every MCP endpoint
 * path is checked as `/mcp`).
 */
export function refuseMethod(req: IncomingMessage, res: ServerResponse, path: string, shown = path): boolean {
  const allowed = ALLOWED[path];
  if (!allowed || allowed.includes(req.method ?? '')) return false;
  res.writeHead(405, { 'Content-Type': 'application/json', Allow: allowed.join(', ') });
  res.end(
    JSON.stringify({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: `Method Not Allowed: ${shown} accepts ${allowed.join(', ')}` },
    }),
  );
  return true;
}

/** The first revision without JSON-RPC batching (changelog of 2025-06-18: "Remove support for JSON-RPC batching"). */
const NO_BATCHES_FROM = '2025-06-18';

/**
 * Answers 400 (and returns true) for a batch in a session whose negotiated
 * revision dropped batching; 2025-03-26 sessions keep them. Revisions are
 * dates, so they compare as strings.
 */
export function refuseBatch(body: unknown, protocolVersion: string | undefined, res: ServerResponse): boolean {
  if (!Array.isArray(body) || protocolVersion === undefined || protocolVersion < NO_BATCHES_FROM) return false;
  res.writeHead(400, { 'Content-Type': 'application/json' });
  res.end(
    JSON.stringify({
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -32600,
        message: `Invalid Request: JSON-RPC batches are not part of protocol version ${protocolVersion} (removed in ${NO_BATCHES_FROM}); send each message in its own POST`,
      },
    }),
  );
  return true;
}
