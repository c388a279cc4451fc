/**
 * The frontend sessions connected to this Switchboard, for the UI's Clients
 * screen: 2025-era sessions (HTTP `Mcp-Session-Id` or one stdio connection)
 * from their `initialize` to their end, and 2026-07-28 clients, which are
 * stateless, as one entry per client identity (profile + client info)
 * seen within the last `modernIdleMs`. Holds no tokens.
 */
import { randomUUID } from 'node:crypto';
import type { SessionView } from '../../../shared/model/views.js';

/** What an endpoint knows of a client when it registers it. */
export interface SessionInfo {
  profile: string;
  era: SessionView['era'];
  transport: SessionView['transport'];
  clientName?: string | undefined;
  clientVersion?: string | undefined;
}

/** Key under which 2026-07-28 requests carry the client's name and version (`_meta`). */
export const CLIENT_INFO_KEY = 'io.modelcontextprotocol/clientInfo';

/** Activity more frequent than this does not announce a change (lastActivityAt still moves). */
const TOUCH_ANNOUNCE_MS = 1000;

/** The client info (`{name, version}`) of an `initialize` request or a 2026 request's `_meta`, if any. */
export function clientInfoOf(message: unknown): { name?: string; version?: string } {
  const params = (message as { params?: Record<string, unknown> } | undefined)?.params;
  const meta = params?.['_meta'] as Record<string, unknown> | undefined;
  const info = (params?.['clientInfo'] ?? meta?.[CLIENT_INFO_KEY]) as { name?: unknown; version?: unknown } | undefined;
  return {
    ...(typeof info?.name === 'string' ? { name: info.name } : {}),
    ...(typeof info?.version === 'string' ? { version: info.version } : {}),
  };
}

/** Connected frontend sessions, with a change listener (an invalidation). */
export class SessionRegistry {
  private readonly sessions = new Map<string, SessionView>();
  /** 2026 clients by identity key -> session ID. */
  private readonly modernKeys = new Map<string, string>();
  private readonly listeners = new Set<() => void>();
  private lastAnnounced = 0;

  constructor(private readonly modernIdleMs = 10 * 60_000) {}

  /** Calls `listener` whenever sessions come, go, or show activity; returns the unsubscribe function. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private announce(): void {
    this.lastAnnounced = Date.now();
    for (const listener of this.listeners) {
      try {
        listener();
      } catch {
        // A failing listener must not break the endpoint.
      }
    }
  }

  /** Registers a session; returns its ID (`id` when given, e.g. the Mcp-Session-Id). */
  open(info: SessionInfo, id: string = randomUUID()): string {
    const now = new Date().toISOString();
    this.sessions.set(id, {
      id,
      profile: info.profile,
      era: info.era,
      transport: info.transport,
      ...(info.clientName !== undefined ? { clientName: info.clientName } : {}),
      ...(info.clientVersion !== undefined ? { clientVersion: info.clientVersion } : {}),
      connectedAt: now,
      lastActivityAt: now,
    });
    this.announce();
    return id;
  }

  /** Records what a session said about itself (e.g. a stdio peer's `initialize`). */
  identify(id: string, update: Partial<Pick<SessionView, 'era' | 'clientName' | 'clientVersion'>>): void {
    const session = this.sessions.get(id);
    if (!session) return;
    Object.assign(session, Object.fromEntries(Object.entries(update).filter(([, v]) => v !== undefined)));
    this.announce();
  }

  /** Records activity of a session. */
  touch(id: string): void {
    const session = this.sessions.get(id);
    if (!session) return;
    session.lastActivityAt = new Date().toISOString();
    if (Date.now() - this.lastAnnounced >= TOUCH_ANNOUNCE_MS) this.announce();
  }

  /** A 2026-07-28 request: registers its client identity on first sight, else records activity. */
  seenModern(info: Omit<SessionInfo, 'era'>): void {
    const key = JSON.stringify([info.transport, info.profile, info.clientName ?? '', info.clientVersion ?? '']);
    const existing = this.modernKeys.get(key);
    if (existing !== undefined && this.sessions.has(existing)) return this.touch(existing);
    this.modernKeys.set(key, this.open({ ...info, era: 'modern' }));
  }

  /** Removes a session (closed, or its client's token revoked). */
  close(id: string): void {
    if (this.sessions.delete(id)) this.announce();
  }

  /** Every session, oldest first; idle 2026 clients are dropped first. */
  list(): SessionView[] {
    const cutoff = Date.now() - this.modernIdleMs;
    for (const [key, id] of this.modernKeys) {
      const session = this.sessions.get(id);
      if (!session || Date.parse(session.lastActivityAt) < cutoff) {
        this.modernKeys.delete(key);
        this.sessions.delete(id);
      }
    }
    return [...this.sessions.values()].map((session) => ({ ...session }));
  }
}
