/** What one audit log entry holds (see auditLog.ts for the log, auditLine.ts for its lines). */
import type { ToolRule } from '../../platform/config/policyConfig.js';
import type { DecisionSource } from './policyEngine.js';

/**
 * The policy's decision on a request, taken when it was routed: the rule and
 * the level that set it, or `hidden` when the client could not see the item
 * at all (withheld by pinning, hidden server-wide, over a tool cap).
 */
export interface AuditDecision {
  rule: ToolRule;
  /**
   * `quarantined` and `held`: hidden because the item is withheld for review
   * (its server quarantined; a tool's changed definition held), while the
   * client's own rules would allow it, so its answer may say so.
   */
  source: DecisionSource | 'hidden' | 'quarantined' | 'held';
}

/** What was done. `audit/dropped` is the log's own note of entries it could not write. */
export type AuditKind =
  | 'tools/call'
  | 'resources/read'
  | 'prompts/get'
  | 'completion/complete'
  | 'skills/get'
  | 'resources/subscribe'
  | 'resources/unsubscribe'
  | 'pin/changed'
  | 'pin/approved'
  | 'approval'
  /** A task's life (2025-11-25 tasks): `detail` says created, completed, failed, cancelled or expired. */
  | 'task'
  | 'audit/dropped';

/** How it ended (`sandbox_blocked`: a tool failed, and its sandbox refused it something during the call). */
export type AuditOutcome = 'ok' | 'error' | 'sandbox_blocked' | 'denied' | 'timeout' | 'cancelled';

/** The person a request acted for (gateway mode): never a token. */
export interface AuditPrincipal {
  subject: string;
  email?: string;
  /** The issuer that vouched for the subject (principal.ts). */
  issuer?: string;
}

/** One recorded request. `arguments` and `result` only when capture is on for the backend (the caller decides). */
export interface AuditEntry {
  /** ISO time. */
  time: string;
  /** Client profile ID. */
  client: string;
  /** The signed-in person the request acted for (gateway mode only). */
  principal?: AuditPrincipal;
  backend: string;
  kind: AuditKind;
  /** The backend's original name or URI. */
  item: string;
  /** The name the client called, when an override makes it differ from `item` (a renamed tool, a prompt as a tool). */
  exposed?: string;
  outcome: AuditOutcome;
  errorCode?: string | number;
  durationMs: number;
  arguments?: unknown;
  result?: unknown;
  detail?: string;
  /** The rule that decided a routed request, and its level. */
  decision?: AuditDecision;
  /** Code mode: the `run_code` run whose program made this call (its id, also in that run's result). */
  run?: string;
}
