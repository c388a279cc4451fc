/**
 * The UI's sessions, by cookie: each names its viewer (an administrator, or
 * in gateway mode a signed-in person who may be one) and ends at its expiry.
 * Only digests of the cookie values are kept. The store is bounded: past
 * `maxSessions`, the oldest session ends, so a flood of sign-ins cannot grow
 * it without end.
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

/** Sessions by cookie value; see the module comment. */
export class UiSessions {
  /** Cookie digest -> session, oldest first (a Map keeps insertion order). */
  private readonly sessions = new Map<string, { viewer: UiViewer; expires: number }>();

  constructor(private readonly maxSessions = 1_000) {}

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
