/**
 * What the UI sees of the request log: one entry per call, and the kinds and
 * outcomes its filters offer.
 */
/** One line of the request log. */
export interface LogEntryView {
  time: string;
  client: string;
  backend: string;
  kind: string;
  item: string;
  outcome: LogOutcome;
  /** A local error code, or a JSON-RPC error's number; as written in the log. */
  errorCode?: string | number;
  durationMs: number;
  detail?: string;
  /** The call's arguments, when the server's policy captures them. */
  arguments?: unknown;
  /** The call's result, when the server's policy captures them. */
  result?: unknown;
  /** The rule that decided the call and the level that set it (routed calls only). */
  decision?: { rule: 'allow' | 'deny' | 'ask'; source: LogDecisionSource };
  /** Gateway mode: the person the call was made for. */
  principal?: { subject: string; email?: string };
}

/**
 * The policy levels a decision can come from, in words (the core's
 * DecisionSource, plus `hidden`, `quarantined` and `held`; checked against it at compile time).
 */
export const LOG_DECISION_SOURCES = {
  backendDisabled: 'the server is disabled',
  unknownClient: 'the client has no profile',
  clientBackends: "the client's profile does not include this server",
  clientItem: "the client's own rule for this item",
  item: "this item's rule for every client",
  backendDefault: "the server's default rule",
  globalDefault: 'the global default rule',
  hidden: 'not visible to this client (hidden server-wide, or over its tool cap)',
  quarantined: 'quarantined: its server waits for review',
  held: 'held for review: its definition changed since it was approved',
} as const;
/** One level a decision can come from. */
export type LogDecisionSource = keyof typeof LOG_DECISION_SOURCES;

/** "allow, by the client's own rule for this item". */
export function decisionText(decision: NonNullable<LogEntryView['decision']>): string {
  return `${decision.rule}, by ${LOG_DECISION_SOURCES[decision.source] ?? decision.source}`;
}

/**
 * How a logged request ended. `sandbox_blocked`: the tool failed, and its
 * sandbox refused it something during the call (`detail` says what).
 */
export const LOG_OUTCOMES = ['ok', 'error', 'sandbox_blocked', 'denied', 'timeout', 'cancelled'] as const;
/** How a logged request ended. */
export type LogOutcome = (typeof LOG_OUTCOMES)[number];

/** The kinds of request-log entries (the core's `AuditKind`, checked against this at compile time). */
export const LOG_KINDS = [
  'tools/call',
  'resources/read',
  'prompts/get',
  'completion/complete',
  'skills/get',
  'resources/subscribe',
  'resources/unsubscribe',
  'pin/changed',
  'pin/approved',
  'approval',
  'task',
  'audit/dropped',
] as const;
/** One kind of request-log entry. */
export type LogKind = (typeof LOG_KINDS)[number];
