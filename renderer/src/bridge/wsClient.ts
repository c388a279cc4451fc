/**
 * The headless pipe: a CoreClient over one WebSocket to `/bridge`.
 *
 * Frames: we send `{id, method, params}`; the server answers
 * `{id, ok: true, result}` or `{id, ok: false, error}` and pushes
 * `{event, payload}`. Authentication is the session cookie the server set
 * when it exchanged the one-time login token, so connecting is all we do.
 *
 * A call given a `signal` settles as `cancelled` when it aborts, and we send
 * `{cancel: id}` so the core stops the work (a call still waiting for a
 * connection is just dropped).
 *
 * When the socket drops, calls in flight settle with a `disconnected` error,
 * new calls wait for the next connection, and we reconnect with exponential
 * backoff (with jitter) until `close()`.
 */
import { ErrorCode, type ErrorData } from '../../../shared/errors.js';
import type { CallOptions, CallOutcome, CoreEventMap, EventName, MethodName } from '../../../shared/contract.js';
import type { BridgeClient, ConnectionState } from './connection.js';

/** Tuning for reconnects and waiting calls. */
export interface WsClientOptions {
  /** First reconnect delay (ms); doubles per failed attempt. */
  initialDelayMs?: number;
  /** Longest reconnect delay (ms). */
  maxDelayMs?: number;
  /** How long a call waits for a connection before failing (ms). */
  callTimeoutMs?: number;
  /** The WebSocket constructor (tests may pass another). */
  WebSocketImpl?: typeof WebSocket;
}

interface PendingCall {
  resolve: (outcome: CallOutcome<unknown>) => void;
  timer: ReturnType<typeof setTimeout> | undefined;
  /** Stops listening to the call's signal. */
  release?: () => void;
}

type Listener = (payload: unknown) => void;

