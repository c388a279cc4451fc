/**
 * The startup grace of a fresh `serve` (mcp-proxy has the same): for
 * `startupGraceMs` after the backends start, a list request waits for the
 * backends still on their first connection attempt, so a one-shot client
 * that lists right after connecting sees every server instead of whichever
 * came up first. A backend whose catalog is published from the cache is not
 * waited for; nor is anything once the grace is over.
 */
import type { CoreEvents } from './coreEvents.js';
import type { TypedEmitter } from './events.js';

/** Waits of list requests during the startup grace. */
export class StartupGrace {
  private until = 0;

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

  /**
   * Undefined when a list may be answered now (the hot path costs one check);
   * else a promise that resolves once no backend is pending, at the grace's
   * end (bounded by each pending backend's connect timeout), or on `signal`.
   */
  wait(signal?: AbortSignal): Promise<void> | undefined {
    if (Date.now() >= this.until) return undefined;
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
