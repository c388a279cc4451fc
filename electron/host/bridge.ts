/**
 * The headless UI on the MCP endpoint's own port: the built renderer at `/`,
 * the login exchange at `/ui?login=<one-time token>`, and the contract over a
 * WebSocket at `/bridge`. Frames: `{id, method, params}` -> `{id, ok,
 * result | error}`; `{cancel: id}` cancels that call (its handler's
 * AbortSignal aborts; no answer is owed); events are pushed as `{event,
 * payload}`. A closed socket cancels its calls. /mcp, /healthz and /readyz
 * stay the endpoint's own.
 *
 * In gateway mode with `gateway.ui`, people sign in through the team's
 * identity provider (`/ui/signin`, `/ui/callback`, `POST /ui/signout`;
 * gatewayUi/uiSignIn.ts, loaded only then): administrators get every method,
 * everyone else only the self-service `me.*` methods, answered for their own
 * person (viewerAccess.ts, meHandlers.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import type { CoreHandlers, EventName } from '../../shared/contract.js';
import { ErrorCode } from '../../shared/errors.js';
import type { HttpExtension } from '../core/frontend/index.js';
import type { GatewayConfig, GatewayUiConfig, SecretStore } from '../core/platform/index.js';
import { BRIDGE_PROTOCOL, BridgeAuth } from './bridgeAuth.js';
import type { SignInFlows, UiSignIn } from './gatewayUi/uiSignIn.js';
import type { SharedUiSessions, UiViewer } from './uiSessions.js';
import { refusalFor } from './viewerAccess.js';
import { dispatch, type Redactor } from './dispatch.js';
import type { EventHub } from './contractEvents.js';
import { pageHeaders, readIndex, sendPage, sendStatic } from './uiFiles.js';
import { isAdmin as isAdminOf } from './gatewayUi/adminDecision.js';

/** What the bridge serves. */
export interface BridgeOptions {
  handlers: CoreHandlers;
  events: EventHub;
  /** The main bearer token (programs may use it instead of a login). */
  token: string;
  /** The port the endpoint listens on (known once it listens). */
  port: () => number;
  /** The built renderer. */
  uiDir: string;
  /** Approvals: the UI is the approver while at least one bridge client is connected. */
  approvals?: { attach(): () => void };
  /** The secret redaction every answer passes (see `dispatch`). */
  redact?: Redactor;
  /** Gateway mode: the UI is also reached at the public URL; with `ui`, people sign in to it. */
  gateway?: GatewayConfig | undefined;
  /** The gateway section as edits left it (its administrators apply live); default `gateway`. */
  gatewayInForce?: () => GatewayConfig | undefined;
  /** Where `gateway.ui.clientSecret` is resolved from. */
  secrets?: SecretStore | undefined;
  environment?: NodeJS.ProcessEnv;
  /** The `me.*` handlers of a signed-in person (meHandlers.ts). */
  viewerHandlers?: (viewer: UiViewer) => Partial<CoreHandlers>;
  /** Replicas: UI sessions and sign-ins under way, shared by every replica (redisUiSessions.ts). */
  shared?: { sessions: SharedUiSessions; flows: SignInFlows } | undefined;
}

/** Events a non-administrator's page is sent (its own calls may have been appended). */
const SELF_SERVICE_EVENTS: ReadonlySet<EventName> = new Set<EventName>(['logAppended']);
/** What a call on a socket whose session ended (signed out, expired) gets, and the socket's close code. */
const SESSION_ENDED = {
  code: ErrorCode.Forbidden,
  message: 'your UI session has ended (signed out or expired): sign in again',
};
const SESSION_ENDED_CLOSE = 4401;
/** The cookie that ties a browser to its sign-in under way. */
const FLOW_COOKIE = 'sb_ui_flow';

/** Path of the WebSocket. */
export const BRIDGE_PATH = '/bridge';
const MAX_FRAME_BYTES = 8 * 1024 * 1024;

