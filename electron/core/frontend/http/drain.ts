/**
 * Graceful shutdown of the HTTP endpoint (a replica told to stop, SIGTERM):
 * from `begin` on, `/readyz` answers 503 so the load balancer routes away,
 * a new 2025-era session is refused with 503 (any other replica takes it),
 * and every request already here, or still arriving before the balancer
 * notices, is served to its end, each response closing its connection. The
 * drain is over once nothing is in flight and no request came for a quiet
 * while, or at the bound (`proxy.drainMs`), whichever is first; what is
 * still running then is cut by the close that follows.
 * Long-lived streams (2025 GET streams, 2026 listen streams) are not waited for.
 */
import type { ServerResponse } from 'node:http';

/** How the drain ended: settled, or cut at its bound with requests still in flight. */
export interface DrainOutcome {
  /** Requests still in flight when the drain ended (0 when it settled). */
  unfinished: number;
  /** How long it took, ms. */
  ms: number;
}

/** The longest quiet while a settled drain waits for stragglers the balancer still sends (ms). */
const QUIET_MAX_MS = 1000;

/** The requests in flight on one endpoint, and whether it is draining. */
export class Drain {
  private readonly inFlight = new Set<ServerResponse>();
  private lastArrival = 0;
  private started: number | undefined;
  /** Wakes a waiting `settle` when a request ends or arrives. */
  private wake: (() => void) | undefined;

  /** Whether the endpoint is draining (readiness 503, no new sessions). */
  get draining(): boolean {
    return this.started !== undefined;
  }

  /** Requests being answered now. */
  get size(): number {
    return this.inFlight.size;
  }

  /** Counts a request as in flight until its response closes; while draining, its connection closes after it. */
  track(res: ServerResponse): void {
    this.lastArrival = Date.now();
    if (this.draining && !res.headersSent) res.setHeader('Connection', 'close');
    this.inFlight.add(res);
    res.once('close', () => {
      this.inFlight.delete(res);
      this.wake?.();
    });
    this.wake?.();
  }

  /** A tracked response that turned out to be a long-lived stream: not waited for. */
  untrack(res: ServerResponse): void {
    this.inFlight.delete(res);
    this.wake?.();
  }

  /** Starts draining (idempotent). */
  begin(): void {
    this.started ??= Date.now();
  }

  /**
   * Starts draining and resolves once nothing is in flight and no request came for
   * min(1 s, maxMs / 4), or after `maxMs`, or when `signal` aborts.
   */
  async settle(maxMs: number, signal?: AbortSignal): Promise<DrainOutcome> {
    this.begin();
    const start = Date.now();
    const deadline = start + maxMs;
    const quietMs = Math.min(QUIET_MAX_MS, maxMs / 4);
    while (!signal?.aborted) {
      const now = Date.now();
      if (now >= deadline) break;
      const quietFor = now - this.lastArrival;
      if (this.inFlight.size === 0 && quietFor >= quietMs) break;
      const wait = this.inFlight.size === 0 ? quietMs - quietFor : deadline - now;
      await new Promise<void>((resolve) => {
        const done = (): void => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', done);
          this.wake = undefined;
          resolve();
        };
        const timer = setTimeout(done, Math.max(1, Math.min(wait, deadline - now)));
        signal?.addEventListener('abort', done, { once: true });
        this.wake = done;
      });
    }
    return { unfinished: this.inFlight.size, ms: Date.now() - start };
  }
}
