/**
 * How failures cross the wire: local errors (string codes) become JSON-RPC
 * protocol errors; an unknown, removed or hidden item is invalid params
 * (-32602), as the spec asks for unknown tools, prompts and resources.
 */
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { ErrorCode, SwitchboardError } from '../../../../shared/errors.js';

/**
 * JSON-RPC codes for local failures. -32001 is the conventional request-timeout
 * code (the v1 SDK's `RequestTimeout`); -32000 is the implementation-defined
 * server-error range for "backend busy / unavailable". `data.code` carries our
 * local code so clients and the UI can tell them apart.
 */
const WIRE_CODE: Partial<Record<ErrorCode, number>> = {
  [ErrorCode.Timeout]: -32001,
  [ErrorCode.QueueFull]: -32000,
  [ErrorCode.BackendUnavailable]: -32000,
  [ErrorCode.BackendRemoved]: -32000,
  [ErrorCode.TaskLimit]: -32000,
  [ErrorCode.RateLimited]: -32000,
};

/** Turns a local error into the protocol error a frontend receives; protocol errors pass through. */
export function toProtocolError(error: unknown): unknown {
  if (error instanceof SwitchboardError) {
    return new ProtocolError(WIRE_CODE[error.code] ?? ProtocolErrorCode.InternalError, error.message, {
      code: error.code,
      ...error.data,
    });
  }
  return error;
}

/** The answer to an unknown (or hidden) item. */
export function unknownItem(kind: string, name: string): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown ${kind}: ${name}`);
}
