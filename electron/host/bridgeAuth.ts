/**
 * Who may use the headless UI's bridge. A one-time login token (printed by
 * `serve`) is exchanged, once, for an HttpOnly SameSite=Strict session
 * cookie of the operator; in gateway mode a sign-in through the identity
 * provider gives a person's session (SameSite=Lax: it is set at the end of a
 * cross-site redirect). Programs may present the main bearer token instead.
 * Requests must come with a loopback Host (or the gateway's public host) and,
 * from a browser, this UI's own Origin.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { bearerToken, tokenMatcher } from '../core/frontend/index.js';
import { OPERATOR, UiSessions, type SharedUiSessions, type UiViewer } from './uiSessions.js';

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

/** Where else the UI is reached (gateway mode), and how its sessions are kept. */
export interface BridgeAuthOptions {
  /** The gateway's public origin (`https://mcp.example.com`): its host and origin are accepted too. */
  publicOrigin?: string | undefined;
  /** Session cookies get `Secure` (the UI is served over https). */
  secureCookies?: boolean;
  /** Most sessions held at once. */
  maxSessions?: number;
  /**
   * Replicas: the sessions shared by every replica. The cookie is then named
   * after the public origin's port (gateway mode), not this replica's: a load
   * balancer's replicas may listen on different ports.
   */
  shared?: SharedUiSessions | undefined;
}

/** Login tokens, UI sessions and the checks of the bridge. */
export class BridgeAuth {
  /** Login token digests -> expiry (Infinity: the one `serve` prints). */
  private readonly logins = new Map<string, number>();
  /** UI sessions by cookie, each with its viewer. */
  readonly sessions: UiSessions;
  private readonly isMainToken: (presented: string) => boolean;
  private readonly publicOrigin: URL | undefined;

  constructor(
    mainToken: string,
    private readonly port: () => number,
    private readonly options: BridgeAuthOptions = {},
  ) {
    this.isMainToken = tokenMatcher(mainToken);
    this.sessions = new UiSessions(options.maxSessions);
    if (options.shared) this.sessions.share(options.shared);
    this.publicOrigin = options.publicOrigin === undefined ? undefined : new URL(options.publicOrigin);
  }

  /** The session cookie's name (per port, so two instances do not share one). */
  get cookieName(): string {
    const origin = this.options.shared ? this.publicOrigin : undefined;
    if (origin) return `sb_ui_${origin.port || (origin.protocol === 'https:' ? 443 : 80)}`;
    return `sb_ui_${this.port()}`;
  }

  /**
   * Replicas: brings the request's session up to date from the shared store
   * (opened or ended on another replica) before the checks below, which read
   * this replica's copy. Nothing to do without a shared store.
   */
  async load(req: IncomingMessage): Promise<void> {
    const value = cookies(req).get(this.cookieName);
    if (value !== undefined) await this.sessions.refresh(value);
  }

  /** Forgets expired login tokens (each issue and exchange does, so the map never only grows). */
  private sweep(now = Date.now()): void {
    for (const [key, expires] of this.logins) if (expires < now) this.logins.delete(key);
  }

  /** Login tokens and sessions held (expired ones until the next sweep); for tests. */
  get size(): { logins: number; sessions: number } {
    return { logins: this.logins.size, sessions: this.sessions.size };
  }

  /** The Set-Cookie value of a session cookie. */
  sessionCookie(id: string, sameSite: 'Strict' | 'Lax', maxAgeMs?: number): string {
    const maxAge = maxAgeMs === undefined ? '' : `; Max-Age=${Math.floor(maxAgeMs / 1000)}`;
    return `${this.cookieName}=${id}; HttpOnly; SameSite=${sameSite}; Path=/${this.options.secureCookies ? '; Secure' : ''}${maxAge}`;
  }

  /** The Set-Cookie value that removes the session cookie. */
  clearedCookie(): string {
    return `${this.cookieName}=; HttpOnly; SameSite=Lax; Path=/; Max-Age=0${this.options.secureCookies ? '; Secure' : ''}`;
  }

  /** The viewer of the request's session cookie, or undefined. */
  viewer(req: IncomingMessage): UiViewer | undefined {
    const value = cookies(req).get(this.cookieName);
    return value === undefined ? undefined : this.sessions.get(value);
  }

  /** Ends the request's session (sign-out) here and on every replica; whether there was one. */
  async endSession(req: IncomingMessage): Promise<boolean> {
    const value = cookies(req).get(this.cookieName);
    return value === undefined ? false : this.sessions.close(value);
  }

  /**
   * Who a bridge connection acts for, and whether it still may: the main token is the operator for
   * good; a session's viewer only while that session lives (sign-out or expiry ends its sockets' calls).
   */
  connectionOf(req: IncomingMessage): { viewer: UiViewer; alive: () => boolean } | undefined {
    if (this.hasMainToken(req)) return { viewer: OPERATOR, alive: () => true };
    const value = cookies(req).get(this.cookieName);
    const viewer = value === undefined ? undefined : this.sessions.get(value);
    if (value === undefined || viewer === undefined) return undefined;
    return { viewer, alive: () => this.sessions.get(value) !== undefined };
  }

  /** A new one-time login token, valid for `ttlMs` (default: until used). */
  issueLogin(ttlMs = Infinity): string {
    this.sweep();
    const token = randomBytes(32).toString('base64url');
    this.logins.set(digest(token), Date.now() + ttlMs);
    return token;
  }

  /** Exchanges a login token for a session: the Set-Cookie value, or undefined when the token is unknown or used. */
  async exchange(token: string): Promise<string | undefined> {
    this.sweep();
    const key = digest(token);
    const expires = this.logins.get(key);
    this.logins.delete(key);
    if (expires === undefined || expires < Date.now()) return undefined;
    return this.sessionCookie(await this.sessions.open(OPERATOR, SESSION_MS), 'Strict');
  }

  /** Whether the request carries a live session cookie. */
  hasSession(req: IncomingMessage): boolean {
    return this.viewer(req) !== undefined;
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
      const name = new URL(`http://${host}`).hostname;
      return LOOPBACK_HOSTS.has(name) || name === this.publicOrigin?.hostname;
    } catch {
      return false;
    }
  }

  /** This UI's own origins. */
  origins(): string[] {
    const port = this.port();
    const own = [`http://127.0.0.1:${port}`, `http://localhost:${port}`, `http://[::1]:${port}`];
    return this.publicOrigin ? [...own, this.publicOrigin.origin] : own;
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
