/**
 * The change-event bus behind 2026-07-28 listen streams, with backpressure.
 * The SDK writes each event into a stream without regard to a client that
 * stopped reading; here each stream holds at most one pending event per kind
 * (and per resource URI), writes only while its response is not waiting to
 * drain, counts what it merged, and ends a stream stuck for `stallMs` (the
 * client sees the stream end and may listen again).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { ServerResponse } from 'node:http';
import type { ServerEvent, ServerEventBus } from '@modelcontextprotocol/server';

/** One listen stream as the endpoint set it up: its response, its client and the tools/list fingerprint it knows. */
export interface ListenStreamContext {
  res: ServerResponse;
  client: string;
  tools: string;
  /** Who it acts for (callerIdentity.ts callerKey): a per-caller server's updates reach their own streams only. */
  caller?: string | undefined;
}

/** Set around the SDK's handling of one listen request, so `subscribe` knows its stream. */
export const listenContext = new AsyncLocalStorage<ListenStreamContext>();

/** A bus whose listeners (one per listen stream) never queue without bound. */
export class BoundedBus implements ServerEventBus {
  private readonly listeners = new Map<(event: ServerEvent) => void, ListenStreamContext | undefined>();
  /** Events merged into one already pending for a slow stream. */
  dropped = 0;
  /** Streams ended because their client stopped reading. */
  stalled = 0;

  constructor(private readonly stallMs = 30_000) {}

  /** Publishes an event to every stream, or to the streams `to` selects. */
  publish(event: ServerEvent, to?: (stream: ListenStreamContext) => boolean): void {
    for (const [listener, stream] of [...this.listeners]) {
      try {
        if (to && stream && !to(stream)) continue;
        listener(event);
      } catch {
        // One broken stream must not keep the event from the others.
      }
    }
  }

  subscribe(listener: (event: ServerEvent) => void): () => void {
    const context = listenContext.getStore();
    const wrapped = context ? this.bounded(listener, context.res) : listener;
    this.listeners.set(wrapped, context);
    return () => this.listeners.delete(wrapped);
  }

  private bounded(listener: (event: ServerEvent) => void, res: ServerResponse): (event: ServerEvent) => void {
    const pending = new Map<string, ServerEvent>();
    let scheduled = false;
    let stallTimer: NodeJS.Timeout | undefined;
    res.once('close', () => clearTimeout(stallTimer));
    const flush = (): void => {
      scheduled = false;
      if (res.writableNeedDrain) {
        stallTimer ??= setTimeout(() => {
          this.stalled++;
          res.destroy();
        }, this.stallMs);
        scheduled = true;
        res.once('drain', flush);
        return;
      }
      clearTimeout(stallTimer);
      stallTimer = undefined;
      const events = [...pending.values()];
      pending.clear();
      for (const event of events) listener(event);
    };
    return (event) => {
      const key = event.kind === 'resource_updated' ? `${event.kind} ${event.uri}` : event.kind;
      if (pending.has(key)) this.dropped++;
      pending.set(key, event);
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    };
  }
}
