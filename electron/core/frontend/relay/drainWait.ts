/**
 * One pending wait for a backed-up client's wire to drain, however many
 * callers ask. Each notification offered to a client that stopped reading
 * used to add its own `drain`/`close` listener pair to the stalled response
 * (Node warned `MaxListenersExceededWarning` after ten, and the pairs held
 * their closures until the client read or left); here the callers queue
 * behind the one pair, which wakes them all and is removed together.
 */

/** What a wire's drain wait listens on: a ServerResponse, process.stdout. */
export interface DrainEmitter {
  once(event: 'drain' | 'close', listener: () => void): unknown;
  off(event: 'drain' | 'close', listener: () => void): unknown;
}

/** The shared drain wait of one wire (or of one set of responses). */
export class DrainWait {
  private waiters: (() => void)[] = [];
  private armed: DrainEmitter[] = [];
  private readonly wake = (): void => {
    for (const emitter of this.armed) {
      emitter.off('drain', this.wake);
      emitter.off('close', this.wake);
    }
    this.armed = [];
    const waiters = this.waiters;
    this.waiters = [];
    for (const then of waiters) then();
  };

  /** Calls `then` once, when any of `stuck` drains or closes; one listener pair per emitter, whatever the callers. */
  add(stuck: readonly DrainEmitter[], then: () => void): void {
    this.waiters.push(then);
    for (const emitter of stuck) {
      if (this.armed.includes(emitter)) continue;
      this.armed.push(emitter);
      emitter.once('drain', this.wake);
      emitter.once('close', this.wake);
    }
  }

  /** Callers waiting now (for tests and health). */
  get waiting(): number {
    return this.waiters.length;
  }
}
