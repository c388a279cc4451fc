/**
 * Every answer reaches its caller. A backend may send a result we parse but
 * cannot serialize again (V8's JSON.stringify overflows its stack a few
 * thousand levels deep, while JSON.parse does not); the SDK's Protocol then
 * only reports "Failed to send response" to `onerror` and the caller waits
 * forever on an empty stream. Two guards close that gap: results are checked
 * before a handler returns them (all eras, all frontends), and a transport's
 * failed response send is replaced by a JSON-RPC error for the same id
 * (JSON-RPC 2.0 §5: every request gets a response).
 */
import { ProtocolError, ProtocolErrorCode, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/server';
import type { Logger } from '../../platform/deps.js';
import { ErrorCode } from '../../../../shared/errors.js';

/** Below this depth every result serializes; only deeper ones are test-serialized. */
const SAFE_DEPTH = 256;

/** True when `value` nests objects or arrays deeper than `limit` (iterative: deep input cannot overflow us). */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop() as [unknown, number];
    if (typeof item !== 'object' || item === null) continue;
    if (depth >= limit) return true;
    for (const child of Object.values(item)) {
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}

/**
 * Returns `result` when it can be sent, else throws -32603 naming why (and logs
 * it), so the caller gets an error instead of silence.
 */
export function relayable<T>(result: T, what: string, logger: Logger): T {
  if (!nestsDeeperThan(result, SAFE_DEPTH)) return result;
  try {
    JSON.stringify(result);
    return result;
  } catch (error) {
    const reason = error instanceof RangeError ? 'it is nested too deeply to serialize' : describe(error);
    const message = `the answer to ${what} cannot be relayed: ${reason}`;
    logger.warn(message);
    throw new ProtocolError(ProtocolErrorCode.InternalError, message, { code: ErrorCode.UnrelayableResult });
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function isResponse(message: JSONRPCMessage): message is JSONRPCMessage & { id: string | number } {
  return 'id' in message && !('method' in message) && ('result' in message || 'error' in message);
}

/**
 * Wraps `transport.send` so a response that fails to send (serialization, a
 * write error) is logged and replaced by a JSON-RPC internal error for the
 * same request; if even that fails the failure is rethrown to the SDK.
 */
export function guardResponses<T extends Transport>(transport: T, logger: Logger): T {
  const send = transport.send.bind(transport);
  transport.send = async (message, options) => {
    try {
      await send(message, options);
    } catch (error) {
      if (!isResponse(message)) throw error;
      const text = `the answer to request ${JSON.stringify(message.id)} could not be sent: ${describe(error)}`;
      logger.warn(text);
      await send(
        { jsonrpc: '2.0', id: message.id, error: { code: ProtocolErrorCode.InternalError, message: text } },
        options,
      );
    }
  };
  return transport;
}
