/**
 * Bounded start-up: at most `limit` backends start (spawn, handshake, first
 * listing) at once. Thirty `npx` servers on two cores finish sooner a few at a
 * time than all at once thrashing the CPU and disk. Waiters are served in
 * arrival order (config order at launch).
 */
import { availableParallelism } from 'node:os';

/** The default bound: four starts per core. */
export function defaultStartLimit(): number {
  return 4 * Math.max(1, availableParallelism());
}

/** A counting semaphore for backend starts. */
export class StartLimiter {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  /** The most starts ever in progress at once (for tests and benchmarks). */
  peak = 0;

  constructor(private readonly limit: () => number) {}

  /** Starts in progress now. */
  get inProgress(): number {
    return this.active;
  }

  /**
   * Waits for a start slot; resolves with its release (idempotent). A signal
   * that aborts while waiting rejects with its reason and takes no slot.
   */
  async acquire(signal?: AbortSignal): Promise<() => void> {
    if (this.active < this.limit()) {
      this.active++;
      this.peak = Math.max(this.peak, this.active);
    } else {
      // A release hands its slot straight to the first waiter, so no newcomer can slip in between.
      await new Promise<void>((resolve, reject) => {
        const grant = (): void => {
          signal?.removeEventListener('abort', abort);
          resolve();
        };
        const abort = (): void => {
          const index = this.waiting.indexOf(grant);
          if (index >= 0) this.waiting.splice(index, 1);
          reject(signal?.reason instanceof Error ? signal.reason : new Error('aborted'));
        };
        if (signal?.aborted) return abort();
        signal?.addEventListener('abort', abort, { once: true });
        this.waiting.push(grant);
      });
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    };
  }
}
