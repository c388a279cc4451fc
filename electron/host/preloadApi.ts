/**
 * The body of the Electron preload, as a pure function so it can be tested
 * without Electron: it exposes exactly `window.switchboard = { call, on }`
 * (the contract's `CoreClient`) and nothing else. `call` refuses a method
 * that is not in the contract before anything reaches the main process, and
 * `on` hands listeners the payload only (never the IPC event or sender).
 * A call given a `signal` carries a call id; aborting it settles the call at
 * once as `cancelled` and tells the main process (`CANCEL_CHANNEL`), whose
 * handler's AbortSignal then aborts.
 * No electron import here: the two Electron objects come in as parameters.
 */
import {
  EVENT_NAMES,
  METHOD_NAMES,
  type CallOptions,
  type CallOutcome,
  type CoreClient,
} from '../../shared/contract.js';
import { ErrorCode } from '../../shared/errors.js';

/** The invoke channel of a method (one per contract method). */
export const methodChannel = (method: string): string => `switchboard:call:${method}`;
/** The channel every event arrives on, as `(event, payload)`. */
export const EVENT_CHANNEL = 'switchboard:event';
/** The channel a cancelled call's id is sent on, renderer -> main. */
export const CANCEL_CHANNEL = 'switchboard:cancel';
/** The global the renderer finds the client under. */
export const EXPOSED_KEY = 'switchboard';

/** The part of Electron's `contextBridge` the preload uses. */
export interface ContextBridgeLike {
  exposeInMainWorld(apiKey: string, api: unknown): void;
}

/** The part of Electron's `ipcRenderer` the preload uses. */
export interface IpcRendererLike {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  /** Needed for cancelling calls (Electron's ipcRenderer has it). */
  send?(channel: string, ...args: unknown[]): void;
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
}

const METHODS: ReadonlySet<string> = new Set(METHOD_NAMES);
const EVENTS: ReadonlySet<string> = new Set(EVENT_NAMES);

function cancelled(method: string): CallOutcome<never> {
  return { ok: false, error: { code: ErrorCode.Cancelled, message: `${method}: cancelled` } };
}

/** Builds the client and exposes it as `window.switchboard`; returns it (for tests). */
export function exposeContract(contextBridge: ContextBridgeLike, ipcRenderer: IpcRendererLike): CoreClient {
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  let subscribed = false;
  const subscribe = (): void => {
    if (subscribed) return;
    subscribed = true;
    ipcRenderer.on(EVENT_CHANNEL, (_event, name, payload) => {
      for (const listener of listeners.get(String(name)) ?? []) {
        try {
          listener(payload);
        } catch (error) {
          console.error(`switchboard: listener for ${String(name)} failed`, error);
        }
      }
    });
  };
  let nextCallId = 0;
  const call = async (method: unknown, params?: unknown, options?: CallOptions): Promise<CallOutcome<unknown>> => {
    if (typeof method !== 'string' || !METHODS.has(method)) {
      return {
        ok: false,
        error: { code: ErrorCode.UnknownMethod, message: `no method "${String(method)}" in the contract` },
      };
    }
    const signal = options?.signal;
    if (signal?.aborted) return cancelled(method);
    try {
      if (!signal) return (await ipcRenderer.invoke(methodChannel(method), params)) as CallOutcome<unknown>;
      const callId = ++nextCallId;
      const answer = ipcRenderer.invoke(methodChannel(method), params, callId) as Promise<CallOutcome<unknown>>;
      let onAbort = (): void => undefined;
      const aborted = new Promise<CallOutcome<unknown>>((resolve) => {
        onAbort = () => {
          ipcRenderer.send?.(CANCEL_CHANNEL, callId);
          resolve(cancelled(method));
        };
        signal.addEventListener('abort', onAbort, { once: true });
      });
      try {
        return await Promise.race([answer, aborted]);
      } finally {
        signal.removeEventListener('abort', onAbort);
      }
    } catch (error) {
      return {
        ok: false,
        error: { code: ErrorCode.IpcFailed, message: error instanceof Error ? error.message : String(error) },
      };
    }
  };
  const on = (event: unknown, listener: unknown): (() => void) => {
    if (typeof event !== 'string' || !EVENTS.has(event) || typeof listener !== 'function') return () => {};
    subscribe();
    let set = listeners.get(event);
    if (!set) listeners.set(event, (set = new Set()));
    const wrapped = (payload: unknown): void => (listener as (payload: unknown) => void)(payload);
    set.add(wrapped);
    return () => void set.delete(wrapped);
  };
  const api = Object.freeze({ call, on }) as unknown as CoreClient;
  contextBridge.exposeInMainWorld(EXPOSED_KEY, api);
  return api;
}