/** The bridge URL for the page's own origin: `ws(s)://<host>/bridge`. */
export function bridgeUrlFor(location: { protocol: string; host: string }): string {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/bridge`;
}

/** Opens a reconnecting WebSocket CoreClient to `url`. */
export function createWsClient(url: string, options: WsClientOptions = {}): BridgeClient {
  const initialDelayMs = options.initialDelayMs ?? 250;
  const maxDelayMs = options.maxDelayMs ?? 5_000;
  const callTimeoutMs = options.callTimeoutMs ?? 30_000;
  const Impl = options.WebSocketImpl ?? WebSocket;

  const eventListeners = new Map<string, Set<Listener>>();
  const stateListeners = new Set<(state: ConnectionState) => void>();
  const inFlight = new Map<number, PendingCall>();
  /** Frames waiting for a connection, with their call ids. */
  const waiting: { id: number; frame: string }[] = [];
  let state: ConnectionState = 'connecting';
  let socket: WebSocket | undefined;
  let nextId = 1;
  let attempt = 0;
  let closed = false;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;

  const setState = (next: ConnectionState): void => {
    if (next === state) return;
    state = next;
    for (const listener of [...stateListeners]) listener(next);
  };

  const settle = (id: number, outcome: CallOutcome<unknown>): void => {
    const pending = inFlight.get(id);
    if (!pending) return;
    inFlight.delete(id);
    if (pending.timer) clearTimeout(pending.timer);
    pending.release?.();
    pending.resolve(outcome);
  };

  const onMessage = (raw: unknown): void => {
    let frame: Record<string, unknown>;
    try {
      frame = JSON.parse(String(raw)) as Record<string, unknown>;
    } catch {
      return;
    }
    if (typeof frame['event'] === 'string') {
      for (const listener of [...(eventListeners.get(frame['event']) ?? [])]) listener(frame['payload'] ?? {});
      return;
    }
    if (typeof frame['id'] !== 'number') return;
    if (frame['ok'] === true) settle(frame['id'], { ok: true, result: frame['result'] });
    else {
      const error = frame['error'] as ErrorData | undefined;
      settle(frame['id'], { ok: false, error: error ?? { code: ErrorCode.Internal, message: 'malformed answer' } });
    }
  };

  const scheduleReconnect = (): void => {
    if (closed) return;
    const delay = Math.min(maxDelayMs, initialDelayMs * 2 ** attempt);
    attempt += 1;
    const jittered = delay / 2 + Math.random() * (delay / 2);
    retryTimer = setTimeout(connect, jittered);
  };

  function connect(): void {
    if (closed) return;
    const ws = new Impl(url);
    socket = ws;
    ws.onopen = () => {
      attempt = 0;
      setState('open');
      for (const { id, frame } of waiting.splice(0)) {
        // Sent now: it no longer waits for a connection, so its wait timer must not settle it.
        const pending = inFlight.get(id);
        if (pending?.timer) clearTimeout(pending.timer);
        if (pending) pending.timer = undefined;
        ws.send(frame);
      }
    };
    ws.onmessage = (message) => onMessage(message.data);
    ws.onclose = () => {
      if (socket !== ws) return;
      socket = undefined;
      const lost = { code: ErrorCode.Disconnected, message: 'The connection to Switchboard was lost.' };
      const waitingIds = new Set(waiting.map((w) => w.id));
      for (const id of [...inFlight.keys()]) if (!waitingIds.has(id)) settle(id, { ok: false, error: lost });
      if (closed) return;
      setState('reconnecting');
      scheduleReconnect();
    };
    ws.onerror = () => undefined; // onclose follows and handles it
  }

  /** Settles call `id` as cancelled; the core is told when the call was sent already. */
  const cancel = (id: number, method: MethodName): void => {
    const index = waiting.findIndex((w) => w.id === id);
    if (index >= 0) waiting.splice(index, 1);
    else if (socket && socket.readyState === Impl.OPEN) socket.send(JSON.stringify({ cancel: id }));
    settle(id, { ok: false, error: { code: ErrorCode.Cancelled, message: `${method}: cancelled` } });
  };

  const call = (method: MethodName, params?: unknown, options?: CallOptions): Promise<CallOutcome<unknown>> =>
    new Promise((resolve) => {
      if (closed) {
        resolve({ ok: false, error: { code: ErrorCode.Disconnected, message: 'The client is closed.' } });
        return;
      }
      const signal = options?.signal;
      if (signal?.aborted) {
        resolve({ ok: false, error: { code: ErrorCode.Cancelled, message: `${method}: cancelled` } });
        return;
      }
      const id = nextId++;
      const frame = JSON.stringify(params === undefined ? { id, method } : { id, method, params });
      const pending: PendingCall = { resolve, timer: undefined };
      inFlight.set(id, pending);
      if (signal) {
        const onAbort = (): void => cancel(id, method);
        signal.addEventListener('abort', onAbort, { once: true });
        pending.release = () => signal.removeEventListener('abort', onAbort);
      }
      if (socket && socket.readyState === Impl.OPEN) {
        socket.send(frame);
        return;
      }
      waiting.push({ id, frame });
      pending.timer = setTimeout(() => {
        const index = waiting.findIndex((w) => w.id === id);
        if (index >= 0) waiting.splice(index, 1);
        settle(id, { ok: false, error: { code: ErrorCode.Disconnected, message: 'Switchboard is not reachable.' } });
      }, callTimeoutMs);
    });

  connect();

  return {
    call: call as BridgeClient['call'],
    on<E extends EventName>(event: E, listener: (payload: CoreEventMap[E]) => void) {
      const set = eventListeners.get(event) ?? new Set<Listener>();
      eventListeners.set(event, set);
      set.add(listener as Listener);
      return () => set.delete(listener as Listener);
    },
    connectionState: () => state,
    onConnectionChange(listener) {
      stateListeners.add(listener);
      return () => stateListeners.delete(listener);
    },
    close() {
      closed = true;
      if (retryTimer) clearTimeout(retryTimer);
      socket?.close();
      const gone = { code: ErrorCode.Disconnected, message: 'The client is closed.' };
      for (const id of [...inFlight.keys()]) settle(id, { ok: false, error: gone });
      waiting.length = 0;
    },
  };
}
