/**
 * The startup grace of a fresh `serve` (mcp-proxy has the same): for
 * `startupGraceMs` after the backends start, a list request waits for the
 * backends still on their first connection attempt, so a one-shot client
 * that lists right after connecting sees every server instead of whichever
 * came up first. A backend whose catalog is published from the cache is not
 * waited for; nor is anything once the grace is over. A list that comes
 * while the cached catalogs are still being read waits for them.
 */
import type { CoreEvents } from '../api/events.js';
import type { TypedEmitter } from '../platform/typedEmitter.js';

/** Waits of list requests during the startup grace. */
export class StartupGrace {
  private until = 0;
  private answered = false;
  private resolveSeeded!: () => void;
  /** The cached catalogs are published (or there are none): a list before that would miss them. */
  private readonly seeded = new Promise<void>((resolve) => (this.resolveSeeded = resolve));
  private isSeeded = false;
  private resolveFirstList!: () => void;
  /**
   * Resolves once the first list request has been answered (just after its
   * answer is computed, when the answer is sent): backends whose catalogs are
   * cached wait for it before they start, so that answer never competes with
   * thirty children loading their modules (backendLaunch.ts).
   */
  readonly firstList = new Promise<void>((resolve) => (this.resolveFirstList = resolve));

  /**
   * @param pending the latest time (epoch ms) worth waiting for a backend
   *   still on its first attempt without a published catalog, or undefined
   *   when there is none
   */
  constructor(
    private readonly events: TypedEmitter<CoreEvents>,
    private readonly pending: () => number | undefined,
  ) {}

  /** The backends start now; the grace lasts `graceMs`. */
  begin(graceMs: number): void {
    this.until = Date.now() + graceMs;
  }

  /** Every cached catalog is published (launchBackends): lists stop waiting for that. */
  cachePublished(): void {
    this.isSeeded = true;
    this.resolveSeeded();
  }

  /**
   * Undefined when a list may be answered now (the hot path costs one check);
   * else a promise that resolves once no backend is pending, at the grace's
   * end (bounded by each pending backend's connect timeout), or on `signal`.
   */
  wait(signal?: AbortSignal): Promise<void> | undefined {
    if (!this.answered) return this.firstWait(signal);
    return this.graceWait(signal);
  }

  /**
   * A list before the first answered from the cache: marks it the first once
   * its caller has answered it (the next macrotask). One answered before the
   * backends launch (nothing published yet) does not count.
   */
  private firstWait(signal?: AbortSignal): Promise<void> | undefined {
    const waiting = this.graceWait(signal);
    if (!waiting && !this.isSeeded) return undefined;
    this.answered = true;
    const answered = (): void => void setImmediate(this.resolveFirstList);
    if (waiting) void waiting.then(answered);
    else answered();
    return waiting;
  }

  private graceWait(signal?: AbortSignal): Promise<void> | undefined {
    if (Date.now() >= this.until) return undefined;
    // Right after start the cached catalogs are being read (a few ms): a list waits for them.
    if (!this.isSeeded) return this.seeded.then(() => this.graceWait(signal));
    const first = this.pending();
    if (first === undefined) return undefined;
    return new Promise<void>((resolve) => {
      const finish = (): void => {
        clearTimeout(timer);
        off();
        signal?.removeEventListener('abort', finish);
        resolve();
      };
      const deadline = (latest: number): number => Math.max(0, Math.min(this.until, latest) - Date.now());
      let timer = setTimeout(finish, deadline(first));
      const off = this.events.on('healthChanged', () => {
        const latest = this.pending();
        if (latest === undefined) return finish();
        clearTimeout(timer);
        timer = setTimeout(finish, deadline(latest));
      });
      signal?.addEventListener('abort', finish, { once: true });
    });
  }
}
