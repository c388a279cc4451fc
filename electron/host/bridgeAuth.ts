/**
 * Who may use the headless UI's bridge. A one-time login token (printed by
 * `serve`) is exchanged, once, for an HttpOnly SameSite=Strict session
 * cookie; programs may present the main bearer token instead. Requests must
 * come with a loopback Host and, from a browser, this port's own Origin.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { bearerToken, tokenMatcher } from '../core/frontend/index.js';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);
/** How long a UI session lasts without a new login. */
const SESSION_MS = 24 * 60 * 60_000;
/** Sec-WebSocket-Protocol entries of the form `bearer.<token>` carry the main token from a browser. */
export const BEARER_PROTOCOL_PREFIX = 'bearer.';
/** The subprotocol the bridge answers with when a client offers it. */
export const BRIDGE_PROTOCOL = 'switchboard';

function digest(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** The cookies of a request, by name. */
function cookies(req: IncomingMessage): Map<string, string> {
  const found = new Map<string, string>();
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0) found.set(part.slice(0, at).trim(), part.slice(at + 1).trim());
  }
  return found;
}

/** Login tokens, UI sessions and the checks of the bridge. */
export class BridgeAuth {
  /** Login token digests -> expiry (Infinity: the one `serve` prints). */
  private readonly logins = new Map<string, number>();
  /** Session cookie digests -> expiry. */
  private readonly sessions = new Map<string, number>();
  private readonly isMainToken: (presented: string) => boolean;

  constructor(
    mainToken: string,
    private readonly port: () => number,
  ) {
    this.isMainToken = tokenMatcher(mainToken);
  }

  /** The session cookie's name (per port, so two instances do not share one). */
  get cookieName(): string {
    return `sb_ui_${this.port()}`;
  }

  /** Forgets expired login tokens and sessions (each issue and exchange does, so neither map only grows). */
  private sweep(now = Date.now()): void {
    for (const map of [this.logins, this.sessions]) {
      for (const [key, expires] of map) if (expires < now) map.delete(key);
    }
  }

  /** Login tokens and sessions held (expired ones until the next sweep); for tests. */
  get size(): { logins: number; sessions: number } {
    return { logins: this.logins.size, sessions: this.sessions.size };
  }

  /** A new one-time login token, valid for `ttlMs` (default: until used). */
  issueLogin(ttlMs = Infinity): string {
    this.sweep();
    const token = randomBytes(32).toString('base64url');
    this.logins.set(digest(token), Date.now() + ttlMs);
    return token;
  }

  /** Exchanges a login token for a session: the Set-Cookie value, or undefined when the token is unknown or used. */
  exchange(token: string): string | undefined {
    this.sweep();
    const key = digest(token);
    const expires = this.logins.get(key);
    this.logins.delete(key);
    if (expires === undefined || expires < Date.now()) return undefined;
    const session = randomBytes(32).toString('base64url');
    this.sessions.set(digest(session), Date.now() + SESSION_MS);
    return `${this.cookieName}=${session}; HttpOnly; SameSite=Strict; Path=/`;
  }

  /** Whether the request carries a live session cookie. */
  hasSession(req: IncomingMessage): boolean {
    const value = cookies(req).get(this.cookieName);
    if (value === undefined) return false;
    const key = digest(value);
    const expires = this.sessions.get(key);
    if (expires === undefined) return false;
    if (expires < Date.now()) {
      this.sessions.delete(key);
      return false;
    }
    return true;
  }

  /** Whether the request presents the main token (Authorization header or a `bearer.<token>` subprotocol). */
  hasMainToken(req: IncomingMessage): boolean {
    const header = bearerToken(req);
    if (header !== undefined && this.isMainToken(header)) return true;
    const offered = String(req.headers['sec-websocket-protocol'] ?? '')
      .split(',')
      .map((entry) => entry.trim());
    return offered.some(
      (entry) =>
        entry.startsWith(BEARER_PROTOCOL_PREFIX) && this.isMainToken(entry.slice(BEARER_PROTOCOL_PREFIX.length)),
    );
  }

  /** Whether the Host header names this machine. */
  hostAllowed(req: IncomingMessage): boolean {
    const host = req.headers.host;
    if (host === undefined) return false;
    try {
      return LOOPBACK_HOSTS.has(new URL(`http://${host}`).hostname);
    } catch {
      return false;
    }
  }

  /** This UI's own origins. */
  origins(): string[] {
    const port = this.port();
    return [`http://127.0.0.1:${port}`, `http://localhost:${port}`, `http://[::1]:${port}`];
  }

  /**
   * Why a bridge connection is refused, or undefined when it may proceed:
   * loopback Host; an Origin, when sent, must be this UI's own; a browser
   * (Origin present) may use its session cookie, anyone the main token.
   */
  refusal(req: IncomingMessage): { status: number; reason: string } | undefined {
    if (!this.hostAllowed(req)) return { status: 403, reason: 'Forbidden: Host is not a loopback name' };
    const origin = req.headers.origin;
    if (origin !== undefined && !this.origins().includes(origin)) {
      return { status: 403, reason: 'Forbidden: Origin is not this UI' };
    }
    if (this.hasMainToken(req)) return undefined;
    if (origin !== undefined && this.hasSession(req)) return undefined;
    return { status: 401, reason: 'Unauthorized: log in with the link `mcp-switchboard serve` printed' };
  }
}
