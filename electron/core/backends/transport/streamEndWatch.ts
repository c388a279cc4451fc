/**
 * A request whose response stream ends without its answer fails at once.
 * Over Streamable HTTP a request's answer comes on the SSE stream of its POST
 * (spec 2025-11-25 "Transports > Sending Messages to the Server"); when that
 * stream ends or breaks first and the SDK does not resume it, the SDK tells
 * only `onRequestStreamEnd`, which its Client does not use, so the request
 * would wait out `requestTimeoutMs`. Here each request gets such a callback
 * that, if no answer came, delivers a JSON-RPC error for its id.
 */
import type { JSONRPCMessage, Transport, TransportSendOptions } from '@modelcontextprotocol/client';
import { ErrorCode } from '../../../../shared/errors.js';

/** Per-transport state shared with the fetch that enforces maxMessageBytes. */
export interface StreamFailures {
  /** Why a stream was last cut by us (an oversize event), consumed by the next failure reported. */
  last?: string | undefined;
}

type Id = string | number;
const keyOf = (id: Id): string => JSON.stringify(id);
/** Methods that hold their stream open on purpose and report its end themselves. */
const OWN_STREAM_END = new Set(['subscriptions/listen']);
/** Unanswered entries older than this are forgotten (their requests timed out long ago). */
const FORGET_AFTER_MS = 3_600_000;

function isResponse(message: JSONRPCMessage): message is JSONRPCMessage & { id: Id } {
  return 'id' in message && !('method' in message);
}

/** Installs the watch on `transport` (before `connect`, which sets its `onmessage`). */
export function failRequestsOnStreamEnd(transport: Transport, backendId: string, failures: StreamFailures): void {
  const unanswered = new Map<string, { method: string; since: number }>();
  // Each handler set is wrapped to see answers go by; the SDK chains handlers
  // (a new one may call the one it replaced), so the getter returns what was stored.
  let handler: Transport['onmessage'];
  Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    get: () => handler,
    set: (value: Transport['onmessage']) => {
      handler = value
        ? (message, extra) => {
            if (isResponse(message)) unanswered.delete(keyOf(message.id));
            value(message, extra);
          }
        : value;
    },
  });
  const send = transport.send.bind(transport);
  transport.send = (message: JSONRPCMessage, options?: TransportSendOptions) => {
    if (!('method' in message) || !('id' in message) || OWN_STREAM_END.has(message.method)) {
      return send(message, options);
    }
    const id = message.id as Id;
    const key = keyOf(id);
    const now = Date.now();
    for (const [old, entry] of unanswered) if (now - entry.since > FORGET_AFTER_MS) unanswered.delete(old);
    unanswered.set(key, { method: message.method, since: now });
    const onRequestStreamEnd = (): void => {
      options?.onRequestStreamEnd?.();
      const entry = unanswered.get(key);
      if (!entry) return;
      unanswered.delete(key);
      const cause = failures.last;
      failures.last = undefined;
      const why = cause ? `it sent ${cause}` : 'the stream ended before the answer';
      handler?.({
        jsonrpc: '2.0',
        id,
        error: {
          code: -32603,
          message: `backend "${backendId}" did not answer ${entry.method}: ${why}`,
          data: { code: cause ? ErrorCode.MessageTooLarge : ErrorCode.StreamEnded },
        },
      });
    };
    return send(message, { ...options, onRequestStreamEnd }).catch((error: unknown) => {
      unanswered.delete(key);
      throw error;
    });
  };
}
