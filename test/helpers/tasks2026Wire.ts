/**
 * The raw 2026-07-28 Streamable HTTP wire for the tasks extension (io.modelcontextprotocol/tasks):
 * one POST per JSON-RPC request with the SEP-2243 headers, its answer read from a JSON body or
 * an SSE stream. The SDK v2 client cannot carry this traffic itself: its 2026-07-28 codec
 * rejects `resultType: "task"` (UnsupportedResultType in decodeResult), so task requests take
 * this path (ext-tasks' `rawDispatch`) while everything else goes through the SDK Client.
 */
import { EventSourceParserStream } from 'eventsource-parser/stream';

/** The protocol revision this wire speaks. */
export const MODERN_REVISION = '2026-07-28';
/** The extension's id, in client `_meta` capabilities and in server/discover. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** A JSON-RPC error object. */
export interface RpcErrorBody {
  code: number;
  message: string;
  data?: unknown;
}

/** What one request got back: ext-tasks' JsonRpcResponse shape, plus the HTTP status. */
export type RpcOutcome =
  | { kind: 'result'; result: Record<string, unknown>; httpStatus: number }
  | { kind: 'error'; error: RpcErrorBody; httpStatus: number };

/** Where and how to reach an endpoint. */
export interface WireTarget {
  url: string;
  /** Extra headers on every request (e.g. Authorization for serve). */
  headers?: Record<string, string>;
  /** Per-request timeout (default 15 s). */
  timeoutMs?: number;
}

/** Which body field the `Mcp-Name` header mirrors, per method (SEP-2243; SEP-2663 for tasks/*). */
const NAME_SOURCE: Record<string, string> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
};

let nextId = 1;

/** The standard request headers: protocol version, Mcp-Method and (where defined) Mcp-Name. */
export function requestHeaders(method: string, params: Record<string, unknown> | undefined): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': MODERN_REVISION,
    'mcp-method': method,
  };
  const field = NAME_SOURCE[method];
  const value = field === undefined ? undefined : params?.[field];
  if (typeof value === 'string') headers['mcp-name'] = value;
  return headers;
}

/**
 * Merges header sets, later ones winning, case-insensitively: ext-tasks passes `Mcp-Name` while
 * requestHeaders computed `mcp-name`, and fetch would send both joined ("a, a"), which the
 * server refuses as a header/body mismatch (-32020).
 */
export function mergeHeaders(...sets: (Record<string, string> | undefined)[]): Record<string, string> {
  const merged: Record<string, string> = {};
  for (const set of sets) for (const [name, value] of Object.entries(set ?? {})) merged[name.toLowerCase()] = value;
  return merged;
}

