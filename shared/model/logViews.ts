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
}

/** How a logged request ended. */
export const LOG_OUTCOMES = ['ok', 'error', 'denied', 'timeout', 'cancelled'] as const;
/** How a logged request ended. */
export type LogOutcome = (typeof LOG_OUTCOMES)[number];

/** The kinds of request-log entries (the core's `AuditKind`, checked against this at compile time). */
export const LOG_KINDS = [
  'tools/call',
  'resources/read',
  'prompts/get',
  'completion/complete',
  'resources/subscribe',
  'resources/unsubscribe',
  'pin/changed',
  'pin/approved',
  'approval',
  'audit/dropped',
] as const;
/** One kind of request-log entry. */
export type LogKind = (typeof LOG_KINDS)[number];
