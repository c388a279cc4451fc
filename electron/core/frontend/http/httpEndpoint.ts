/**
 * The local Streamable HTTP endpoint. One URL (`/mcp`) serves both eras:
 * 2026-07-28 requests go to a strict per-request handler; 2025-era traffic is
 * routed (with the SDK's own era classification) to sessionful
 * transports, so server-to-client messages (list_changed, later elicitation)
 * reach 2025 clients. Every request passes Host/Origin checks (DNS rebinding;
 * spec 2025-11-25 asks for 403 on a bad Origin) and a bearer-token check; a
 * 2026-07-28 tools/call also has its Mcp-Param-* headers checked
 * (paramHeaderCheck.ts; the SDK checks Mcp-Method and Mcp-Name).
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server as HttpServer, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import {
  localhostHostValidation,
  localhostOriginValidation,
  NodeStreamableHTTPServerTransport,
  toNodeHandler,
} from '@modelcontextprotocol/node';
import type { AuthInfo } from '@modelcontextprotocol/server';
import { createMcpHandler, classifyInboundRequest } from '@modelcontextprotocol/server';
import { LOCAL_CLIENT } from '../../platform/config/policyConfig.js';
import type { FrontendCore } from '../../api/services.js';
import { bearerToken, tokenMatcher } from './bearer.js';
import { FrontendHub } from '../server/frontendHub.js';
import { createFrontendServer } from '../server/mcpServer.js';
import { publishToolListChanged } from '../server/listTracking.js';
import { BoundedBus } from './boundedBus.js';
import { ListenStreams } from './listenStreams.js';
import { guardResponses } from '../server/responseGuard.js';
import { createTimedServer, refuseBatch, refuseMethod } from './httpEdges.js';
import { LegacySessions, type LegacySession } from './legacySessions.js';
import { ResponseFlow } from './responseFlow.js';
import { EventRetention, RESUME_LIMITS, RESUME_RETRY_MS } from './eventRetention.js';
import { boundNotifications } from '../relay/notificationQueue.js';
import { requestFlow } from '../relay/requestFlow.js';
import { header, isInitialize, isMethod, jsonRpcError, readBody, sendJson } from './httpJson.js';
import { ParamHeaderCheck } from './paramHeaderCheck.js';
import { routeConnections } from './connectionRoutes.js';
import { HEADER_MISMATCH } from '../../backends/transport/paramHeaders.js';

/**
 * Extra routes on the endpoint's port (the headless UI and its bridge). They
 * run after the Host/Origin checks and never see /mcp, /healthz or /readyz.
 */
export interface HttpExtension {
  /** Answers a request for `path`; resolves false to let the endpoint answer 404. */
  route(req: IncomingMessage, res: ServerResponse, path: string): boolean | Promise<boolean>;
  /** Handles an HTTP upgrade (WebSocket); must answer or destroy the socket. */
  upgrade?(req: IncomingMessage, socket: Socket, head: Buffer): void;
  /** Called when the endpoint closes. */
  close?(): Promise<void>;
}

/** Options of the HTTP endpoint. */
export interface HttpEndpointOptions {
  host: string;
  port: number;
  token: string;
  /** How long a 2026 listen stream may stay unread before it is ended (default 30 s). */
  listenStallMs?: number;
}

/** The running endpoint. */
export class HttpEndpoint {
  private readonly http: HttpServer;
  private readonly sessions: LegacySessions;
  /** Sessions, listen sinks and notification fan-out, as every frontend does them. */
  private readonly hub: FrontendHub;
  private readonly listens: ListenStreams;
  /** Change events to 2026 listen streams, bounded per stream. */
  readonly bus: BoundedBus;
  private readonly isMainToken: (presented: string) => boolean;
  private readonly modern;
  private readonly modernNode;
  private readonly checkHost = localhostHostValidation();
  private readonly checkOrigin = localhostOriginValidation();
  private readonly unsubscribe: () => void;
  /** SEP-2243: Mcp-Param-* headers of 2026-07-28 tools/call requests against the client's tools/list. */
  private readonly paramHeaders: ParamHeaderCheck;
  private extension: HttpExtension | undefined;
  /** Recent SSE events of every 2025-era session, bounded, for resumption with Last-Event-ID. */
  private readonly retention = new EventRetention();

