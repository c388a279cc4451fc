/**
 * Reconnect delays: the first retry after `initialMs`, then exponential backoff
 * with jitter, capped at `maxMs`. Jitter keeps many backends that dropped at
 * once (laptop wake-up, network change) from reconnecting in lockstep.
 */

/** Delay before reconnect attempt number `attempt` (0-based). */
export function reconnectDelay(
  attempt: number,
  initialMs: number,
  maxMs: number,
  random: () => number = Math.random,
): number {
  if (attempt <= 0) return Math.min(initialMs, maxMs);
  const base = Math.min(maxMs, initialMs * 2 ** attempt);
  // Full range [base/2, base]: never shorter than half the nominal step.
  return Math.round(base / 2 + (random() * base) / 2);
}
