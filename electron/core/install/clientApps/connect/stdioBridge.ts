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
 *   the client never waits forever;
 * - recovery when the instance goes away (the desktop app quit, the headless
 *   one crashed): `reconnect` finds or starts one again, a 2025-era session is
 *   re-established by replaying the client's `initialize` (and its resource
 *   subscriptions), and the request that found the endpoint gone is sent
 *   again, but only when it cannot have reached the old instance (connection
 *   refused, unknown session): a call cut off in flight is answered with an
 *   error, never run twice.
 */
import type { Readable, Writable } from 'node:stream';
import {
  PROTOCOL_VERSION_META_KEY,
  StreamableHTTPClientTransport,
  isJSONRPCRequest,
  isJSONRPCNotification,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  type JSONRPCRequest,
} from '@modelcontextprotocol/client';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';

/** JSON-RPC internal error, used when the endpoint cannot be reached. */
const INTERNAL_ERROR = -32603;
/** How long a replayed request (re-initializing a session) may take. */
const REPLAY_TIMEOUT_MS = 15_000;

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
  /** Finds (or starts) the instance again after the endpoint went away; without it there is no recovery. */
  reconnect?: () => Promise<{ url: string; token: string }>;
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

/** Network errors that mean nothing reached the endpoint. */
const NOT_REACHED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EADDRNOTAVAIL']);
/** Network errors that mean the endpoint went away, possibly mid-request. */
const CUT_OFF = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);

/**
 * How a failed send relates to the endpoint: `not-reached` (safe to send
 * again elsewhere: refused, or a session the endpoint no longer knows),
 * `cut-off` (the endpoint went away, the request may have run), or `other`.
 */
export function classifySendFailure(error: unknown): 'not-reached' | 'cut-off' | 'other' {
  for (let cause = error, depth = 0; cause && depth < 5; depth++) {
    const { code, data } = cause as { code?: unknown; data?: { status?: unknown } };
    if (typeof code === 'string' && NOT_REACHED.has(code)) return 'not-reached';
    if (typeof code === 'string' && CUT_OFF.has(code)) return 'cut-off';
    // A restarted instance answers an old session id with 404 (2025-era sessions, spec "Session Management").
    if (data?.status === 404) return 'not-reached';
    cause = (cause as { cause?: unknown }).cause;
  }
  return 'other';
}

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
  let target = { url: options.url, token: options.token };
  const pending = new Map<RequestId, Pending>();
  /** What a replacement session must replay: the client's initialize, whether it said initialized, its subscriptions. */
  let initialize: JSONRPCRequest | undefined;
  let initialized = false;
  const subscriptions = new Map<RequestId, { uri: string; subscribe: boolean }>();
  const subscribed = new Set<string>();
  /** Our own replayed requests, answered to us and never to the client. */
  const replays = new Map<RequestId, (message: JSONRPCMessage) => void>();
  let replayCount = 0;
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
      error: { code: INTERNAL_ERROR, message: `Switchboard at ${target.url} did not answer: ${reason}` },
    });
  };

  const onEndpointMessage = (message: JSONRPCMessage): void => {
    if (isJSONRPCResultResponse(message) || 'error' in message) {
      const id = (message as { id?: RequestId }).id;
      const replay = id === undefined ? undefined : replays.get(id);
      if (replay && id !== undefined) {
        replays.delete(id);
        return replay(message);
      }
      const entry = id === undefined ? undefined : pending.get(id);
      if (entry && id !== undefined) {
        pending.delete(id);
        const version = (message as { result?: { protocolVersion?: unknown } }).result?.protocolVersion;
        if (entry.method === 'initialize' && typeof version === 'string') http.setProtocolVersion(version);
        const change = subscriptions.get(id);
        if (change && isJSONRPCResultResponse(message)) {
          if (change.subscribe) subscribed.add(change.uri);
          else subscribed.delete(change.uri);
        }
        subscriptions.delete(id);
      }
    }
    toClient(message);
  };

  const connectEndpoint = (to: { url: string; token: string }): StreamableHTTPClientTransport => {
    const transport = new StreamableHTTPClientTransport(new URL(to.url), {
      requestInit: { headers: { Authorization: `Bearer ${to.token}` } },
    });
    transport.onmessage = onEndpointMessage;
    transport.onerror = (error) => {
      if (!closing && transport === http) report(error);
    };
    return transport;
  };
  let http = connectEndpoint(target);

  /** Sends one of our own requests on the current endpoint and waits for its answer. */
  const replay = (method: string, params: unknown): Promise<JSONRPCMessage> => {
    const id = `switchboard-replay-${++replayCount}`;
    return new Promise<JSONRPCMessage>((resolve, reject) => {
      const timer = setTimeout(() => {
        replays.delete(id);
        reject(new Error(`${method} was not answered while reconnecting`));
      }, REPLAY_TIMEOUT_MS);
      replays.set(id, (message) => {
        clearTimeout(timer);
        resolve(message);
      });
      http.send({ jsonrpc: '2.0', id, method, params } as JSONRPCMessage).catch((error: unknown) => {
        clearTimeout(timer);
        replays.delete(id);
        reject(error as Error);
      });
    });
  };

  let recovering: Promise<void> | undefined;
  /** One recovery at a time: every request that found the endpoint gone waits for the same one. */
  const recover = (): Promise<void> =>
    (recovering ??= (async () => {
      if (!options.reconnect) throw new Error('the endpoint went away');
      const old = http;
      await old.close().catch(() => undefined);
      target = await options.reconnect();
      http = connectEndpoint(target);
      await http.start();
      if (!initialize) return; // 2026-07-28 requests carry everything themselves
      const answer = await replay('initialize', initialize.params);
      const version = (answer as { result?: { protocolVersion?: unknown } }).result?.protocolVersion;
      if (typeof version === 'string') http.setProtocolVersion(version);
      if (initialized) await http.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      for (const uri of subscribed) await replay('resources/subscribe', { uri }).catch(() => undefined);
    })().finally(() => (recovering = undefined)));

  /** Sends to the endpoint; if it went away, recovers and sends again when that cannot run anything twice. */
  const forward = async (message: JSONRPCMessage, sendOptions?: { requestSignal: AbortSignal }): Promise<void> => {
    if (recovering) await recovering;
    try {
      await http.send(message, sendOptions);
    } catch (error) {
      const failure = classifySendFailure(error);
      if (closing || !options.reconnect || failure === 'other') throw error;
      await recover();
      if (failure === 'cut-off') throw error;
      await http.send(message, sendOptions);
    }
  };

  stdio.onmessage = (message) => {
    if (isJSONRPCRequest(message)) {
      const modern = envelopeVersion(message) !== undefined;
      const abort = modern ? new AbortController() : undefined;
      pending.set(message.id, { method: message.method, abort });
      if (message.method === 'initialize') initialize = message;
      if (message.method === 'resources/subscribe' || message.method === 'resources/unsubscribe') {
        const uri = (message.params as { uri?: unknown } | undefined)?.uri;
        if (typeof uri === 'string') {
          subscriptions.set(message.id, { uri, subscribe: message.method === 'resources/subscribe' });
        }
      }
      // Not awaited: a long call must not hold up the requests behind it.
      forward(message, abort ? { requestSignal: abort.signal } : undefined).catch((error: unknown) =>
        failRequest(message.id, error),
      );
      return;
    }
    if (isJSONRPCNotification(message) && message.method === 'notifications/initialized') initialized = true;
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
    forward(message).catch((error: unknown) => report(error as Error));
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
