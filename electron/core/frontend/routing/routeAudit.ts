/**
 * Audit records of routed requests: one entry per request with its outcome
 * and duration, and one for each request the policy refused.
 */
import { ErrorCode, SwitchboardError } from '../../../../shared/errors.js';
import type { ItemOrigin } from '../../catalog/catalog.js';
import type {
  AuditDecision,
  AuditEntry,
  AuditKind,
  AuditOutcome,
  AuditPrincipal,
} from '../../catalog/policy/auditLog.js';
import { toProtocolError } from './protocolErrors.js';
import { refusalsOf } from '../../backends/process/sandbox/callRefusals.js';
import { principalRef, type Principal } from '../../catalog/policy/principal.js';

/** Where audit entries go (absent: no audit log). */
export type AuditSink = ((entry: AuditEntry) => void) | undefined;

/** One routed request, as the audit log names it. */
export interface AuditedCall {
  kind: AuditKind;
  client: string;
  /** Gateway mode: the person it acted for (the request's principal, or as the audit log names them). */
  principal?: Principal | AuditPrincipal | undefined;
  origin: ItemOrigin;
  /** The name the client used, recorded when an override made it differ from the original. */
  exposed?: string | undefined;
  arguments?: unknown;
  /** The rule that let it through (or refused it), taken when it was routed. */
  decision?: AuditDecision | undefined;
  /** Code mode: the run whose program made the call. */
  run?: string | undefined;
}

/** The audit entry's `principal` field of a call, when it has one. */
function principalField(call: AuditedCall): { principal?: AuditPrincipal } {
  const principal = call.principal;
  if (!principal) return {};
  return { principal: 'scopes' in principal ? principalRef(principal) : principal };
}

/** The audit outcome of a failed request: timeout, cancelled, or an error with its code. */
export function auditFailure(
  error: unknown,
  signal: AbortSignal | undefined,
): { outcome: AuditOutcome; errorCode?: string | number } {
  if (error instanceof SwitchboardError && error.code === ErrorCode.Timeout) {
    return { outcome: 'timeout', errorCode: error.code };
  }
  if (signal?.aborted) return { outcome: 'cancelled' };
  if (error instanceof SwitchboardError) return { outcome: 'error', errorCode: error.code };
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' || typeof code === 'number'
    ? { outcome: 'error', errorCode: code }
    : { outcome: 'error' };
}

/**
 * Runs one routed request and records it: outcome, duration, and (when the
 * core keeps them) arguments and result. Local errors leave as protocol errors.
 */
export async function recordedRequest<T>(
  audit: AuditSink,
  call: AuditedCall,
  signal: AbortSignal | undefined,
  run: () => Promise<T>,
): Promise<T> {
  const started = Date.now();
  const base = {
    time: new Date(started).toISOString(),
    client: call.client,
    backend: call.origin.backendId,
    kind: call.kind,
    item: call.origin.original,
    ...(call.exposed !== undefined ? { exposed: call.exposed } : {}),
    arguments: call.arguments,
    ...(call.decision ? { decision: call.decision } : {}),
    ...principalField(call),
    ...(call.run !== undefined ? { run: call.run } : {}),
  };
  try {
    const result = await run();
    const toolError = (result as { isError?: unknown }).isError === true;
    const refused = toolError ? refusalsOf(result) : undefined;
    audit?.({
      ...base,
      ...(refused
        ? { outcome: 'sandbox_blocked', errorCode: ErrorCode.SandboxBlocked, detail: refused.sentences.join('; ') }
        : { outcome: toolError ? 'error' : 'ok', ...(toolError ? { errorCode: ErrorCode.ToolError } : {}) }),
      durationMs: Date.now() - started,
      result,
    });
    return result;
  } catch (error) {
    audit?.({ ...base, ...auditFailure(error, signal), durationMs: Date.now() - started });
    throw toProtocolError(error);
  }
}

/** Records a request the policy refused (the client saw an unknown item). */
export function recordDenied(audit: AuditSink, call: AuditedCall, detail?: string): void {
  audit?.(deniedEntry(call, detail));
}

/** Records a request a rate limit refused: `denied`, with the code `rate_limited` and the limit in `detail`. */
export function recordLimited(audit: AuditSink, call: AuditedCall, detail: string): void {
  audit?.({ ...deniedEntry(call, detail), errorCode: ErrorCode.RateLimited });
}

/** The audit entry of a request refused before it was routed. */
function deniedEntry(call: AuditedCall, detail: string | undefined): AuditEntry {
  return {
    time: new Date().toISOString(),
    client: call.client,
    backend: call.origin.backendId,
    kind: call.kind,
    item: call.origin.original,
    ...(call.exposed !== undefined ? { exposed: call.exposed } : {}),
    outcome: 'denied',
    durationMs: 0,
    ...(detail ? { detail } : {}),
    ...(call.decision ? { decision: call.decision } : {}),
    ...principalField(call),
    ...(call.run !== undefined ? { run: call.run } : {}),
  };
}
