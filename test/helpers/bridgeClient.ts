/**
 * A small Node client of the headless bridge for tests: the contract's
 * `CoreClient` over a WebSocket (`{id, method, params}` -> `{id, ok, result |
 * error}`, pushed `{event, payload}`), authenticated with the main bearer
 * token or a UI session cookie.
 */
import { WebSocket } from 'ws';
import type {
  CallOptions,
  CallOutcome,
  CoreClient,
  CoreEventMap,
  EventName,
  MethodName,
} from '../../shared/contract.js';

/** How to reach and authenticate to the bridge. */
export interface BridgeClientOptions {
  /** `http://127.0.0.1:<port>` (the endpoint's origin). */
  origin: string;
  /** The main bearer token (Authorization header). */
  token?: string;
  /** A `name=value` session cookie from the login exchange. */
  cookie?: string;
  /** The Origin header to send (default: `origin`); `null` sends none. */
  originHeader?: string | null;
}

/** A connected bridge client; every frame it sent and received is kept for inspection. */
export interface BridgeClient extends CoreClient {
  /** Raw JSON text of every frame received (answers and events). */
  readonly received: string[];
  /** Settles with the close code once the socket is closed (by either side). */
  readonly closed: Promise<number>;
  /** Sends a raw frame (for malformed-frame tests) and waits for the answer with that id. */
  raw(frame: unknown, id?: string | number | null): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

/** Opens the WebSocket; rejects with the HTTP status when the upgrade is refused. */
export function connectBridge(options: BridgeClientOptions): Promise<BridgeClient> {
  const url = `${options.origin.replace(/^http/, 'ws')}/bridge`;
  const headers: Record<string, string> = {};
  if (options.token) headers['Authorization'] = `Bearer ${options.token}`;
  if (options.cookie) headers['Cookie'] = options.cookie;
  const origin = options.originHeader === undefined ? options.origin : options.originHeader;
  const ws = new WebSocket(url, { headers, ...(origin !== null ? { origin } : {}) });
  const received: string[] = [];
  const waiting = new Map<string | number | null, (frame: Record<string, unknown>) => void>();
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  let next = 0;
  ws.on('message', (data) => {
    const text = data.toString();
    received.push(text);
    const frame = JSON.parse(text) as Record<string, unknown>;
    if (typeof frame['event'] === 'string') {
      for (const listener of listeners.get(frame['event']) ?? []) listener(frame['payload']);
      return;
    }
    const id = frame['id'] as string | number | null;
    const resolve = waiting.get(id);
    waiting.delete(id);
    resolve?.(frame);
  });
  const raw = (frame: unknown, id: string | number | null = null) =>
    new Promise<Record<string, unknown>>((resolve) => {
      waiting.set(id, resolve);
      ws.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
    });
  const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
  const client: BridgeClient = {
    received,
    closed,
    raw,
    async call(method: MethodName, params?: unknown, options?: CallOptions): Promise<CallOutcome<never>> {
      const id = `c${++next}`;
      const answered = raw({ id, method, params }, id);
      const signal = options?.signal;
      // Cancelling sends `{cancel: id}` (the bridge owes no answer then) and settles at once.
      const cancelled = new Promise<Record<string, unknown>>((resolve) =>
        signal?.addEventListener('abort', () => {
          waiting.delete(id);
          ws.send(JSON.stringify({ cancel: id }));
          resolve({ ok: false, error: { code: 'cancelled', message: `${method}: cancelled` } });
        }),
      );
      const frame = await Promise.race([answered, cancelled]);
      return (
        frame['ok'] === true ? { ok: true, result: frame['result'] } : { ok: false, error: frame['error'] }
      ) as CallOutcome<never>;
    },
    on<E extends EventName>(event: E, listener: (payload: CoreEventMap[E]) => void) {
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      set.add(listener as (payload: unknown) => void);
      return () => void set.delete(listener as (payload: unknown) => void);
    },
    close: () =>
      new Promise<void>((resolve) => {
        if (ws.readyState === ws.CLOSED) return resolve();
        ws.once('close', () => resolve());
        ws.close();
      }),
  };
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(client));
    ws.once('unexpected-response', (_req, res) => {
      reject(Object.assign(new Error(`bridge refused: ${res.statusCode}`), { status: res.statusCode }));
      res.resume();
    });
    ws.once('error', reject);
  });
}

/** Exchanges a one-time login URL for the session cookie (`name=value`); rejects when refused. */
export async function login(loginUrl: string): Promise<string> {
  const res = await fetch(loginUrl, { redirect: 'manual' });
  const cookie = res.headers.get('set-cookie');
  if (res.status !== 303 || !cookie)
    throw Object.assign(new Error(`login refused: ${res.status}`), { status: res.status });
  return cookie.split(';')[0] as string;
}