/** The headless UI and its WebSocket bridge, as an extension of the HTTP endpoint. */
export class Bridge implements HttpExtension {
  readonly auth: BridgeAuth;
  private readonly wss: WebSocketServer;
  private readonly clients = new Set<WebSocket>();
  /** Each socket's calls in flight, by frame id: aborted by a cancel frame or when the socket closes. */
  private readonly inFlight = new WeakMap<WebSocket, Map<string | number, AbortController>>();
  private readonly stopEvents: () => void;
  private readonly stopEnded: () => void;
  private detachApprover: (() => void) | undefined;
  /** Each socket's viewer and the handlers it is answered with. */
  private readonly viewers = new WeakMap<
    WebSocket,
    { viewer: UiViewer; alive: () => boolean; handlers: CoreHandlers }
  >();
  /** Gateway mode with `gateway.ui`: the relying party, loaded on first use. */
  private signIn: Promise<UiSignIn> | undefined;
  private readonly ui: GatewayUiConfig | undefined;

  constructor(private readonly options: BridgeOptions) {
    const resource = options.gateway ? new URL(options.gateway.resource) : undefined;
    this.ui = options.gateway?.ui;
    this.auth = new BridgeAuth(options.token, options.port, {
      publicOrigin: resource?.origin,
      secureCookies: resource?.protocol === 'https:',
      ...(this.ui ? { maxSessions: this.ui.maxSessions } : {}),
      shared: options.shared?.sessions,
    });
    // A session ended on another replica closes its sockets here too.
    this.stopEnded = this.auth.sessions.onEndedElsewhere(() => this.closeEnded());
    this.wss = new WebSocketServer({
      noServer: true,
      maxPayload: MAX_FRAME_BYTES,
      handleProtocols: (offered) => (offered.has(BRIDGE_PROTOCOL) ? BRIDGE_PROTOCOL : false),
    });
    this.stopEvents = options.events.on((event, payload) => {
      const frame = JSON.stringify({ event, payload });
      for (const ws of this.clients) {
        const admin = this.viewers.get(ws)?.viewer.admin ?? false;
        if (ws.readyState === ws.OPEN && (admin || SELF_SERVICE_EVENTS.has(event))) ws.send(frame);
      }
    });
  }

  /** A new one-time login URL (the printed one is valid until used; later ones for `ttlMs`). */
  loginUrl(ttlMs?: number): string {
    return `http://127.0.0.1:${this.options.port()}/ui?login=${this.auth.issueLogin(ttlMs)}`;
  }

  /** Number of connected bridge clients. */
  get clientCount(): number {
    return this.clients.size;
  }

  async route(req: IncomingMessage, res: ServerResponse, path: string): Promise<boolean> {
    const port = this.options.port();
    const method = req.method ?? 'GET';
    if (path === '/ui/login' && method === 'POST') {
      // A fresh login link for programs holding the main token (tests, scripts); valid 5 minutes.
      if (!this.auth.hasMainToken(req)) return answer(res, 401, { error: 'a valid bearer token is required' });
      return answer(res, 200, { url: this.loginUrl(5 * 60_000) });
    }
    if (this.ui && path.startsWith('/ui/') && (await this.routeSignIn(req, res, path, method))) return true;
    if (method !== 'GET' && method !== 'HEAD') return false;
    if (path === '/ui') {
      const login = new URL(req.url ?? '/', 'http://localhost').searchParams.get('login');
      if (method === 'HEAD') {
        // A HEAD (a link preview, a checker) must not spend the one-time token: no body, no cookie.
        res.writeHead(303, { Location: '/', 'Cache-Control': 'no-store' });
        res.end();
        return true;
      }
      const cookie = login === null ? undefined : await this.auth.exchange(login);
      if (login !== null && cookie === undefined) {
        sendPage(
          res,
          403,
          port,
          'Login link used or invalid',
          'Each login link works once. Run `mcp-switchboard ui` for a new one, or keep using the tab that is already logged in.',
        );
        return true;
      }
      res.writeHead(303, { Location: '/', ...(cookie ? { 'Set-Cookie': cookie } : {}), 'Cache-Control': 'no-store' });
      res.end();
      return true;
    }
    if (path === '/' || path === '/index.html') {
      const index = await readIndex(this.options.uiDir);
      if (index === undefined) {
        sendPage(
          res,
          503,
          port,
          'The UI is not built',
          `No index.html in ${this.options.uiDir}. Run \`npm run build\` (it builds the UI with Vite), then reload.`,
        );
        return true;
      }
      // Replicas: the session may have been opened or ended on another replica.
      await this.auth.load(req);
      if (!this.auth.hasSession(req) && this.ui) {
        res.writeHead(303, { Location: '/ui/signin', 'Cache-Control': 'no-store' });
        res.end();
        return true;
      }
      if (!this.auth.hasSession(req)) {
        sendPage(
          res,
          401,
          port,
          'Log in to MCP Switchboard',
          'Run `mcp-switchboard ui` for a login link (http://127.0.0.1:<port>/ui?login=...), or open the one `mcp-switchboard serve` printed. Each link works once.',
        );
        return true;
      }
      res.writeHead(200, pageHeaders(port));
      res.end(method === 'HEAD' ? undefined : index);
      return true;
    }
    return sendStatic(res, this.options.uiDir, path, method);
  }

