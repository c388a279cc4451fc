/**
 * What a 2025-era client may still ask for again: the SSE events Switchboard
 * sent on its session's streams, kept briefly so a client whose connection
 * dropped mid-call reconnects with `Last-Event-ID` and gets the rest, the
 * answer included (spec 2025-11-25, transports, "Resumability and
 * Redelivery"; SEP-1699). The SDK's transport does the SSE framing, the
 * priming event and the replay; this is the `EventStore` it asks, one view per
 * session over one shared, bounded retention: events older than `retentionMs`
 * go, each stream keeps at most `maxStreamEvents` / `maxStreamBytes` (its
 * oldest go first) and all sessions together at most `maxTotalBytes` (the
 * oldest anywhere go first), so memory stays bounded whatever clients do.
 * A session only ever sees its own events.
 */
import type { EventId, EventStore, JSONRPCMessage, StreamId } from '@modelcontextprotocol/server';

/** Bounds of the retention; the defaults are RESUME_LIMITS. */
export interface RetentionLimits {
  retentionMs: number;
  maxStreamEvents: number;
  maxStreamBytes: number;
  maxTotalBytes: number;
}

/** Long enough for a client's reconnect (the SDK client waits `retry`, then backs off), short enough to free memory soon. */
export const RESUME_LIMITS: RetentionLimits = {
  retentionMs: 30_000,
  maxStreamEvents: 1_000,
  maxStreamBytes: 8 * 1024 * 1024,
  maxTotalBytes: 32 * 1024 * 1024,
};

/** How long a client waits before reconnecting a dropped stream (the SSE `retry:` field of the priming event). */
export const RESUME_RETRY_MS = 1_000;

interface StoredEvent {
  session: number;
  stream: string;
  /** The serialized message; empty for a priming event (an id to resume from, nothing to replay). */
  json: string;
  bytes: number;
  at: number;
}

interface StreamEvents {
  ids: EventId[];
  bytes: number;
}

/** The shared retention of every 2025-era session's stream events. */
export class EventRetention {
  private readonly events = new Map<EventId, StoredEvent>();
  /**
   * Every stored id in age order from `head` on (ids dropped meanwhile are skipped when reached).
   * Kept apart from the map: walking a map's head past deleted entries costs what was deleted.
   */
  private order: EventId[] = [];
  private head = 0;
  private readonly streams = new Map<string, StreamEvents>();
  private totalBytes = 0;
  private nextEvent = 0;
  private nextSession = 0;
  /** Events stored and dropped before anyone asked for them again (cap or age), for logs and tests. */
  dropped = 0;

  constructor(
    private readonly limits: RetentionLimits = RESUME_LIMITS,
    private readonly now: () => number = Date.now,
  ) {}

  /** A new session's event store; `dispose` it when the session ends. */
  forSession(): SessionEvents {
    return new SessionEvents(this, this.nextSession++);
  }

  /** Bytes held now. */
  get bytes(): number {
    return this.totalBytes;
  }

  /** Events held now. */
  get size(): number {
    return this.events.size;
  }

  store(session: number, stream: StreamId, message: JSONRPCMessage): EventId {
    this.expire();
    const json = 'jsonrpc' in message ? JSON.stringify(message) : '';
    const id = `${session}.${stream}.${this.nextEvent++}`;
    const bytes = json.length * 2 + id.length * 2 + 64;
    const key = streamKey(session, stream);
    const events = this.streams.get(key) ?? { ids: [], bytes: 0 };
    this.streams.set(key, events);
    this.events.set(id, { session, stream, json, bytes, at: this.now() });
    this.order.push(id);
    events.ids.push(id);
    events.bytes += bytes;
    this.totalBytes += bytes;
    while (
      events.ids.length > 1 &&
      (events.ids.length > this.limits.maxStreamEvents || events.bytes > this.limits.maxStreamBytes)
    ) {
      this.drop(events.ids[0]!);
    }
    while (this.totalBytes > this.limits.maxTotalBytes && this.events.size > 1) this.drop(this.oldest()!);
    return id;
  }

