/**
 * Bounded delivery of resource updates to one frontend. Updates wait in a set
 * of URIs, so a burst for one URI collapses into one notification and memory
 * never exceeds `maxPending` URIs; past that the oldest pending URI is
 * dropped. Every update not delivered on its own is counted.
 */

/** One subscriber of resource updates: a 2025 session, a 2026 listen stream, a stdio connection. */
export interface UpdateSink {
  readonly id: string;
  /** The client profile behind it: updates are authorized for it, each time. */
  readonly client: string;
  /**
   * Who it acts for (router's callerKey: the signed-in person, else `client:<profile>`): a
   * per-caller server's subscriptions are this caller's own, on their own upstream connection.
   */
  readonly caller?: string | undefined;
  /**
   * Queues an update; never blocks, never grows without bound. `caller`: the update is that
   * caller's own (a per-caller server's), for them alone.
   */
  deliver(uri: string, caller?: string): void;
}

/** A sink that sends updates one at a time through `send`, coalescing what waits. */
export class CoalescingSink implements UpdateSink {
  private readonly pending = new Set<string>();
  private flushing = false;
  /** Updates merged into a pending one or evicted because the queue was full. */
  dropped = 0;
  /** Updates handed to `send`. */
  delivered = 0;

  constructor(
    readonly id: string,
    private readonly send: (uri: string) => Promise<void>,
    readonly client: string,
    private readonly maxPending = 256,
    readonly caller?: string,
  ) {}

  deliver(uri: string): void {
    if (this.pending.has(uri)) {
      this.dropped++;
    } else {
      if (this.pending.size >= this.maxPending) {
        const oldest = this.pending.values().next().value as string;
        this.pending.delete(oldest);
        this.dropped++;
      }
      this.pending.add(uri);
    }
    if (!this.flushing) void this.flush();
  }

  private async flush(): Promise<void> {
    this.flushing = true;
    try {
      while (this.pending.size > 0) {
        const uri = this.pending.values().next().value as string;
        this.pending.delete(uri);
        this.delivered++;
        await this.send(uri).catch(() => undefined);
      }
    } finally {
      this.flushing = false;
    }
  }
}
