/**
 * The headless UI on the MCP endpoint's own port: the built renderer at `/`,
 * the login exchange at `/ui?login=<one-time token>`, and the contract over a
 * WebSocket at `/bridge`. Frames: `{id, method, params}` -> `{id, ok,
 * result | error}`; `{cancel: id}` cancels that call (its handler's
 * AbortSignal aborts; no answer is owed); events are pushed as `{event,
 * payload}`. A closed socket cancels its calls. /mcp, /healthz and /readyz
 * stay the endpoint's own.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import type { CoreHandlers } from '../../shared/contract.js';
import { ErrorCode } from '../../shared/errors.js';
import type { HttpExtension } from '../core/frontend/index.js';
import { BRIDGE_PROTOCOL, BridgeAuth } from './bridgeAuth.js';
import { dispatch, type Redactor } from './dispatch.js';
import type { EventHub } from './contractEvents.js';
import { pageHeaders, readIndex, sendPage, sendStatic } from './uiFiles.js';

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
}

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
  private detachApprover: (() => void) | undefined;

  constructor(private readonly options: BridgeOptions) {
    this.auth = new BridgeAuth(options.token, options.port);
    this.wss = new WebSocketServer({
      noServer: true,
      maxPayload: MAX_FRAME_BYTES,
      handleProtocols: (offered) => (offered.has(BRIDGE_PROTOCOL) ? BRIDGE_PROTOCOL : false),
    });
    this.stopEvents = options.events.on((event, payload) => {
      const frame = JSON.stringify({ event, payload });
      for (const ws of this.clients) if (ws.readyState === ws.OPEN) ws.send(frame);
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
    if (method !== 'GET' && method !== 'HEAD') return false;
    if (path === '/ui') {
      const login = new URL(req.url ?? '/', 'http://localhost').searchParams.get('login');
      if (method === 'HEAD') {
        // A HEAD (a link preview, a checker) must not spend the one-time token: no body, no cookie.
        res.writeHead(303, { Location: '/', 'Cache-Control': 'no-store' });
        res.end();
        return true;
      }
      const cookie = login === null ? undefined : this.auth.exchange(login);
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
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const refusal = path === BRIDGE_PATH ? this.auth.refusal(req) : { status: 404, reason: 'Not Found' };
    if (refusal) {
      socket.end(`HTTP/1.1 ${refusal.status} ${refusal.reason}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => this.connected(ws));
  }

  private connected(ws: WebSocket): void {
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
    const call = new AbortController();
    calls?.set(id, call);
    try {
      const outcome = await dispatch(
        this.options.handlers,
        frame.method,
        frame.params,
        this.options.redact,
        call.signal,
      );
      // A cancelled call's caller settled it already: nothing more is sent.
      if (!call.signal.aborted) send(ws, { id, ...outcome });
    } finally {
      if (calls?.get(id) === call) calls.delete(id);
    }
  }

  /** Closes every bridge connection. */
  async close(): Promise<void> {
    this.stopEvents();
    for (const ws of this.clients) ws.terminate();
    this.clients.clear();
    this.detachApprover?.();
    this.detachApprover = undefined;
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }
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