/** Reads SSE `message` events of a response body, yielding each parsed JSON-RPC message. */
export async function* sseMessages(body: ReadableStream<Uint8Array>): AsyncGenerator<Record<string, unknown>> {
  // (casts: @types/node 20's TextDecoderStream and ReadableStream typings do not line up)
  const decoder = new TextDecoderStream() as unknown as ReadableWritablePair<string, Uint8Array>;
  const reader = body.pipeThrough(decoder).pipeThrough(new EventSourceParserStream()).getReader();
  try {
    for (;;) {
      const { done, value: event } = await reader.read();
      if (done) return;
      if ((event.event ?? 'message') !== 'message' || event.data === '') continue;
      yield JSON.parse(event.data) as Record<string, unknown>;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

function outcomeOf(message: Record<string, unknown>, httpStatus: number): RpcOutcome {
  if (message.error !== undefined) return { kind: 'error', error: message.error as RpcErrorBody, httpStatus };
  return { kind: 'result', result: message.result as Record<string, unknown>, httpStatus };
}

/**
 * Posts one JSON-RPC request and resolves with its answer (a result or a JSON-RPC error, even
 * on an HTTP 4xx that carries one); throws when the answer is no JSON-RPC message at all.
 * `headers` (per request) override the computed ones, e.g. to send a wrong Mcp-Name.
 */
export async function postRpc(
  target: WireTarget,
  request: { method: string; params?: Record<string, unknown> },
  options: {
    signal?: AbortSignal;
    headers?: Record<string, string>;
    /** Hears each other message on an SSE answer (progress, logs), in order, before the answer. */
    onMessage?: (message: Record<string, unknown>) => void;
  } = {},
): Promise<RpcOutcome> {
  const id = nextId++;
  const timeout = AbortSignal.timeout(target.timeoutMs ?? 15_000);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  const response = await fetch(target.url, {
    method: 'POST',
    headers: mergeHeaders(requestHeaders(request.method, request.params), target.headers, options.headers),
    body: JSON.stringify({ jsonrpc: '2.0', id, ...request }),
    signal,
  });
  const type = response.headers.get('content-type') ?? '';
  if (type.includes('text/event-stream') && response.body) {
    for await (const message of sseMessages(response.body)) {
      if (message.id === id) return outcomeOf(message, response.status);
      options.onMessage?.(message);
    }
    throw new Error(`${request.method}: the SSE stream ended without an answer (HTTP ${response.status})`);
  }
  const text = await response.text();
  let message: Record<string, unknown>;
  try {
    message = JSON.parse(text) as Record<string, unknown>;
  } catch {
    throw new Error(`${request.method}: HTTP ${response.status} with no JSON-RPC body: ${text.slice(0, 200)}`);
  }
  return outcomeOf(message, response.status);
}

/** An open `subscriptions/listen` stream for task status notifications. */
export interface TaskListen {
  /** The task ids the server accepted (from notifications/subscriptions/acknowledged). */
  acknowledged: Promise<string[]>;
  /** Every `notifications/tasks` params received so far, in order. */
  received: Record<string, unknown>[];
  /** Resolves with the first notification (already received or later) matching `predicate`. */
  next(predicate: (task: Record<string, unknown>) => boolean, timeoutMs?: number): Promise<Record<string, unknown>>;
  close(): void;
}

/**
 * Opens `subscriptions/listen` for `taskIds` (spec: Task Status Notifications). `params` is the
 * request's params without `notifications` (the caller frames `_meta`).
 */
export async function listenTasks(
  target: WireTarget,
  taskIds: string[],
  params: Record<string, unknown>,
): Promise<TaskListen> {
  const controller = new AbortController();
  const method = 'subscriptions/listen';
  const response = await fetch(target.url, {
    method: 'POST',
    headers: mergeHeaders(requestHeaders(method, undefined), target.headers),
    body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params: { ...params, notifications: { taskIds } } }),
    signal: controller.signal,
  });
  if (!(response.headers.get('content-type') ?? '').includes('text/event-stream') || !response.body) {
    throw new Error(`subscriptions/listen: HTTP ${response.status}: ${(await response.text()).slice(0, 300)}`);
  }
  const received: Record<string, unknown>[] = [];
  const waiters = new Set<() => void>();
  let acknowledge: (ids: string[]) => void = () => undefined;
  let fail: (error: Error) => void = () => undefined;
  const acknowledged = new Promise<string[]>((resolve, reject) => {
    acknowledge = resolve;
    fail = reject;
  });
  void (async () => {
    try {
      for await (const message of sseMessages(response.body!)) {
        const params = (message.params ?? {}) as Record<string, unknown>;
        if (message.method === 'notifications/subscriptions/acknowledged') {
          acknowledge(((params.notifications as { taskIds?: string[] })?.taskIds ?? []) as string[]);
        } else if (message.method === 'notifications/tasks') {
          received.push(params);
          for (const wake of waiters) wake();
        }
      }
      fail(new Error('subscriptions/listen: stream ended before the acknowledgement'));
    } catch (error) {
      fail(error as Error);
    }
  })();
  return {
    acknowledged,
    received,
    next(predicate, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = (): boolean => {
          const found = received.find(predicate);
          if (found === undefined) return false;
          waiters.delete(wake);
          clearTimeout(timer);
          resolve(found);
          return true;
        };
        const wake = (): void => void check();
        const timer = setTimeout(() => {
          waiters.delete(wake);
          reject(new Error(`no matching notifications/tasks within ${timeoutMs} ms; got ${JSON.stringify(received)}`));
        }, timeoutMs);
        waiters.add(wake);
        check();
      });
    },
    close: () => controller.abort(),
  };
}
