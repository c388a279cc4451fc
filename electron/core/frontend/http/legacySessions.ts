/**
 * The live 2025-era HTTP sessions, bounded. A client killed or restarted
 * never sends DELETE, so a session with no request in flight and no open
 * stream for `idleMs` is ended (spec 2025-11-25 "Session Management": the
 * server MAY terminate a session; the client then gets 404 and starts a new
 * one), and each client profile keeps at most `maxPerClient` sessions: a new
 * one ends that profile's least recently used.
 */
import type { ServerResponse } from 'node:http';
import type { Server } from '@modelcontextprotocol/server';
import type { ResponseFlow } from './responseFlow.js';
import type { SessionEvents } from './eventRetention.js';
import type { SessionTransport } from './sessionTransport.js';

/** One 2025-era session. */
export interface LegacySession {
  transport: SessionTransport;
  server: Server;
  /** The client profile that opened it; every later request must be that client's. */
  client: string;
  /** Gateway mode: the person who opened it (principalKey); every later request must be theirs. */
  principal?: string | undefined;
  /** Its open responses, watched for a client that stops reading. */
  flow: ResponseFlow;
  /** Its streams' recent events, for a client that reconnects with Last-Event-ID. */
  events: SessionEvents;
  /** When its last request or stream ended (or began, while one is open). */
  lastActive: number;
  /** Requests in flight and streams open on it. */
  open: number;
}

/** Limits of the session table. */
export interface SessionLimits {
  idleMs: number;
  maxPerClient: number;
}

/** Why a session was ended by us. */
export type EndReason = 'idle' | 'capped';

/** The session table with idle expiry and a per-profile cap. */
export class LegacySessions {
  private readonly sessions = new Map<string, LegacySession>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly limits: SessionLimits,
    /** Ends a session (closing its server; its transport's onclose then calls `delete`). */
    private readonly end: (id: string, session: LegacySession, reason: EndReason) => void,
    /** Told once per sweep or cap event how many sessions were ended, not once per session. */
    private readonly log: (message: string) => void = () => undefined,
  ) {
    this.sweeper = setInterval(() => this.sweep(), Math.max(50, Math.min(limits.idleMs / 2, 60_000)));
    this.sweeper.unref();
  }

  get size(): number {
    return this.sessions.size;
  }

  get(id: string): LegacySession | undefined {
    return this.sessions.get(id);
  }

  entries(): IterableIterator<[string, LegacySession]> {
    return this.sessions.entries();
  }

  [Symbol.iterator](): IterableIterator<[string, LegacySession]> {
    return this.sessions.entries();
  }

  delete(id: string): void {
    this.sessions.delete(id);
  }

  /** Adds a new session, first ending its profile's least recently used ones beyond the cap. */
  add(id: string, session: Omit<LegacySession, 'lastActive' | 'open'>): LegacySession {
    const own = [...this.sessions].filter(([, other]) => other.client === session.client);
    own.sort(([, a], [, b]) => a.lastActive - b.lastActive);
    const over = own.slice(0, Math.max(0, own.length - this.limits.maxPerClient + 1));
    for (const [oldId, old] of over) {
      this.sessions.delete(oldId);
      this.end(oldId, old, 'capped');
    }
    if (over.length > 0) {
      this.log(
        `client ${session.client} reached maxSessionsPerClient (${this.limits.maxPerClient}): ended its least recently used session`,
      );
    }
    const entry: LegacySession = { ...session, lastActive: Date.now(), open: 0 };
    this.sessions.set(id, entry);
    return entry;
  }

  /** Counts a request or stream on `session` as open until its response closes. */
  track(session: LegacySession, res: ServerResponse): void {
    session.open += 1;
    session.lastActive = Date.now();
    session.flow.add(res);
    res.once('close', () => {
      session.open -= 1;
      session.lastActive = Date.now();
    });
  }

  /** Ends the sessions idle for `idleMs` (nothing in flight, no stream). */
  sweep(now = Date.now()): void {
    let ended = 0;
    for (const [id, session] of this.sessions) {
      if (session.open > 0 || now - session.lastActive < this.limits.idleMs) continue;
      this.sessions.delete(id);
      this.end(id, session, 'idle');
      ended += 1;
    }
    if (ended > 0) this.log(`ended ${ended} idle session(s): no request or stream for ${this.limits.idleMs} ms`);
  }

  /** Removes every session (returned, for closing) and stops sweeping. */
  clear(): LegacySession[] {
    clearInterval(this.sweeper);
    const all = [...this.sessions.values()];
    this.sessions.clear();
    return all;
  }

  /** The IDs, for the caller's bookkeeping when clearing. */
  ids(): string[] {
    return [...this.sessions.keys()];
  }
}
