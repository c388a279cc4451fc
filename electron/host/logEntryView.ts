/**
 * One audit entry as the Request log and the self-service page show it: what
 * was called, by which client and (gateway mode) for which person, how it
 * ended and which rule decided it. The person's issuer stays in the log file.
 */
import type { LogEntryView } from '../../shared/model/views.js';
import type { Switchboard } from '../core/api/index.js';

/** An entry of the audit log, as the core answers it. */
export type AuditEntryOf = Awaited<ReturnType<Switchboard['audit']['query']>>[number];

/** The view of one entry. */
export function logEntryView(entry: AuditEntryOf): LogEntryView {
  return {
    time: entry.time,
    client: entry.client,
    backend: entry.backend,
    kind: entry.kind,
    item: entry.item,
    outcome: entry.outcome,
    ...(entry.errorCode !== undefined ? { errorCode: entry.errorCode } : {}),
    durationMs: entry.durationMs,
    ...(entry.detail !== undefined ? { detail: entry.detail } : {}),
    ...(entry.arguments !== undefined ? { arguments: entry.arguments } : {}),
    ...(entry.result !== undefined ? { result: entry.result } : {}),
    ...(entry.decision !== undefined ? { decision: entry.decision } : {}),
    ...(entry.principal !== undefined
      ? {
          principal: {
            subject: entry.principal.subject,
            ...(entry.principal.email !== undefined ? { email: entry.principal.email } : {}),
          },
        }
      : {}),
  };
}
