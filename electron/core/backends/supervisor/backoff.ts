/**
 * Reconnect delays: the first retry after `initialMs`, then exponential backoff
 * with jitter, capped at `maxMs`. Jitter keeps many backends that dropped at
 * once (laptop wake-up, network change) from reconnecting in lockstep. And the
 * per-backend timer that waits them out.
 */
import { ErrorCode, SwitchboardError } from '../../../../shared/errors.js';
import type { ProxyOptions } from '../../platform/config/schema.js';

/** The proxy options that shape the backoff. */
type ReconnectOptions = Pick<ProxyOptions, 'reconnectInitialMs' | 'reconnectMaxMs'>;

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

/** Errors that another attempt cannot fix without a config change. */
const PERMANENT: ReadonlySet<string> = new Set([
  ErrorCode.NameCollision,
  ErrorCode.UriCollision,
  ErrorCode.CatalogLimit,
  ErrorCode.BackendLimit,
  ErrorCode.ConfigInvalid,
  // A sandbox that cannot run here, or a setting it cannot enforce: retrying changes nothing.
  ErrorCode.SandboxUnavailable,
  ErrorCode.NotSupported,
]);

/** One backend's reconnect timer, backing off over failed attempts in a row. */
export class ReconnectSchedule {
  private attempt = 0;
  private timer: NodeJS.Timeout | undefined;
  private dueAt: number | undefined;

  /** When the next attempt is due (epoch ms), while one is scheduled. */
  get nextRetryAt(): number | undefined {
    return this.dueAt;
  }

  /**
   * Schedules `retry` after the next delay. Returns false, scheduling
   * nothing, when the error needs a config change.
   */
  schedule(error: unknown, options: ReconnectOptions, retry: () => void): boolean {
    if (error instanceof SwitchboardError && PERMANENT.has(error.code)) return false;
    const delay = reconnectDelay(this.attempt++, options.reconnectInitialMs, options.reconnectMaxMs);
    this.dueAt = Date.now() + delay;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.dueAt = undefined;
      retry();
    }, delay);
    this.timer.unref();
    return true;
  }

  /** Cancels the scheduled attempt, if any (the backoff is kept). */
  clear(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.dueAt = undefined;
  }

  /** The next failure waits the first delay again (after a success or a manual restart). */
  reset(): void {
    this.attempt = 0;
  }
}
