/**
 * The rate-limit gate of routed requests: a resolved request takes its points
 * from the limits (catalog/policy/limits/) before it is sent anywhere; a
 * refused one is audited, reported, and answered with a retryable error
 * (`rate_limited`, -32000, `data: { retryAfterMs, limit, scope }`). Where the
 * endpoint can still choose the HTTP status (a 2026-07-28 request over HTTP),
 * it opened a `limitRefusals` slot around the request, and the refusal is
 * noted there so the answer leaves as 429 with Retry-After.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { ErrorCode, SwitchboardError } from '../../../../shared/errors.js';
import type { LimitCheck, LimitRefusal } from '../../catalog/policy/limits/rateLimits.js';
import type { CallerIdentity } from '../../catalog/policy/callerIdentity.js';
import type { LimitedTarget } from '../../catalog/policy/limits/limitRules.js';
import { toProtocolError } from './protocolErrors.js';
import { recordLimited, type AuditedCall, type AuditSink } from './routeAudit.js';

/** Where a refusal of the current request is noted, when its endpoint opened one. */
export interface LimitRefusalSlot {
  retryAfterMs?: number;
}

/** The slot of the request being handled (see the module comment). */
export const limitRefusals = new AsyncLocalStorage<LimitRefusalSlot>();

/** What the gate needs: the limits, the audit log, and who hears of a refusal. */
export interface LimitHost {
  limits?: { check(caller: CallerIdentity, target: LimitedTarget): LimitCheck };
  audit?: AuditSink;
  /** A request was refused (the core's `rateLimited` event). */
  rateLimited?(call: AuditedCall, refusal: LimitRefusal): void;
}

/**
 * Takes this request's points (`exposed`: the name the client used, which a
 * rule may name instead of the server's own); undefined at once when no limit applies, else
 * a promise that rejects with the protocol error when one refuses.
 */
export function passLimits(
  host: LimitHost,
  caller: CallerIdentity,
  call: AuditedCall,
  exposed?: string,
): Promise<void> | undefined {
  const target = {
    kind: call.kind as LimitedTarget['kind'],
    backend: call.origin.backendId,
    item: call.origin.original,
    exposed,
  };
  const check = host.limits?.check(caller, target);
  if (!check) return undefined;
  return check.then((refusal) => {
    if (refusal) refuse(host, call, refusal);
  });
}

function refuse(host: LimitHost, call: AuditedCall, refusal: LimitRefusal): never {
  recordLimited(host.audit, call, refusal.text);
  host.rateLimited?.(call, refusal);
  const slot = limitRefusals.getStore();
  if (slot) slot.retryAfterMs = refusal.retryAfterMs;
  const { retryAfterMs, limit, scope } = refusal;
  throw toProtocolError(
    new SwitchboardError(ErrorCode.RateLimited, refusal.text, { retryable: true, retryAfterMs, limit, scope }),
  );
}