/** An IPC event as far as the main process reads it: the calling page, and its WebContents. */
export interface IpcEventLike {
  senderFrame?: { url: string } | null;
  sender?: { id: number };
}

/** The part of Electron's `ipcMain` the main process uses. */
export interface IpcMainLike {
  handle(channel: string, listener: (event: IpcEventLike, ...args: unknown[]) => unknown): void;
  removeHandler(channel: string): void;
  /** Needed for cancelling calls (Electron's ipcMain has both). */
  on?(channel: string, listener: (event: IpcEventLike, ...args: unknown[]) => void): void;
  removeListener?(channel: string, listener: (event: IpcEventLike, ...args: unknown[]) => void): void;
}

/**
 * Registers one invoke handler per contract method, each going through
 * `call` (the shared dispatch) with the call's AbortSignal, for senders
 * `allowed` accepts, and the cancel channel that aborts it; returns the
 * function that removes them.
 */
export function registerContractHandlers(
  ipcMain: IpcMainLike,
  call: (method: string, params: unknown, signal: AbortSignal) => Promise<CallOutcome<unknown>>,
  allowed: (senderUrl: string | undefined) => boolean,
): () => void {
  /** Calls that carry a call id, by sender and id, until they settle. */
  const cancellable = new Map<string, AbortController>();
  const keyOf = (event: IpcEventLike, callId: unknown): string => `${event.sender?.id ?? 0}:${String(callId)}`;
  for (const method of METHOD_NAMES) {
    ipcMain.handle(methodChannel(method), async (event, params, callId) => {
      if (!allowed(event.senderFrame?.url)) {
        return { ok: false, error: { code: ErrorCode.Forbidden, message: 'this page may not call Switchboard' } };
      }
      const controller = new AbortController();
      if (typeof callId !== 'number') return call(method, params, controller.signal);
      const key = keyOf(event, callId);
      cancellable.set(key, controller);
      try {
        return await call(method, params, controller.signal);
      } finally {
        cancellable.delete(key);
      }
    });
  }
  const onCancel = (event: IpcEventLike, callId: unknown): void => cancellable.get(keyOf(event, callId))?.abort();
  ipcMain.on?.(CANCEL_CHANNEL, onCancel);
  return () => {
    for (const method of METHOD_NAMES) ipcMain.removeHandler(methodChannel(method));
    ipcMain.removeListener?.(CANCEL_CHANNEL, onCancel);
    for (const controller of cancellable.values()) controller.abort();
  };
}

/** A URL without its query and fragment, or undefined when it does not parse. */
function withoutQuery(url: string): URL | undefined {
  try {
    const parsed = new URL(url);
    parsed.search = '';
    parsed.hash = '';
    return parsed;
  } catch {
    return undefined;
  }
}

/**
 * Which IPC senders may call the core: the UI's own page, exactly (`pageUrl`,
 * the file:// URL of the built index.html; the sender's query and fragment
 * are ignored), or any page of the dev server's origin (`devUrl`, when the UI
 * runs from Vite). Anything else (another file, a look-alike path, a page
 * the window was made to navigate to) is refused.
 */
export function senderCheck(pageUrl: string, devUrl?: string): (senderUrl: string | undefined) => boolean {
  const page = withoutQuery(pageUrl)?.href;
  const devOrigin = devUrl ? withoutQuery(devUrl)?.origin : undefined;
  return (senderUrl) => {
    if (senderUrl === undefined) return false;
    const sender = withoutQuery(senderUrl);
    if (!sender) return false;
    if (devOrigin !== undefined && devOrigin !== 'null' && sender.origin === devOrigin) return true;
    return page !== undefined && sender.href === page;
  };
}
