/**
 * The local Streamable HTTP endpoint. One URL (`/mcp`) serves both eras:
 * 2026-07-28 requests go to a strict per-request handler; 2025-era traffic is
 * routed (with the SDK's own era classification) to sessionful
 * transports, so server-to-client messages (list_changed, later elicitation)
 * reach 2025 clients. Every request passes Host/Origin checks (DNS rebinding;
 * spec 2025-11-25 asks for 403 on a bad Origin) and a bearer-token check.
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
import type { AuthInfo, ProtocolError } from '@modelcontextprotocol/server';
import { createMcpHandler, classifyInboundRequest } from '@modelcontextprotocol/server';
import { LOCAL_CLIENT } from '../policy/policyConfig.js';
import { CoalescingSink, type UpdateSink } from '../relay/coalescingSink.js';
import type { FrontendCore } from '../coreApi.js';
import { bearerToken, tokenMatcher } from './bearer.js';
import { createFrontendServer, forwardBackendLog, notifyListChanged } from './mcpServer.js';
import { publishToolListChanged } from '../exposure/listTracking.js';
import { BoundedBus, listenContext } from './boundedBus.js';
import { listensForTools, listenUris } from './stdioListen.js';
import { clientInfoOf } from './sessionRegistry.js';
import { guardResponses } from './responseGuard.js';
import { createTimedServer, refuseBatch, refuseMethod } from './httpEdges.js';
import { LegacySessions } from './legacySessions.js';
import { header, isInitialize, isMethod, jsonRpcError, readBody, sendJson } from './httpJson.js';

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

/** A 2026-07-28 listen stream we keep track of, to end it when its client loses access. */
interface ListenStream {
  client: string;
  uris: string[];
  res: ServerResponse;
}

/** The running endpoint. */
export class HttpEndpoint {
  private readonly http: HttpServer;
  private readonly sessions: LegacySessions;
  private readonly listens = new Set<ListenStream>();
  /** Change events to 2026 listen streams, bounded per stream. */
  readonly bus: BoundedBus;
  private readonly isMainToken: (presented: string) => boolean;
  private readonly modern;
  private readonly modernNode;
  private readonly checkHost = localhostHostValidation();
  private readonly checkOrigin = localhostOriginValidation();
  private readonly unsubscribe: (() => void)[];
  private extension: HttpExtension | undefined;
  /** Resource updates to 2026 listen streams, coalesced; the SDK fans each out to the streams that asked. */
  private readonly publisher = new CoalescingSink(
    'http-2026',
    async (uri) => {
      await this.modern.notify.resourceUpdated(uri);
    },
    LOCAL_CLIENT,
  );

