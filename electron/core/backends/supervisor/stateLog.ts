/**
 * What a backend's life puts in the log: its state changes, once each, and
 * while it keeps failing (a server that cannot start, retried with backoff)
 * one summary a minute at most, instead of the same warning on every retry
 * (issue 18: about 20 identical lines in 11 minutes).
 */
import type { BackendStatus } from '../../../../shared/model/health.js';
import type { Logger } from '../../platform/deps.js';

/** How often a backend that keeps failing is summarized, at most. */
export const SUMMARY_INTERVAL_MS = 60_000;

/** Options of {@link BackendStateLog}. */
export interface StateLogOptions {
  id: () => string;
  logger: () => Logger;
  now?: () => number;
  summaryIntervalMs?: number;
}

/** States worth a line; `connecting` is a step on the way to one of them. */
type Logged = Exclude<BackendStatus, 'connecting'>;

/** Logs one backend's state changes and summarizes repeated failures. */
export class BackendStateLog {
  private last: Logged | undefined;
  private lastLineAt = 0;
  /** Failures since the last line, and the latest one's message. */
  private repeats = 0;
  private repeatMessage = '';
  /** Failed attempts since the backend was last up, for the recovery line. */
  private failuresSinceUp = 0;
  private readonly now: () => number;
  private readonly intervalMs: number;

  constructor(private readonly options: StateLogOptions) {
    this.now = options.now ?? Date.now;
    this.intervalMs = options.summaryIntervalMs ?? SUMMARY_INTERVAL_MS;
  }

  /** The backend's new status, with its error message for `down` and `degraded`. */
  status(status: BackendStatus, message: string): void {
    if (status === 'down' || status === 'degraded') this.failed(status, message);
    else if (status === 'up') this.up();
    else if (status !== 'connecting') this.other(status);
  }

  /** A failure: the backend is `down` (a connection attempt failed, or it dropped) or `degraded` (a refresh failed). */
  failed(status: 'down' | 'degraded', message: string): void {
    this.failuresSinceUp++;
    const what = status === 'down' ? 'is down' : 'is degraded';
    if (this.last !== status) {
      this.enter(status);
      this.options.logger().warn(`backend "${this.options.id()}" ${what}: ${message}`);
      return;
    }
    this.repeats++;
    this.repeatMessage = message;
    this.summarizeIfDue(status === 'down' ? 'is still down' : 'is still degraded');
  }

  /** The backend is up: said only when it recovers (the first connection is in serve's summary line). */
  up(): void {
    const recovering = this.last === 'down' || this.last === 'degraded';
    const failures = this.failuresSinceUp;
    this.enter('up');
    this.failuresSinceUp = 0;
    if (recovering) {
      this.options
        .logger()
        .info(
          `backend "${this.options.id()}" is up again (after ${failures} failed attempt${failures === 1 ? '' : 's'})`,
        );
    }
  }

  /** Any other state (disabled, needs-authorization): remembered, so a later failure counts as a change. */
  other(status: Logged): void {
    this.enter(status);
  }

  private enter(status: Logged): void {
    this.last = status;
    this.lastLineAt = this.now();
    this.repeats = 0;
    this.repeatMessage = '';
  }

  private summarizeIfDue(what: string): void {
    const now = this.now();
    if (now - this.lastLineAt < this.intervalMs) return;
    const minutes = Math.max(1, Math.round((now - this.lastLineAt) / 60_000));
    this.options
      .logger()
      .warn(
        `backend "${this.options.id()}" ${what}: ${this.repeats} more failed attempt${this.repeats === 1 ? '' : 's'} in the last ${minutes} min; last: ${this.repeatMessage}`,
      );
    this.lastLineAt = now;
    this.repeats = 0;
  }
}
