/**
 * The bounds on tasks (the `proxy` options `taskTtlDefaultMs`,
 * `taskTtlMaxMs`, `maxTasksPerClient`): the lifetime a task is granted, and
 * the error a client over its cap gets.
 */
import { ErrorCode, SwitchboardError } from '../../../../shared/errors.js';

/** The task bounds in force. */
export interface TaskLimits {
  ttlDefaultMs: number;
  ttlMaxMs: number;
  maxPerClient: number;
}

/**
 * Finished tasks kept per client profile (their results wait up to the TTL,
 * at most 24 h): beyond it the oldest finished one is dropped first, so a
 * client that never fetches cannot make us hold results without limit.
 */
export const MAX_FINISHED_PER_CLIENT = 100;

/** How often a client is told to poll a task (2025-11-25 `pollInterval`, a hint). */
export const POLL_INTERVAL_MS = 1000;

/**
 * The lifetime granted for a requested one: the default when none (or a
 * non-positive or non-finite one) is asked, never more than the maximum. The
 * spec lets the receiver choose ("Receivers MAY override the requested ttl").
 */
export function grantedTtl(requested: unknown, limits: TaskLimits): number {
  const asked =
    typeof requested === 'number' && Number.isFinite(requested) && requested > 0
      ? Math.floor(requested)
      : limits.ttlDefaultMs;
  return Math.min(asked, limits.ttlMaxMs);
}

/** The error for a client at its cap: retryable, since a slot frees as soon as one of its tasks ends. */
export function taskLimitError(client: string, limit: number): SwitchboardError {
  return new SwitchboardError(
    ErrorCode.TaskLimit,
    `client ${client} has ${limit} tasks running (proxy.maxTasksPerClient); retry once one ends`,
    { retryable: true, limit },
  );
}
