/**
 * The stdio side of `mcp-switchboard connect`: a JSON-RPC pass-through
 * between a client that launched us (stdin/stdout) and the running
 * Switchboard's Streamable HTTP endpoint. Messages are not interpreted, so
 * the client sees exactly what an HTTP client sees (same names, URIs and
 * eras); the SDK's HTTP transport already owns the session id, the GET
 * stream of a 2025-era session and the per-request 2026-07-28 headers, which
 * it derives from each request's `_meta` envelope. The bridge adds only what
 * a bare transport cannot know:
 *
 * - the negotiated 2025-era version, read from the `initialize` result, so
 *   later POSTs carry `MCP-Protocol-Version`;
 * - 2026-07-28 cancellation: that era cancels by closing the request's HTTP
 *   stream rather than by a notification, so a stdio `notifications/cancelled`
 *   for such a request aborts its POST;
 * - an error answer for a request the endpoint could not be reached for, so
 *   the client never waits forever.
 */
import type { Readable, Writable } from 'node:stream';
import {
  PROTOCOL_VERSION_META_KEY,
  StreamableHTTPClientTransport,
  isJSONRPCRequest,
  isJSONRPCNotification,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
} from '@modelcontextprotocol/client';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';

/** JSON-RPC internal error, used when the endpoint cannot be reached. */
const INTERNAL_ERROR = -32603;

/** Options of {@link bridgeStdioToHttp}. */
export interface BridgeOptions {
  /** The MCP endpoint, `http://127.0.0.1:<port>/mcp`. */
  url: string;
  /** Bearer token presented on every request. */
  token: string;
  stdin?: Readable;
  stdout?: Writable;
  /** Problems worth a line on stderr (never written to stdout, which carries the protocol). */
  onerror?: (error: Error) => void;
}

/** A running bridge. */
export interface Bridge {
  /** Resolves when the client closed stdin (or {@link Bridge.close} was called) and the session was ended. */
  closed: Promise<void>;
  close(): Promise<void>;
}

interface Pending {
  method: string;
  /** Aborts the POST of a 2026-07-28 request (its cancellation signal). */
  abort: AbortController | undefined;
}

type RequestId = string | number;

function envelopeVersion(message: JSONRPCMessage): string | undefined {
  if (!isJSONRPCRequest(message)) return undefined;
  const meta = (message.params as { _meta?: Record<string, unknown> } | undefined)?._meta;
  const version = meta?.[PROTOCOL_VERSION_META_KEY];
  return typeof version === 'string' ? version : undefined;
}

/** Starts bridging this process's stdio (or the given streams) to the endpoint. */
export async function bridgeStdioToHttp(options: BridgeOptions): Promise<Bridge> {
  const report = options.onerror ?? (() => {});
  const stdio = new StdioServerTransport(options.stdin, options.stdout);
  const http = new StreamableHTTPClientTransport(new URL(options.url), {
    requestInit: { headers: { Authorization: `Bearer ${options.token}` } },
  });
  const pending = new Map<RequestId, Pending>();
  let closing = false;
  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));

  const toClient = (message: JSONRPCMessage): void => {
    stdio.send(message).catch((error: unknown) => report(error as Error));
  };

  const failRequest = (id: RequestId, error: unknown): void => {
    if (!pending.delete(id)) return; // already answered, or cancelled by the client
    const reason = error instanceof Error ? error.message : String(error);
    toClient({
      jsonrpc: '2.0',
      id,
      error: { code: INTERNAL_ERROR, message: `Switchboard at ${options.url} did not answer: ${reason}` },
    });
  };

  http.onmessage = (message) => {
    if (isJSONRPCResultResponse(message) || 'error' in message) {
      const id = (message as { id?: RequestId }).id;
      const entry = id === undefined ? undefined : pending.get(id);
      if (entry && id !== undefined) {
        pending.delete(id);
        const version = (message as { result?: { protocolVersion?: unknown } }).result?.protocolVersion;
        if (entry.method === 'initialize' && typeof version === 'string') http.setProtocolVersion(version);
      }
    }
    toClient(message);
  };
  http.onerror = (error) => {
    if (!closing) report(error);
  };

  stdio.onmessage = (message) => {
    if (isJSONRPCRequest(message)) {
      const modern = envelopeVersion(message) !== undefined;
      const abort = modern ? new AbortController() : undefined;
      pending.set(message.id, { method: message.method, abort });
      // Not awaited: a long call must not hold up the requests behind it.
      http
        .send(message, abort ? { requestSignal: abort.signal } : undefined)
        .catch((error: unknown) => failRequest(message.id, error));
      return;
    }
    if (isJSONRPCNotification(message) && message.method === 'notifications/cancelled') {
      const id = (message.params as { requestId?: RequestId } | undefined)?.requestId;
      const entry = id === undefined ? undefined : pending.get(id);
      if (entry?.abort && id !== undefined) {
        pending.delete(id);
        entry.abort.abort();
        return;
      }
    }
    // Notifications, and the client's answers to the server's own requests.
    http.send(message).catch((error: unknown) => report(error as Error));
  };

  const close = async (): Promise<void> => {
    if (closing) return closed;
    closing = true;
    for (const entry of pending.values()) entry.abort?.abort();
    pending.clear();
    // End the 2025-era session so the endpoint frees it now rather than on a timeout.
    if (http.sessionId) await http.terminateSession().catch(() => undefined);
    await http.close().catch(() => undefined);
    await stdio.close().catch(() => undefined);
    resolveClosed();
    return closed;
  };
  stdio.onclose = () => void close();
  stdio.onerror = report;

  await http.start();
  await stdio.start();
  return { closed, close };
}
