/**
 * The frontend sessions connected to this Switchboard, for the UI's Clients
 * screen: 2025-era sessions (HTTP `Mcp-Session-Id` or one stdio connection)
 * from their `initialize` to their end, and 2026-07-28 clients, which are
 * stateless, as one entry per client identity (profile + client info)
 * seen within the last `modernIdleMs`. Holds no tokens.
 */
import { randomUUID } from 'node:crypto';
import type { SessionView } from '../../../../shared/model/views.js';

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

/** Longest client name or version kept, in characters (clients choose them). */
export const MAX_CLIENT_INFO_CHARS = 128;

/** Most 2026 client entries kept; beyond it the oldest one goes. */
export const MAX_MODERN_CLIENTS = 1000;

function clip(value: string | undefined): string | undefined {
  return value === undefined || value.length <= MAX_CLIENT_INFO_CHARS ? value : value.slice(0, MAX_CLIENT_INFO_CHARS);
}

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
    const clientName = clip(info.clientName);
    const clientVersion = clip(info.clientVersion);
    this.sessions.set(id, {
      id,
      profile: info.profile,
      era: info.era,
      transport: info.transport,
      ...(clientName !== undefined ? { clientName } : {}),
      ...(clientVersion !== undefined ? { clientVersion } : {}),
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
    const clipped = { ...update, clientName: clip(update.clientName), clientVersion: clip(update.clientVersion) };
    Object.assign(session, Object.fromEntries(Object.entries(clipped).filter(([, v]) => v !== undefined)));
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
    const clientName = clip(info.clientName);
    const clientVersion = clip(info.clientVersion);
    const key = JSON.stringify([info.transport, info.profile, clientName ?? '', clientVersion ?? '']);
    const existing = this.modernKeys.get(key);
    if (existing !== undefined && this.sessions.has(existing)) return this.touch(existing);
    // Identities are the client's to choose: idle ones go as new ones come (not only when the list is
    // read), and their number is capped.
    this.prune();
    for (const [oldKey, id] of this.modernKeys) {
      if (this.modernKeys.size < MAX_MODERN_CLIENTS) break;
      this.modernKeys.delete(oldKey);
      this.sessions.delete(id);
    }
    this.modernKeys.set(key, this.open({ ...info, clientName, clientVersion, era: 'modern' }));
  }

  /** Removes a session (closed, or its client's token revoked). */
  close(id: string): void {
    if (this.sessions.delete(id)) this.announce();
  }

  /** Removes every 2026 client entry of `profile` (its token was revoked or rotated). */
  closeModern(profile: string): void {
    let removed = false;
    for (const [key, id] of this.modernKeys) {
      const session = this.sessions.get(id);
      if (session && session.profile !== profile) continue;
      this.modernKeys.delete(key);
      removed = this.sessions.delete(id) || removed;
    }
    if (removed) this.announce();
  }

  /** Drops 2026 clients idle for longer than `modernIdleMs`. */
  private prune(): void {
    const cutoff = Date.now() - this.modernIdleMs;
    for (const [key, id] of this.modernKeys) {
      const session = this.sessions.get(id);
      if (!session || Date.parse(session.lastActivityAt) < cutoff) {
        this.modernKeys.delete(key);
        this.sessions.delete(id);
      }
    }
  }

  /** Every session, oldest first; idle 2026 clients are dropped first. */
  list(): SessionView[] {
    this.prune();
    return [...this.sessions.values()].map((session) => ({ ...session }));
  }
}