  constructor(
    private readonly core: FrontendCore,
    private readonly options: HttpEndpointOptions,
  ) {
    this.isMainToken = tokenMatcher(options.token);
    this.bus = new BoundedBus(options.listenStallMs);
    this.paramHeaders = new ParamHeaderCheck((client) => core.exposure.list(client, core.exposure.profiles.of(client)));
    // The client profile travels as the request's authInfo (toNodeHandler forwards `req.auth`).
    // 2026-07-28 requests get one server each: tools that search+load adds are held per profile.
    this.modern = createMcpHandler(
      ({ authInfo }) => createFrontendServer(core, authInfo?.clientId ?? LOCAL_CLIENT, 'profile'),
      {
        legacy: 'reject',
        bus: this.bus,
      },
    );
    this.modernNode = toNodeHandler(this.modern);
    const proxy = core.backends.proxyOptions();
    this.sessions = new LegacySessions(
      { idleMs: proxy.sessionIdleMs, maxPerClient: proxy.maxSessionsPerClient },
      (id, session) => {
        this.hub.close(id);
        void session.server.close();
      },
      (message) => core.deps.logger.info(message),
    );
    this.hub = new FrontendHub(core, {
      transport: 'http',
      servers: () => [...this.sessions].map(([id, session]) => [session.server, id] as const),
      // The SDK fans each update out to the 2026 listen streams that asked for it.
      publish: async (uri) => {
        await this.modern.notify.resourceUpdated(uri);
      },
      publisherId: 'http-2026',
      catalogChanged: (changed) => {
        if (changed.tools) this.publishToolsChanged();
        if (changed.prompts) this.modern.notify.promptsChanged();
        if (changed.resources) {
          this.modern.notify.resourcesChanged();
          this.listens.endForbidden();
        }
      },
    });
    this.listens = new ListenStreams({
      hub: this.hub,
      tasks: core.tasks,
      fingerprint: (client) => core.exposure.profileFingerprint(client),
      listenTools: (client) => core.exposure.profiles.listen(client),
      handle: (req, res, body) => this.modernNode(req, res, body),
    });
    const timeouts = { headersTimeoutMs: proxy.headersTimeoutMs, bodyTimeoutMs: proxy.bodyTimeoutMs };
    this.http = createTimedServer(timeouts, (req, res) => {
      this.handle(req, res).catch((error: unknown) => {
        if (!res.headersSent) jsonRpcError(res, 500, -32603, error instanceof Error ? error.message : String(error));
        else res.end();
      });
    });
    this.http.keepAliveTimeout = 75_000;
    const unsubscribe = [
      core.events.on('clientRevoked', ({ client }) => this.endClient(client)),
      // search+load: a 2026-07-28 search loaded tools into its profile's list.
      core.exposure.profiles.onChange(() => this.publishToolsChanged()),
    ];
    this.unsubscribe = () => unsubscribe.forEach((stop) => stop());
  }

  /** Sends tools/list_changed to the 2026-07-28 listen streams whose profile's list changed. */
  private publishToolsChanged(): void {
    publishToolListChanged(this.bus, (client) => this.core.exposure.profileFingerprint(client));
  }

  /** Starts listening; resolves with the endpoint's URL. */
  async listen(): Promise<string> {
    await new Promise<void>((resolve, reject) => {
      this.http.once('error', reject);
      this.http.listen(this.options.port, this.options.host, () => {
        this.http.off('error', reject);
        resolve();
      });
    });
    // Sign-in links of per-caller servers point at this port.
    this.core.connections.served(new URL(this.url).origin);
    return this.url;
  }

  /** The MCP endpoint's URL. */
  get url(): string {
    const address = this.http.address() as AddressInfo;
    const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    return `http://${host}:${address.port}/mcp`;
  }

  /** Adds the routes and upgrade handler of `extension` (one at a time; a later call replaces it). */
  extend(extension: HttpExtension): void {
    this.extension = extension;
    this.http.removeAllListeners('upgrade');
    this.http.on('upgrade', (req: IncomingMessage, socket: Socket, head: Buffer) => {
      if (this.extension?.upgrade) this.extension.upgrade(req, socket, head);
      else socket.destroy();
    });
  }