  constructor(
    private readonly core: FrontendCore,
    private readonly options: HttpEndpointOptions,
  ) {
    this.isMainToken = tokenMatcher(options.token);
    this.bus = new BoundedBus(options.listenStallMs);
    // The client profile travels as the request's authInfo (toNodeHandler forwards `req.auth`).
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
        this.core.sessions.close(id);
        void session.server.close();
      },
      (message) => core.deps.logger.info(message),
    );
    const timeouts = { headersTimeoutMs: proxy.headersTimeoutMs, bodyTimeoutMs: proxy.bodyTimeoutMs };
    this.http = createTimedServer(timeouts, (req, res) => {
      this.handle(req, res).catch((error: unknown) => {
        if (!res.headersSent) jsonRpcError(res, 500, -32603, error instanceof Error ? error.message : String(error));
        else res.end();
      });
    });
    this.http.keepAliveTimeout = 75_000;
    this.unsubscribe = [
      core.events.on('catalogChanged', (changed) => {
        if (changed.tools) this.publishToolsChanged();
        if (changed.prompts) this.modern.notify.promptsChanged();
        if (changed.resources) this.modern.notify.resourcesChanged();
        for (const [, session] of this.sessions) void notifyListChanged(core, session.server, changed);
        if (changed.resources) this.endForbiddenListens();
      }),
      core.events.on('clientRevoked', ({ client }) => this.endClient(client)),
      // search+load: a 2026-07-28 search loaded tools into its profile's list.
      core.exposure.profiles.onChange(() => this.publishToolsChanged()),
      core.events.on('backendLog', (event) => {
        for (const [id, session] of this.sessions) void forwardBackendLog(session.server, event, id);
      }),
    ];
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
      if (this.extension && (await this.extension.route(req, res, path))) return;
      return sendJson(res, 404, { error: 'not found' });
    }
    const client = this.authenticate(req);
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
      const info = clientInfoOf(body);
      this.core.sessions.seenModern({
        profile: client,
        transport: 'http',
        clientName: info.name,
        clientVersion: info.version,
      });
      if (isMethod(body, 'subscriptions/listen')) return this.handleModernListen(req, res, body, client);
      return this.modernNode(req, res, body);
    }
    // GET (standalone stream) and DELETE (end session) exist only in the 2025 era.
    return this.handleLegacy(req, res, undefined, client);
  }

  /** The client profile of a request's bearer token: the main token is the local user. */
  private authenticate(req: IncomingMessage): string | undefined {
    const presented = bearerToken(req);
    if (presented === undefined) return undefined;
    if (this.isMainToken(presented)) return LOCAL_CLIENT;
    return this.core.clients.authenticate(presented);
  }

  /** Ends every session and stream of a client whose token was revoked or rotated. */
  private endClient(client: string): void {
    for (const [id, session] of this.sessions) {
      if (session.client !== client) continue;
      this.sessions.delete(id);
      this.core.sessions.close(id);
      void session.server.close();
    }
    for (const stream of this.listens) if (stream.client === client) stream.res.destroy();
    this.core.sessions.closeModern(client);
  }

  /** Ends 2026 listen streams naming a resource their client may no longer see (it re-listens, and is refused). */
  private endForbiddenListens(): void {
    const hub = this.core.subscriptions;
    for (const stream of this.listens) {
      const forbidden = stream.uris.some((uri) => {
        try {
          hub.validate(uri, stream.client);
          return false;
        } catch {
          return true;
        }
      });
      if (forbidden) stream.res.destroy();
    }
  }

  /**
   * A 2026-07-28 `subscriptions/listen`: the SDK acknowledges any URI, so the
   * filter is checked here first. An unknown URI or a template instance gets an
   * in-band invalid-params error and no acknowledgement; accepted URIs are
   * subscribed upstream before the SDK acknowledges, and released when the
   * stream closes, however it ends.
   */
  private async handleModernListen(
    req: IncomingMessage,
    res: ServerResponse,
    body: unknown,
    client: string,
  ): Promise<void> {
    const id = (body as { id?: string | number }).id ?? null;
    const uris = listenUris(body);
    const hub = this.core.subscriptions;
    const sink: UpdateSink = {
      id: `listen:${randomUUID()}`,
      client,
      deliver: (uri) => this.publisher.deliver(uri),
    };
    try {
      await hub.attachAll(sink, uris);
    } catch (error) {
      const { code, message, data } = error as ProtocolError;
      return sendJson(res, 200, { jsonrpc: '2.0', id, error: { code, message, data } });
    }
    const stream: ListenStream = { client, uris, res };
    this.listens.add(stream);
    // A client that hears tools/list_changed re-lists: search+load may add to its list.
    const unlisten = listensForTools(body) ? this.core.exposure.profiles.listen(client) : undefined;
    res.on('close', () => {
      this.listens.delete(stream);
      hub.detachAll(sink);
      unlisten?.();
    });
    // The bus learns this stream (its response, client, known tools/list) through the async context.
    const context = { res, client, tools: this.core.exposure.profileFingerprint(client) };
    return listenContext.run(context, () => this.modernNode(req, res, body));
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
      this.core.sessions.touch(sessionId);
      this.sessions.track(session, res);
      return session.transport.handleRequest(req, res, body);
    }
    if (req.method !== 'POST' || !isInitialize(body)) {
      return jsonRpcError(res, 400, -32000, 'Bad Request: Mcp-Session-Id header is required');
    }
    const server = createFrontendServer(this.core, client);
    const transport = guardResponses(
      new NodeStreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => {
          this.sessions.track(this.sessions.add(id, { transport, server, client }), res);
          const info = clientInfoOf(body);
          this.core.sessions.open(
            { profile: client, era: 'legacy', transport: 'http', clientName: info.name, clientVersion: info.version },
            id,
          );
        },
      }),
      this.core.deps.logger,
    );
    transport.onclose = () => {
      if (transport.sessionId) {
        this.sessions.delete(transport.sessionId);
        this.core.sessions.close(transport.sessionId);
      }
    };
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  }

  /** Stops accepting requests and closes every session. */
  async close(): Promise<void> {
    for (const unsubscribe of this.unsubscribe) unsubscribe();
    for (const id of this.sessions.ids()) this.core.sessions.close(id);
    const sessions = this.sessions.clear();
    await this.extension?.close?.().catch(() => undefined);
    await Promise.allSettled(sessions.map((session) => session.server.close()));
    await this.modern.close().catch(() => undefined);
    this.http.closeAllConnections();
    await new Promise<void>((resolve) => this.http.close(() => resolve()));
  }
}
