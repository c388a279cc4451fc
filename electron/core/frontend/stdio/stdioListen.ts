/**
 * 2026-07-28 resource subscriptions over stdio. `serveStdio` answers
 * `subscriptions/listen` itself and acknowledges any URI, so the proxy looks
 * at each listen before it does (a transport wrapper): unknown URIs and
 * template instances are refused in-band with no acknowledgement, accepted
 * ones are subscribed upstream first, and released when the listen ends
 * (`notifications/cancelled`, a graceful end, or the connection closing).
 */
import {
  ProtocolError,
  ProtocolErrorCode,
  type JSONRPCMessage,
  type JSONRPCNotification,
  type Transport,
} from '@modelcontextprotocol/server';
import { wantsTaskListen } from '../http/taskListen.js';

/** What the wrapper calls as listens come and go. */
export interface ListenHooks {
  /** Validates and subscribes; throws a ProtocolError to refuse the listen. */
  onListen(id: string | number, uris: string[]): Promise<void>;
  onListenEnd(id: string | number): void;
  onClose(): void;
  /**
   * Serves a listen naming `taskIds` (taskListen.ts) instead of the SDK, which
   * drops that filter: sends its acknowledgement and pushes through `send`,
   * resolves with its end; rejects with a ProtocolError to refuse it.
   */
  onTaskListen?(message: JSONRPCMessage, send: (notification: JSONRPCNotification) => void): Promise<() => void>;
  /** Sees every incoming message first (session tracking). */
  onMessage?(message: JSONRPCMessage): void;
}

/** The resource URIs a listen request asks for. */
export function listenUris(message: unknown): string[] {
  const requested = (message as { params?: { notifications?: { resourceSubscriptions?: unknown } } }).params
    ?.notifications?.resourceSubscriptions;
  return Array.isArray(requested)
    ? [...new Set(requested.filter((uri): uri is string => typeof uri === 'string'))]
    : [];
}

/** Whether a listen request asks for `notifications/tools/list_changed`. */
export function listensForTools(message: unknown): boolean {
  return (
    (message as { params?: { notifications?: { toolsListChanged?: unknown } } }).params?.notifications
      ?.toolsListChanged === true
  );
}

/** Wraps a stdio server transport so listens pass through `hooks` first; messages keep their order. */
export function interceptListen(wire: Transport, hooks: ListenHooks): Transport {
  const live = new Set<string | number>();
  const taskListens = new Map<string | number, () => void>();
  let chain = Promise.resolve();
  const refuse = async (id: string | number, error: unknown): Promise<void> => {
    const refusal =
      error instanceof ProtocolError ? error : new ProtocolError(ProtocolErrorCode.InternalError, String(error));
    await wire.send({
      jsonrpc: '2.0',
      id,
      error: { code: refusal.code, message: refusal.message, ...(refusal.data ? { data: refusal.data } : {}) },
    });
  };
  const wrapper: Transport = {
    start: () => wire.start(),
    close: () => wire.close(),
    async send(message: JSONRPCMessage, options) {
      // A listen's result is its graceful end.
      if ('id' in message && !('method' in message) && live.delete(message.id as string | number)) {
        hooks.onListenEnd(message.id as string | number);
      }
      return wire.send(message, options);
    },
  };
  wire.onmessage = (message, extra) => {
    hooks.onMessage?.(message);
    chain = chain.then(async () => {
      const request = message as { method?: string; id?: string | number; params?: { requestId?: string | number } };
      if (request.method === 'subscriptions/listen' && request.id !== undefined && hooks.onTaskListen) {
        if (wantsTaskListen(message)) {
          try {
            taskListens.set(
              request.id,
              await hooks.onTaskListen(message, (note) => void wire.send(note).catch(() => {})),
            );
          } catch (error) {
            await refuse(request.id, error);
          }
          return;
        }
      }
      if (request.method === 'subscriptions/listen' && request.id !== undefined) {
        try {
          await hooks.onListen(request.id, listenUris(message));
          live.add(request.id);
        } catch (error) {
          return refuse(request.id, error);
        }
      }
      const cancelled = request.params?.requestId;
      if (request.method === 'notifications/cancelled' && cancelled !== undefined && taskListens.has(cancelled)) {
        taskListens.get(cancelled)!();
        taskListens.delete(cancelled);
        return;
      }
      if (request.method === 'notifications/cancelled' && cancelled !== undefined && live.delete(cancelled)) {
        hooks.onListenEnd(cancelled);
      }
      wrapper.onmessage?.(message, extra);
    });
  };
  wire.onclose = () => {
    live.clear();
    for (const stop of taskListens.values()) stop();
    taskListens.clear();
    hooks.onClose();
    wrapper.onclose?.();
  };
  wire.onerror = (error) => wrapper.onerror?.(error);
  return wrapper;
}
