/**
 * One entry point for both pipes (Electron IPC and the headless bridge): a
 * method name from the wire is checked against the contract, its handler
 * runs, and whatever happens settles as a `CallOutcome`, never a throw.
 */
import { METHOD_NAMES, type CallOutcome, type CoreHandlers, type MethodName } from '../../shared/contract.js';
import { ErrorCode, SwitchboardError, toErrorData, type ErrorData } from '../../shared/errors.js';

const KNOWN: ReadonlySet<string> = new Set(METHOD_NAMES);

/** Whether `name` is a method of the contract. */
export function isMethodName(name: unknown): name is MethodName {
  return typeof name === 'string' && KNOWN.has(name);
}

/**
 * Any error as contract data: local codes are kept; a JSON-RPC error from
 * the routing layer (unknown item: -32602, ...) keeps its number in `data`.
 */
export function errorData(error: unknown): ErrorData {
  if (error instanceof SwitchboardError) return error.toData();
  const rpc = error as { code?: unknown; message?: unknown; data?: unknown } | null;
  if (error instanceof Error && typeof rpc?.code === 'number') {
    const code = rpc.code === -32602 ? ErrorCode.InvalidParams : 'protocol_error';
    return { code, message: error.message, data: { rpcCode: rpc.code } };
  }
  if (error instanceof Error && typeof rpc?.code === 'string') return { code: rpc.code, message: error.message };
  return toErrorData(error);
}

/** Takes every secret value out of a JSON value (see `secretRedactor` in auditLine.ts). */
export type Redactor = (value: unknown) => unknown;

/** Methods whose result is a client token the user asked to see: their results are not redacted. */
export const TOKEN_METHODS: ReadonlySet<MethodName> = new Set(['profiles.createToken', 'profiles.rotateToken']);

/** An error with its message and data redacted (the code is ours, never a secret). */
function redactError(error: ErrorData, redact: Redactor): ErrorData {
  return {
    ...error,
    message: String(redact(error.message)),
    ...(error.data !== undefined ? { data: redact(error.data) as Record<string, unknown> } : {}),
  };
}

/**
 * Runs `method` with `params` on `handlers`; unknown methods and thrown
 * errors come back as data. Both pipes meet here, so every outcome passes
 * `redact`: results (except the token `profiles.createToken` / `rotateToken`
 * return) and errors' messages and data.
 */
export async function dispatch(
  handlers: CoreHandlers,
  method: unknown,
  params: unknown,
  redact: Redactor = (value) => value,
): Promise<CallOutcome<unknown>> {
  const outcome = await settle(handlers, method, params);
  try {
    if (!outcome.ok) return { ok: false, error: redactError(outcome.error, redact) };
    return isMethodName(method) && TOKEN_METHODS.has(method) ? outcome : { ok: true, result: redact(outcome.result) };
  } catch {
    // Nothing unredacted leaves when the redaction itself fails.
    return { ok: false, error: { code: 'internal', message: `${String(method)}: the answer could not be redacted` } };
  }
}

async function settle(handlers: CoreHandlers, method: unknown, params: unknown): Promise<CallOutcome<unknown>> {
  if (!isMethodName(method)) {
    return {
      ok: false,
      error: { code: ErrorCode.UnknownMethod, message: `no method "${String(method)}" in the contract` },
    };
  }
  if (params !== undefined && params !== null && (typeof params !== 'object' || Array.isArray(params))) {
    return { ok: false, error: { code: ErrorCode.InvalidParams, message: `${method}: params must be an object` } };
  }
  try {
    const handler = handlers[method] as (params: unknown) => Promise<unknown>;
    return { ok: true, result: await handler(params ?? undefined) };
  } catch (error) {
    return { ok: false, error: errorData(error) };
  }
}

/** Reads a required string field of a call's params. */
export function requireString(params: unknown, field: string): string {
  const value = (params as Record<string, unknown> | undefined)?.[field];
  if (typeof value !== 'string' || value.length === 0) {
    throw new SwitchboardError(ErrorCode.InvalidParams, `"${field}" must be a non-empty string`, { field });
  }
  return value;
}

/** Reads a required object field of a call's params. */
export function requireObject(params: unknown, field: string): Record<string, unknown> {
  const value = (params as Record<string, unknown> | undefined)?.[field];
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new SwitchboardError(ErrorCode.InvalidParams, `"${field}" must be an object`, { field });
  }
  return value as Record<string, unknown>;
}