  upgrade(req: IncomingMessage, socket: Socket, head: Buffer): void {
    // Replicas: the session may have been opened or ended on another replica.
    void this.auth.load(req).then(
      () => this.upgradeLoaded(req, socket, head),
      () => socket.destroy(),
    );
  }

  private upgradeLoaded(req: IncomingMessage, socket: Socket, head: Buffer): void {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const refusal = path === BRIDGE_PATH ? this.auth.refusal(req) : { status: 404, reason: 'Not Found' };
    if (refusal) {
      socket.end(`HTTP/1.1 ${refusal.status} ${refusal.reason}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    // Checked again here: a session that ended since `refusal` looked is refused, never taken for the operator.
    const connection = this.auth.connectionOf(req);
    if (!connection) {
      socket.end('HTTP/1.1 401 Unauthorized\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => this.connected(ws, connection));
  }

  /**
   * The sign-in pages of gateway mode: `/ui/signin` sends the browser to the
   * identity provider, `/ui/callback` takes it back and opens a session,
   * `POST /ui/signout` ends it. False for another path.
   */
  private async routeSignIn(req: IncomingMessage, res: ServerResponse, path: string, method: string): Promise<boolean> {
    const port = this.options.port();
    const ui = this.ui;
    if (!ui) return false;
    if (path === '/ui/signout' && method === 'POST') {
      try {
        await this.auth.endSession(req);
      } catch (error) {
        sendPage(res, 503, port, 'Not signed out', `${(error as Error).message}. Sign out again.`);
        return true;
      }
      this.closeEnded();
      res.writeHead(303, {
        Location: '/ui/signedout',
        'Set-Cookie': this.auth.clearedCookie(),
        'Cache-Control': 'no-store',
      });
      res.end();
      return true;
    }
    if (method !== 'GET') return false;
    if (path === '/ui/signedout') {
      sendPage(
        res,
        200,
        port,
        'Signed out',
        'You are signed out of MCP Switchboard. Open this address again to sign in.',
      );
      return true;
    }
    if (path !== '/ui/signin' && path !== '/ui/callback') return false;
    try {
      const signIn = await this.relyingParty();
      if (path === '/ui/signin') {
        const { url, flowId } = await signIn.begin();
        res.writeHead(303, { Location: url, 'Set-Cookie': this.flowCookie(flowId, 600), 'Cache-Control': 'no-store' });
        res.end();
        return true;
      }
      const query = new URL(req.url ?? '/', 'http://localhost').searchParams;
      const principal = await signIn.finish(query, cookieOf(req, FLOW_COOKIE));
      const admins = this.options.gatewayInForce?.()?.ui ?? ui;
      const viewer: UiViewer = { admin: isAdminOf(principal, admins), principal };
      const id = await this.auth.sessions.open(viewer, ui.sessionMs);
      res.writeHead(303, {
        Location: '/',
        'Set-Cookie': [this.auth.sessionCookie(id, 'Lax', ui.sessionMs), this.flowCookie('', 0)],
        'Cache-Control': 'no-store',
      });
      res.end();
    } catch (error) {
      sendPage(res, 400, port, 'Sign-in failed', `${(error as Error).message}. Open this address again to retry.`);
    }
    return true;
  }

  /** The relying party of `gateway.ui` (loaded once, on the first sign-in). */
  private relyingParty(): Promise<UiSignIn> {
    const gateway = this.options.gateway;
    if (!gateway?.ui) throw new Error('no gateway.ui section');
    const redirectUri = `${new URL(gateway.resource).origin}/ui/callback`;
    this.signIn ??= import('./gatewayUi/uiSignIn.js').then(({ createUiSignIn }) =>
      createUiSignIn(
        { ...gateway, ui: gateway.ui! },
        this.options.secrets,
        this.options.environment ?? process.env,
        redirectUri,
        this.options.shared?.flows,
      ),
    );
    this.signIn.catch(() => (this.signIn = undefined));
    return this.signIn;
  }

  /** Closes the sockets of sessions that ended (signed out here or elsewhere), now rather than at their next call. */
  private closeEnded(): void {
    for (const ws of this.clients) if (this.viewers.get(ws)?.alive() === false) ws.close(SESSION_ENDED_CLOSE);
  }

  private flowCookie(value: string, maxAgeSeconds: number): string {
    const secure = this.options.gateway?.resource.startsWith('https:') ? '; Secure' : '';
    return `${FLOW_COOKIE}=${value}; HttpOnly; SameSite=Lax; Path=/ui/; Max-Age=${maxAgeSeconds}${secure}`;
  }

  private connected(ws: WebSocket, { viewer, alive }: { viewer: UiViewer; alive: () => boolean }): void {
    const own = viewer.principal ? this.options.viewerHandlers?.(viewer) : undefined;
    const handlers = own ? { ...this.options.handlers, ...own } : this.options.handlers;
    this.viewers.set(ws, { viewer, alive, handlers });
    this.clients.add(ws);
    this.inFlight.set(ws, new Map());
    this.detachApprover ??= this.options.approvals?.attach();
    ws.on('message', (data, isBinary) => {
      if (isBinary) return void send(ws, { id: null, ok: false, error: badFrame('binary frames are not accepted') });
      void this.answer(ws, data.toString());
    });
    ws.on('close', () => {
      this.clients.delete(ws);
      for (const call of this.inFlight.get(ws)?.values() ?? []) call.abort();
      if (this.clients.size === 0) {
        this.detachApprover?.();
        this.detachApprover = undefined;
      }
    });
    ws.on('error', () => ws.terminate());
  }

  private async answer(ws: WebSocket, text: string): Promise<void> {
    let frame: { id?: unknown; method?: unknown; params?: unknown; cancel?: unknown };
    try {
      frame = JSON.parse(text) as typeof frame;
    } catch {
      return send(ws, { id: null, ok: false, error: badFrame('the frame is not JSON') });
    }
    const calls = this.inFlight.get(ws);
    if (isFrameId(frame?.cancel)) return void calls?.get(frame.cancel)?.abort();
    const id = isFrameId(frame?.id) ? frame.id : null;
    if (id === null)
      return send(ws, { id: null, ok: false, error: badFrame('a frame needs an "id" (string or number)') });
    const connection = this.viewers.get(ws);
    if (!connection?.alive()) {
      send(ws, { id, ok: false, error: SESSION_ENDED });
      return void ws.close(SESSION_ENDED_CLOSE, 'session ended');
    }
    const { viewer, handlers } = connection;
    const refused = refusalFor(viewer, frame.method);
    if (refused) return send(ws, { id, ok: false, error: refused });
    const call = new AbortController();
    calls?.set(id, call);
    try {
      const outcome = await dispatch(handlers, frame.method, frame.params, this.options.redact, call.signal);
      // A cancelled call's caller settled it already: nothing more is sent.
      if (!call.signal.aborted) send(ws, { id, ...outcome });
    } finally {
      if (calls?.get(id) === call) calls.delete(id);
    }
  }

  /** Closes every bridge connection. */
  async close(): Promise<void> {
    this.stopEvents();
    this.stopEnded();
    void this.signIn?.then(
      (signIn) => signIn.close(),
      () => undefined,
    );
    for (const ws of this.clients) ws.terminate();
    this.clients.clear();
    this.detachApprover?.();
    this.detachApprover = undefined;
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }
}

/** A cookie of the request, by name. */
function cookieOf(req: IncomingMessage, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim() || undefined;
  }
  return undefined;
}

function isFrameId(value: unknown): value is string | number {
  return typeof value === 'string' || typeof value === 'number';
}

function badFrame(message: string) {
  return { code: ErrorCode.InvalidParams, message };
}

function send(ws: WebSocket, frame: unknown): void {
  if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(frame));
}

function answer(res: ServerResponse, status: number, body: unknown): true {
  res.writeHead(status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
  res.end(JSON.stringify(body));
  return true;
}
