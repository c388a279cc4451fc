/**
 * Bounded delivery of log and progress notifications to one client. The SDK
 * hands every notification to the client's wire at once, so a client that
 * stops reading while a backend floods it grew the proxy by hundreds of MB.
 * Wrapped around a frontend transport's `send`, this queue holds at most
 * `max` such notifications while the client's wire is backed up (progress
 * coalesced per request and token, the latest wins; past `max` the oldest is
 * dropped and counted), passes them on as the wire drains, and reports a
 * client whose wire stays backed up for `stallMs` (its session is then
 * ended). Answers, requests and every other notification pass at once,
 * never dropped; an answer first takes along what waits for its request.
 */
import type { JSONRPCMessage, Transport, TransportSendOptions } from '@modelcontextprotocol/server';

/** How backed up the client's wire is. */
export interface OutboundFlow {
  /** The wire holds more than it should: hold notifications back. */
  congested(): boolean;
  /** Calls `then` once, when the wire may take more (drained, or closed). */
  whenDrained(then: () => void): void;
}

/** Limits of one client's queue and what to do with a stuck client. */
export interface NotificationQueueOptions {
  max: number;
  stallMs: number;
  /** The wire stayed backed up for `stallMs`: end the session; `dropped` notifications were lost so far. */
  onStalled(dropped: number): void;
}

interface Queued {
  message: JSONRPCMessage;
  options: TransportSendOptions | undefined;
}

const HELD_METHODS = new Set(['notifications/message', 'notifications/progress']);

function heldKey(message: JSONRPCMessage, options: TransportSendOptions | undefined, seq: number): string | undefined {
  if (!('method' in message) || 'id' in message || !HELD_METHODS.has(message.method)) return undefined;
  if (message.method === 'notifications/message') return `log ${seq}`;
  const token = (message.params as { progressToken?: unknown } | undefined)?.progressToken;
  return `progress ${String(options?.relatedRequestId)} ${JSON.stringify(token)}`;
}

function answeredId(message: JSONRPCMessage): string | number | undefined {
  return 'id' in message && !('method' in message) ? (message.id as string | number) : undefined;
}

/** The bounded queue in front of one transport's sends. */
export class NotificationQueue {
  private readonly queued = new Map<string, Queued>();
  private seq = 0;
  private pumping = false;
  /** A drain wait is pending: further offers queue, they do not wait again. */
  private waitingForDrain = false;
  private stallTimer: NodeJS.Timeout | undefined;
  private closed = false;
  /** Notifications evicted unsent (the oldest, past `max`). */
  dropped = 0;

  constructor(
    private readonly send: (message: JSONRPCMessage, options?: TransportSendOptions) => Promise<void>,
    private readonly flow: OutboundFlow,
    private readonly options: NotificationQueueOptions,
  ) {}

  /** The wrapped transport's `send`. */
  async offer(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const key = heldKey(message, options, this.seq++);
    if (key === undefined) {
      const answered = answeredId(message);
      if (answered !== undefined) await this.sendWaitingFor(answered);
      return this.send(message, options);
    }
    if (this.closed) return;
    // Nothing waits and the client reads: straight on, as if there were no queue.
    if (this.queued.size === 0 && !this.flow.congested()) return this.send(message, options);
    if (!this.queued.has(key) && this.queued.size >= this.options.max) this.evictOldest();
    this.queued.set(key, { message, options });
    if (!this.pumping) void this.pump();
  }

  /** Stops holding (the transport closed): what waits is dropped. */
  close(): void {
    this.closed = true;
    this.queued.clear();
    clearTimeout(this.stallTimer);
  }

  get size(): number {
    return this.queued.size;
  }

  private evictOldest(): void {
    const oldest = this.queued.keys().next().value as string;
    this.queued.delete(oldest);
    this.dropped++;
  }

  /** Sends what waits for request `id` before its answer (progress, its logs on a 2026 stream). */
  private async sendWaitingFor(id: string | number): Promise<void> {
    for (const [key, item] of [...this.queued]) {
      if (item.options?.relatedRequestId !== id) continue;
      this.queued.delete(key);
      await this.send(item.message, item.options).catch(() => undefined);
    }
  }

  private async pump(): Promise<void> {
    this.pumping = true;
    try {
      while (this.queued.size > 0 && !this.closed) {
        if (this.flow.congested()) return this.waitForDrain();
        this.unstalled();
        const [key, item] = this.queued.entries().next().value as [string, Queued];
        this.queued.delete(key);
        await this.send(item.message, item.options).catch(() => undefined);
      }
      this.unstalled();
    } finally {
      this.pumping = false;
    }
  }

  private waitForDrain(): void {
    this.stallTimer ??= setTimeout(() => {
      this.stallTimer = undefined;
      if (!this.closed && this.flow.congested()) this.options.onStalled(this.dropped);
    }, this.options.stallMs);
    this.stallTimer.unref();
    if (this.waitingForDrain) return;
    this.waitingForDrain = true;
    this.flow.whenDrained(() => {
      this.waitingForDrain = false;
      this.unstalled();
      if (!this.pumping) void this.pump();
    });
  }

  private unstalled(): void {
    clearTimeout(this.stallTimer);
    this.stallTimer = undefined;
  }
}

/** Puts a bounded notification queue in front of `transport.send`; returns the queue. */
export function boundNotifications(
  transport: Transport,
  flow: OutboundFlow,
  options: NotificationQueueOptions,
): NotificationQueue {
  const queue = new NotificationQueue(transport.send.bind(transport), flow, options);
  transport.send = (message, sendOptions) => queue.offer(message, sendOptions);
  return queue;
}
