/**
 * The UI's sessions, by cookie: each names its viewer (an administrator, or
 * in gateway mode a signed-in person who may be one) and ends at its expiry.
 * Only digests of the cookie values are kept. The store is bounded: past
 * `maxSessions`, the oldest session ends, so a flood of sign-ins cannot grow
 * it without end. With replicas (the `cluster` section) the sessions are
 * shared (SharedUiSessions, in Redis: redisUiSessions.ts): a session opened
 * on one replica is valid on all, a sign-out ends it on all, and the bound
 * holds for the whole cluster (the oldest beyond it end on every replica). This map is
 * then each replica's copy of what it has looked up, refreshed from the
 * shared store on each page load and bridge connection, and dropped when
 * another replica ends the session (a notice).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Principal } from '../core/catalog/index.js';

/** Who is using the UI through one session or connection. */
export interface UiViewer {
  /** Administrators get the management UI; everyone else only the self-service methods. */
  admin: boolean;
  /** Gateway mode: the signed-in person (absent: the operator's login link or the main token). */
  principal?: Principal;
}

/** The operator: the one-time login link `serve` prints, or the main token. */
export const OPERATOR: UiViewer = { admin: true };

function digest(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** One session as it is kept: its viewer and when it ends (ms since the epoch). */
export interface UiSession {
  viewer: UiViewer;
  expires: number;
}

/** Sessions kept where every replica finds them, by cookie digest (never the cookie itself). */
export interface SharedUiSessions {
  /**
   * Keeps `session` under `digest` until it expires; past `maxSessions` in
   * the whole cluster, the oldest to expire end everywhere (as a sign-out).
   */
  put(digest: string, session: UiSession, maxSessions: number): Promise<void>;
  /** The session under `digest`, or undefined (unknown, ended or expired). */
  get(digest: string): Promise<UiSession | undefined>;
  /** Ends the session under `digest` on every replica. */
  end(digest: string): Promise<void>;
  /** Calls `listener` with the digest of each session another replica ended. Returns the unsubscribe. */
  onEnded(listener: (digest: string) => void): () => void;
}

/** Sessions by cookie value; see the module comment. */
export class UiSessions {
  /** Cookie digest -> session, oldest first (a Map keeps insertion order). */
  private readonly sessions = new Map<string, UiSession>();
  private shared: SharedUiSessions | undefined;
  private readonly endedListeners = new Set<() => void>();

  constructor(private readonly maxSessions = 1_000) {}

  /** Shares the sessions with the other replicas from now on. */
  share(shared: SharedUiSessions): () => void {
    this.shared = shared;
    return shared.onEnded((key) => {
      if (!this.sessions.delete(key)) return;
      for (const listener of this.endedListeners) listener();
    });
  }

  /** Calls `listener` when another replica ended a session this one knew. Returns the unsubscribe. */
  onEndedElsewhere(listener: () => void): () => void {
    this.endedListeners.add(listener);
    return () => this.endedListeners.delete(listener);
  }

  /** Like `create`, and kept in the shared store (replicas) before the cookie is handed out. */
  async open(viewer: UiViewer, ttlMs: number): Promise<string> {
    const id = this.create(viewer, ttlMs);
    const key = digest(id);
    const session = this.sessions.get(key);
    if (this.shared && session) await this.shared.put(key, session, this.maxSessions);
    return id;
  }

  /**
   * Replicas: takes the session of cookie `id` as the shared store has it
   * (another replica may have opened or ended it). Without a shared store,
   * or with Redis away, the copy here stays as it is.
   */
  async refresh(id: string): Promise<void> {
    if (!this.shared) return;
    const key = digest(id);
    const session = await this.shared.get(key).catch(() => null);
    if (session === null) return;
    if (session === undefined) this.sessions.delete(key);
    else this.keep(key, session);
  }

  /** Ends a session here and (replicas) everywhere; whether this replica knew it. A shared failure rejects. */
  async close(id: string): Promise<boolean> {
    const key = digest(id);
    const known = this.sessions.delete(key);
    await this.shared?.end(key);
    return known;
  }

  /** A new session for `viewer`, valid for `ttlMs`: the cookie value to set. */
  create(viewer: UiViewer, ttlMs: number, now = Date.now()): string {
    this.sweep(now);
    while (this.sessions.size >= this.maxSessions) {
      const oldest = this.sessions.keys().next().value;
      if (oldest === undefined) break;
      this.sessions.delete(oldest);
    }
    const id = randomBytes(32).toString('base64url');
    this.sessions.set(digest(id), { viewer, expires: now + ttlMs });
    return id;
  }

  /** Keeps a session looked up in the shared store (bounded as `create` is). */
  private keep(key: string, session: UiSession): void {
    this.sessions.delete(key);
    while (this.sessions.size >= this.maxSessions) {
      const oldest = this.sessions.keys().next().value;
      if (oldest === undefined) break;
      this.sessions.delete(oldest);
    }
    this.sessions.set(key, session);
  }

  /** The viewer of a live session, or undefined (unknown or expired). */
  get(id: string, now = Date.now()): UiViewer | undefined {
    const key = digest(id);
    const session = this.sessions.get(key);
    if (session === undefined) return undefined;
    if (session.expires <= now) {
      this.sessions.delete(key);
      return undefined;
    }
    return session.viewer;
  }

  /** Ends a session (sign-out); whether there was one. */
  end(id: string): boolean {
    return this.sessions.delete(digest(id));
  }

  /** Sessions held (expired ones until the next sweep). */
  get size(): number {
    return this.sessions.size;
  }

  /** Forgets expired sessions. */
  private sweep(now: number): void {
    for (const [key, session] of this.sessions) if (session.expires <= now) this.sessions.delete(key);
  }
}
