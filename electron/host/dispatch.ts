/**
 * One entry point for both pipes (Electron IPC and the headless bridge): a
 * method name from the wire is checked against the contract, its params are
 * parsed by the method's schema, its handler runs with the call's
 * AbortSignal, and whatever happens settles as a `CallOutcome`, never a throw
 * (errors translated by core/platform/toErrorData.ts).
 */
import { METHOD_NAMES, type CallOutcome, type CoreHandlers, type MethodName } from '../../shared/contract.js';
import { ErrorCode, type ErrorData } from '../../shared/errors.js';
import { toErrorData } from '../core/platform/index.js';
import { parseParams } from './parseParams.js';

const KNOWN: ReadonlySet<string> = new Set(METHOD_NAMES);

/** Whether `name` is a method of the contract. */
export function isMethodName(name: unknown): name is MethodName {
  return typeof name === 'string' && KNOWN.has(name);
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
 * Runs `method` with `params` on `handlers`; unknown methods, bad params and
 * thrown errors come back as data. `signal` is the call's: its caller
 * cancelled it, or its pipe closed. Both pipes meet here, so every outcome
 * passes `redact`: results (except the token `profiles.createToken` /
 * `rotateToken` return) and errors' messages and data.
 */
export async function dispatch(
  handlers: CoreHandlers,
  method: unknown,
  params: unknown,
  redact: Redactor = (value) => value,
  signal: AbortSignal = new AbortController().signal,
): Promise<CallOutcome<unknown>> {
  const outcome = await settle(handlers, method, params, signal);
  try {
    if (!outcome.ok) return { ok: false, error: redactError(outcome.error, redact) };
    return isMethodName(method) && TOKEN_METHODS.has(method) ? outcome : { ok: true, result: redact(outcome.result) };
  } catch {
    // Nothing unredacted leaves when the redaction itself fails.
    return {
      ok: false,
      error: { code: ErrorCode.Internal, message: `${String(method)}: the answer could not be redacted` },
    };
  }
}

async function settle(
  handlers: CoreHandlers,
  method: unknown,
  params: unknown,
  signal: AbortSignal,
): Promise<CallOutcome<unknown>> {
  if (!isMethodName(method)) {
    return {
      ok: false,
      error: { code: ErrorCode.UnknownMethod, message: `no method "${String(method)}" in the contract` },
    };
  }
  const parsed = parseParams(method, params ?? undefined);
  if (!parsed.ok) return parsed;
  try {
    const handler = handlers[method] as (params: unknown, call: { signal: AbortSignal }) => Promise<unknown>;
    return { ok: true, result: await handler(parsed.result, { signal }) };
  } catch (error) {
    return { ok: false, error: toErrorData(error) };
  }
}
