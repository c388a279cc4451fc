/**
 * The one translation of whatever is thrown (our errors, the MCP SDK's local
 * `SdkError`s, JSON-RPC `ProtocolError`s from a backend or the wire, aborts,
 * Node and plain errors) into contract error data with a code of the closed
 * set in shared/errors.ts. Local codes pass as they are; a JSON-RPC error
 * keeps its number in `data.rpcCode` (JSON-RPC 2.0 §5.1 codes are the wire's,
 * never ours); anything without a code of ours is `internal`.
 */
import {
  ProtocolError,
  ProtocolErrorCode,
  SdkError,
  SdkErrorCode,
  UnauthorizedError,
} from '@modelcontextprotocol/client';
import { ErrorCode, SwitchboardError, isErrorCode, type ErrorData } from '../../../shared/errors.js';

/** SDK-local failures that have a code of ours; the rest are `internal` (with `data.sdkCode`). */
const SDK_CODES: Partial<Record<SdkErrorCode, ErrorCode>> = {
  [SdkErrorCode.RequestTimeout]: ErrorCode.Timeout,
  [SdkErrorCode.ConnectionClosed]: ErrorCode.BackendUnavailable,
  [SdkErrorCode.NotConnected]: ErrorCode.BackendUnavailable,
  [SdkErrorCode.SendFailed]: ErrorCode.BackendUnavailable,
  [SdkErrorCode.CapabilityNotSupported]: ErrorCode.NotSupported,
  [SdkErrorCode.ClientHttpAuthentication]: ErrorCode.AuthorizationRequired,
};

/** Whether `error` is the reason of an aborted AbortSignal (a cancellation or an `AbortSignal.timeout`). */
export function isAbortError(error: unknown): boolean {
  return error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError');
}

/**
 * A JSON-RPC error: the SDK's `ProtocolError`, or an error another MCP
 * implementation raised with a numeric JSON-RPC code (the v1 SDK's `McpError`).
 */
function rpcCodeOf(error: Error): number | undefined {
  if (ProtocolError.isInstance(error)) return error.code;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'number' && Number.isInteger(code) ? code : undefined;
}

/** A JSON-RPC error as contract data: invalid params, a local code it carried over the wire, or protocol_error. */
function fromRpc(error: Error, rpcCode: number): ErrorData {
  const carried = (error as { data?: { code?: unknown } }).data?.code;
  const code =
    rpcCode === ProtocolErrorCode.InvalidParams
      ? ErrorCode.InvalidParams
      : isErrorCode(carried)
        ? carried
        : ErrorCode.ProtocolError;
  return { code, message: error.message, data: { rpcCode } };
}

/** Turns anything thrown into contract error data with a code of the closed set. */
export function toErrorData(error: unknown): ErrorData {
  if (error instanceof SwitchboardError) return error.toData();
  if (!(error instanceof Error)) return { code: ErrorCode.Internal, message: String(error) };
  if (isAbortError(error)) {
    return { code: error.name === 'TimeoutError' ? ErrorCode.Timeout : ErrorCode.Cancelled, message: error.message };
  }
  const thrown: unknown = error; // each SDK guard on its own (they would narrow one another away)
  if (UnauthorizedError.isInstance(thrown)) return { code: ErrorCode.AuthorizationRequired, message: error.message };
  if (SdkError.isInstance(thrown)) {
    const code = SDK_CODES[thrown.code];
    return code
      ? { code, message: error.message }
      : { code: ErrorCode.Internal, message: error.message, data: { sdkCode: thrown.code } };
  }
  const rpcCode = rpcCodeOf(error);
  if (rpcCode !== undefined) return fromRpc(error, rpcCode);
  const code = (error as { code?: unknown }).code;
  // A code of ours set on a plain error; a foreign one (Node's ENOENT...) is kept as the cause.
  if (isErrorCode(code)) return { code, message: error.message };
  if (typeof code === 'string') return { code: ErrorCode.Internal, message: error.message, data: { cause: code } };
  return { code: ErrorCode.Internal, message: error.message };
}