  /** The stream of `id`, if it is still held and belongs to `session`. */
  streamOf(session: number, id: EventId): StreamId | undefined {
    this.expire();
    const event = this.events.get(id);
    return event?.session === session ? event.stream : undefined;
  }

  /** The messages of `id`'s stream after `id`, oldest first (priming events skipped). */
  after(session: number, id: EventId): { stream: StreamId; events: [EventId, JSONRPCMessage][] } | undefined {
    const stream = this.streamOf(session, id);
    if (stream === undefined) return undefined;
    const ids = this.streams.get(streamKey(session, stream))?.ids ?? [];
    const later = ids.slice(ids.indexOf(id) + 1);
    const events = later.flatMap((eventId): [EventId, JSONRPCMessage][] => {
      const json = this.events.get(eventId)?.json;
      return json ? [[eventId, JSON.parse(json) as JSONRPCMessage]] : [];
    });
    return { stream, events };
  }

  /** Forgets every event of `session`. */
  forget(session: number): void {
    for (const [key, events] of this.streams) {
      if (!key.startsWith(`${session}:`)) continue;
      for (const id of [...events.ids]) this.drop(id, false);
    }
  }

  /** Forgets everything (the endpoint closed). */
  clear(): void {
    this.events.clear();
    this.order = [];
    this.head = 0;
    this.streams.clear();
    this.totalBytes = 0;
  }

  /** The oldest event still held. */
  private oldest(): EventId | undefined {
    while (this.head < this.order.length && !this.events.has(this.order[this.head]!)) this.head += 1;
    if (this.head > 1024 && this.head * 2 > this.order.length) {
      this.order = this.order.slice(this.head);
      this.head = 0;
    }
    return this.order[this.head];
  }

  /** Drops events older than the retention. */
  private expire(): void {
    const cutoff = this.now() - this.limits.retentionMs;
    for (let id = this.oldest(); id !== undefined; id = this.oldest()) {
      if (this.events.get(id)!.at > cutoff) return;
      this.drop(id);
    }
  }

  private drop(id: EventId, count = true): void {
    const event = this.events.get(id);
    if (!event) return;
    this.events.delete(id);
    this.totalBytes -= event.bytes;
    if (count && event.json) this.dropped += 1;
    const key = streamKey(event.session, event.stream);
    const events = this.streams.get(key);
    if (!events) return;
    // Almost always the stream's oldest: shift() is far cheaper than splice().
    if (events.ids[0] === id) events.ids.shift();
    else if (events.ids.includes(id)) events.ids.splice(events.ids.indexOf(id), 1);
    events.bytes -= event.bytes;
    if (events.ids.length === 0) this.streams.delete(key);
  }
}

function streamKey(session: number, stream: StreamId): string {
  return `${session}:${stream}`;
}

/** One session's view of the retention: the SDK transport's `eventStore`. */
export class SessionEvents implements EventStore {
  constructor(
    private readonly retention: EventRetention,
    private readonly session: number,
  ) {}

  storeEvent(streamId: StreamId, message: JSONRPCMessage): Promise<EventId> {
    return Promise.resolve(this.retention.store(this.session, streamId, message));
  }

  getStreamIdForEventId(eventId: EventId): Promise<StreamId | undefined> {
    return Promise.resolve(this.retention.streamOf(this.session, eventId));
  }

  /** True while `eventId` can be resumed from on this session. */
  knows(eventId: EventId): boolean {
    return this.retention.streamOf(this.session, eventId) !== undefined;
  }

  async replayEventsAfter(
    lastEventId: EventId,
    { send }: { send: (eventId: EventId, message: JSONRPCMessage) => Promise<void> },
  ): Promise<StreamId> {
    const replay = this.retention.after(this.session, lastEventId);
    if (!replay) throw new Error('the Last-Event-ID is unknown or has expired');
    for (const [id, message] of replay.events) await send(id, message);
    return replay.stream;
  }

  /** Frees this session's events (it ended). */
  dispose(): void {
    this.retention.forget(this.session);
  }
}
