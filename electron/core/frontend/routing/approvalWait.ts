/**
 * How long an `ask` call waits for a person, and the progress it sends while
 * it waits. A client that gave a progress token hears from us every
 * {@link APPROVAL_HEARTBEAT_MS} (clients that reset their timeout on progress
 * keep waiting), so the wait may last as long as a person may take to answer
 * (`inputTimeoutMs`); without one the wait is bounded by `approvalTimeoutMs`.
 */
import type { ProgressUpdate } from './forwarding.js';

/** How often a waiting call with a progress token reports that it still waits. */
export const APPROVAL_HEARTBEAT_MS = 1000;

/** The message of the progress notifications sent while a call waits for approval. */
export const WAITING_MESSAGE = 'Waiting for approval in MCP Switchboard';

/** The limits the wait is chosen from. */
export interface ApprovalWaitLimits {
  /** `proxy.approvalTimeoutMs`. */
  approvalTimeoutMs: number;
  /** `proxy.inputTimeoutMs`, when known. */
  inputTimeoutMs?: number | undefined;
}

/** How long to wait: with progress, the longer of both limits; without, the approval timeout. */
export function approvalWaitMs(limits: ApprovalWaitLimits, withProgress: boolean): number {
  if (!withProgress) return limits.approvalTimeoutMs;
  return Math.max(limits.approvalTimeoutMs, limits.inputTimeoutMs ?? 0);
}

/**
 * Runs `wait`, sending progress to `onProgress` (when given) at once and then
 * every {@link APPROVAL_HEARTBEAT_MS} until it settles.
 */
export async function withHeartbeat<T>(
  onProgress: ((progress: ProgressUpdate) => void) | undefined,
  wait: () => Promise<T>,
  everyMs = APPROVAL_HEARTBEAT_MS,
): Promise<T> {
  if (!onProgress) return wait();
  let beats = 0;
  const beat = (): void => onProgress({ progress: ++beats, message: WAITING_MESSAGE });
  beat();
  const timer = setInterval(beat, everyMs);
  timer.unref();
  try {
    return await wait();
  } finally {
    clearInterval(timer);
  }
}