  /** Number of open 2025-era sessions. */
  get sessionCount(): number {
    return this.sessions.size;
  }

  /** Ends the sessions idle at `now` (the sweep timer's work, on demand: tests, a future "end idle" action). */
  sweepIdleSessions(now = Date.now()): void {
    this.sessions.sweep(now);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!this.checkHost(req, res) || !this.checkOrigin(req, res)) return;
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (refuseMethod(req, res, path)) return;
    if (path === '/healthz') return sendJson(res, 200, { status: 'ok' });
    if (path === '/readyz') {
      const readiness = this.core.backends.readiness();
      // Live 2025-era HTTP sessions: abandoned ones end after sessionIdleMs.
      return sendJson(res, readiness.ready ? 200 : 503, { ...readiness, sessions: this.sessions.size });
    }
    if (path !== '/mcp') {
      if (await routeConnections(this.core.connections, req, res, path)) return;
      if (this.extension && (await this.extension.route(req, res, path))) return;
      return sendJson(res, 404, { error: 'not found' });
    }
    const client = await this.authenticate(req);
    if (client === undefined) {
      return jsonRpcError(res, 401, -32000, 'Unauthorized: a valid bearer token is required', {
        'WWW-Authenticate': 'Bearer realm="mcp-switchboard"',
      });
    }
    // Handlers learn the client from authInfo; the token itself is never passed on.
    (req as IncomingMessage & { auth?: AuthInfo }).auth = { token: '', clientId: client, scopes: [] };
    if (req.method === 'POST') {
      const text = await readBody(req);
      if (text === undefined) return jsonRpcError(res, 413, -32600, 'Request body too large');
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        return jsonRpcError(res, 400, -32700, 'Parse error: the body is not JSON');
      }
      // The SDK's own era classification, on the body we already parsed (building
      // a Request for isLegacyRequest would re-read and re-parse it).
      const era = classifyInboundRequest({
        httpMethod: 'POST',
        protocolVersionHeader: header(req, 'mcp-protocol-version'),
        mcpMethodHeader: header(req, 'mcp-method'),
        mcpNameHeader: header(req, 'mcp-name'),
        body,
      });
      if (era.kind === 'legacy') return this.handleLegacy(req, res, body, client);
      this.hub.seenModern(client, body);
      if (isMethod(body, 'subscriptions/listen')) return this.listens.serve(req, res, body, client);
      if (era.kind === 'modern' && this.refuseParamHeaders(req, res, body, client)) return;
      // Progress toward this request waits (latest wins) while its client does not read the stream.
      const flow = new ResponseFlow();
      flow.add(res);
      return requestFlow.run(flow, () => this.modernNode(req, res, body));
    }
    // GET (standalone stream) and DELETE (end session) exist only in the 2025 era.
    return this.handleLegacy(req, res, undefined, client);
  }

  /** Answers 400 / -32020 (and returns true) when a tools/call's Mcp-Param-* headers disagree with its arguments. */
  private refuseParamHeaders(req: IncomingMessage, res: ServerResponse, body: unknown, client: string): boolean {
    if (!isMethod(body, 'tools/call')) return false;
    const { id, params } = body as { id?: unknown; params?: unknown };
    const mismatch = this.paramHeaders.mismatch(client, params, req);
    if (!mismatch) return false;
    const error = {
      code: HEADER_MISMATCH,
      message: `Bad Request: the request headers and body disagree: ${mismatch.message}`,
      data: { mismatch: { header: mismatch.header } },
    };
    sendJson(res, 400, { jsonrpc: '2.0', id: id ?? null, error });
    return true;
  }

  /** The client profile of a request's bearer token: the main token is the local user. */
  private async authenticate(req: IncomingMessage): Promise<string | undefined> {
    const presented = bearerToken(req);
    if (presented === undefined) return undefined;
    if (this.isMainToken(presented)) return LOCAL_CLIENT;
    // A client `install` just set up may not be known yet: the stores are re-read before a 401.
    return this.core.profiles.authenticateRechecking(presented);
  }

  /** Ends every session and stream of a client whose token was revoked or rotated. */
  private endClient(client: string): void {
    for (const [id, session] of this.sessions) {
      if (session.client !== client) continue;
      this.sessions.delete(id);
      this.hub.close(id);
      void session.server.close();
    }
    this.listens.endClient(client);
    this.hub.closeModern(client);
  }

  private async handleLegacy(req: IncomingMessage, res: ServerResponse, body: unknown, client: string): Promise<void> {
    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const session = this.sessions.get(sessionId);
      if (!session) return jsonRpcError(res, 404, -32001, 'Session not found');
      if (session.client !== client)
        return jsonRpcError(res, 403, -32000, 'Forbidden: this session belongs to another client');
      // The initialize-negotiated version (deprecated accessor, still right for 2025-era sessions).
      if (refuseBatch(body, session.server.getNegotiatedProtocolVersion(), res)) return;
      if (this.refuseUnknownLastEvent(req, res, session)) return;
      this.hub.touch(sessionId);
      this.sessions.track(session, res);
      return session.transport.handleRequest(req, res, body);
    }
    if (req.method !== 'POST' || !isInitialize(body)) {
      return jsonRpcError(res, 400, -32000, 'Bad Request: Mcp-Session-Id header is required');
    }
    const server = createFrontendServer(this.core, client);
    const flow = new ResponseFlow();
    const events = this.retention.forSession();
    const transport = guardResponses(
      new NodeStreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        // Each SSE stream opens with a priming event (an id, empty data) and a retry field; a dropped
        // stream is resumed by a GET with Last-Event-ID (spec 2025-11-25 "Resumability and Redelivery").
        eventStore: events,
        retryInterval: RESUME_RETRY_MS,
        onsessioninitialized: (id) => {
          this.sessions.track(this.sessions.add(id, { transport, server, client, flow, events }), res);
          this.hub.open(client, 'legacy', body, id);
        },
      }),
      this.core.deps.logger,
    );
    const proxy = this.core.backends.proxyOptions();
    // Logs and progress toward this session wait in a bounded queue while it does not read.
    const queue = boundNotifications(transport, flow, {
      max: proxy.maxClientNotifications,
      stallMs: proxy.clientStallMs,
      onStalled: (dropped) => this.endStalled(transport.sessionId, proxy.clientStallMs, dropped),
    });
    transport.onclose = () => {
      queue.close();
      events.dispose();
      if (transport.sessionId) {
        this.sessions.delete(transport.sessionId);
        this.hub.close(transport.sessionId);
      }
    };
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  }

  /**
   * Answers 400 (and returns true) to a GET whose Last-Event-ID this session no longer holds
   * (unknown, another session's, or expired): what it missed is gone, it must send its request again.
   */
  private refuseUnknownLastEvent(req: IncomingMessage, res: ServerResponse, session: LegacySession): boolean {
    const lastEventId = header(req, 'last-event-id');
    if (req.method !== 'GET' || lastEventId === undefined || session.events.knows(lastEventId)) return false;
    jsonRpcError(
      res,
      400,
      -32000,
      `Bad Request: the stream cannot be resumed: its Last-Event-ID is unknown to this session or has expired ` +
        `(events are kept ${RESUME_LIMITS.retentionMs / 1000} s, at most ${RESUME_LIMITS.maxStreamEvents} per stream); ` +
        `send the request again`,
    );
    return true;
  }

  /** Ends a 2025-era session whose client read nothing for `stallMs` while notifications waited. */
  private endStalled(id: string | undefined, stallMs: number, dropped: number): void {
    const session = id === undefined ? undefined : this.sessions.get(id);
    if (!session || id === undefined) return;
    this.core.deps.logger.warn(
      `ended session ${id} of client ${session.client}: it stopped reading its streams for ${stallMs} ms ` +
        `(${dropped} notifications dropped)`,
    );
    this.sessions.delete(id);
    this.hub.close(id);
    session.flow.destroyAll();
    void session.server.close();
  }

  /** Stops accepting requests and closes every session. */
  async close(): Promise<void> {
    this.unsubscribe();
    this.hub.dispose();
    for (const id of this.sessions.ids()) this.hub.close(id);
    const sessions = this.sessions.clear();
    await this.extension?.close?.().catch(() => undefined);
    await Promise.allSettled(sessions.map((session) => session.server.close()));
    await this.modern.close().catch(() => undefined);
    this.retention.clear();
    this.http.closeAllConnections();
    await new Promise<void>((resolve) => this.http.close(() => resolve()));
  }
}
