/**
 * The local Streamable HTTP endpoint. `/mcp` serves the merged catalog in both eras:
 * 2026-07-28 requests go to a strict per-request handler; 2025-era traffic is
 * routed (with the SDK's own era classification) to sessionful
 * transports, so server-to-client messages (list_changed, later elicitation)
 * reach 2025 clients (http/mcpRoute.ts). `/servers/<id>/mcp` serves one
 * server's own catalog and `/profiles/<name>/mcp` one profile's view the same
 * way (endpointRoutes.ts). Every request passes Host/Origin checks (DNS
 * rebinding; spec 2025-11-25 asks for 403 on a bad Origin) and a bearer-token
 * check; a 2026-07-28 tools/call also has its Mcp-Param-* headers checked
 * (paramHeaderCheck.ts; the SDK checks Mcp-Method and Mcp-Name).
 * In gateway mode (a `gateway` config section) the bearer check is an OAuth
 * resource server's instead (gateway/gatewayGuard.ts, loaded only then): the
 * request carries its principal beside its client profile.
 * A replica told to stop drains first (drain.ts): `/readyz` 503, no new
 * sessions, the requests in flight answered.
 */
import type { IncomingMessage, Server as HttpServer, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Server as HttpsServer } from 'node:https';
import { localhostHostValidation, localhostOriginValidation } from '@modelcontextprotocol/node';
import type { AuthInfo } from '@modelcontextprotocol/server';
import { parseEndpointPath } from '../../../../shared/endpoint.js';
import { LOCAL_CLIENT } from '../../platform/config/policyConfig.js';
import type { FrontendCore } from '../../api/services.js';
import { bearerToken, tokenMatcher } from './bearer.js';
import type { BoundedBus } from './boundedBus.js';
import { createTimedServer, refuseMethod, type TlsFiles } from './httpEdges.js';
import type { GatewayConfig } from '../../platform/config/gatewayConfig.js';
import type { GatewayCaller, GatewayGuard } from './gateway/gatewayGuard.js';
import type { Caller } from './mcpRoute.js';
import { EndpointRoutes } from './endpointRoutes.js';
import { routeConnections } from './connectionRoutes.js';
import { jsonRpcError, sendJson } from './httpJson.js';
import type { Observability } from '../../platform/observability/observability.js';
import { Drain, type DrainOutcome } from './drain.js';

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
  /** Metrics (`/metrics`), traces and request ids of client requests (absent: off, `/metrics` is 404). */
  observability?: Observability | undefined;
  /** Gateway mode: /mcp is an OAuth protected resource (absent: the local bearer tokens). */
  gateway?: GatewayConfig | undefined;
  /** Where the gateway's `{"secret"}`-less values (`${VAR}`) are read from (default process.env). */
  environment?: NodeJS.ProcessEnv;
  /** Serve HTTPS with this certificate and key. */
  tls?: TlsFiles | undefined;
}

/** The running endpoint. */
export class HttpEndpoint {
  private readonly http: HttpServer | HttpsServer;
  /** Gateway mode's checks, loaded lazily (absent in laptop mode). */
  private readonly gateway: Promise<GatewayGuard> | undefined;
  /** The MCP routes: `/mcp` (and profiles' paths), each server's own. */
  private readonly routes: EndpointRoutes;
  private readonly isMainToken: (presented: string) => boolean;
  private readonly checkHost = localhostHostValidation();
  private readonly checkOrigin = localhostOriginValidation();
  private readonly unsubscribe: () => void;
  private extension: HttpExtension | undefined;
  /** The requests in flight, and whether this endpoint is draining before it stops. */
  private readonly drain = new Drain();

  constructor(
    private readonly core: FrontendCore,
    private readonly options: HttpEndpointOptions,
  ) {
    this.isMainToken = tokenMatcher(options.token);
    this.routes = new EndpointRoutes(core, options.listenStallMs, options.observability, this.drain);
    const proxy = core.backends.proxyOptions();
    const timeouts = { headersTimeoutMs: proxy.headersTimeoutMs, bodyTimeoutMs: proxy.bodyTimeoutMs };
    this.http = createTimedServer(
      timeouts,
      (req, res) => {
        this.handle(req, res).catch((error: unknown) => {
          if (!res.headersSent) jsonRpcError(res, 500, -32603, error instanceof Error ? error.message : String(error));
          else res.end();
        });
      },
      options.tls,
    );
    const gateway = options.gateway;
    this.gateway = gateway
      ? import('./gateway/gatewayGuard.js').then(({ createGatewayGuard }) =>
          createGatewayGuard(core, gateway, options.environment ?? process.env),
        )
      : undefined;
    // A failure (an unresolvable introspection secret) is answered per request; never an unhandled rejection.
    this.gateway?.catch(() => undefined);
    this.http.keepAliveTimeout = 75_000;
    this.unsubscribe = core.events.on('clientRevoked', ({ client }) => {
      for (const route of this.routes.all()) route.endClient(client);
    });
  }

  /** Change events to the merged endpoint's 2026 listen streams, bounded per stream. */
  get bus(): BoundedBus {
    return this.routes.merged.bus;
  }

  /** Starts listening; resolves with the endpoint's URL. In gateway mode, fails when its set-up does. */
  async listen(): Promise<string> {
    await this.gateway;
    await new Promise<void>((resolve, reject) => {
      this.http.once('error', reject);
      this.http.listen(this.options.port, this.options.host, () => {
        this.http.off('error', reject);
        resolve();
      });
    });
    // Sign-in links of per-caller servers point at this port; in gateway mode at the public origin
    // (that of `resource`), which is where people reach us behind a reverse proxy.
    const gatewayResource = this.options.gateway?.resource;
    this.core.connections.served(new URL(gatewayResource ?? this.url).origin);
    return this.url;
  }

  /** The merged MCP endpoint's URL. */
  get url(): string {
    const address = this.http.address() as AddressInfo;
    const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    return `${this.options.tls ? 'https' : 'http'}://${host}:${address.port}/mcp`;
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

  /** Number of open 2025-era sessions, on every route. */
  get sessionCount(): number {
    return this.routes.all().reduce((sum, route) => sum + route.sessionCount, 0);
  }

  /** Ends the sessions idle at `now` (the sweep timer's work, on demand: tests, a future "end idle" action). */
  sweepIdleSessions(now = Date.now()): void {
    for (const route of this.routes.all()) route.sweepIdleSessions(now);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // Laptop mode has no guard to wait for: no await, no turn of the event loop's microtasks.
    const gateway = this.gateway === undefined ? undefined : await this.gateway;
    if (gateway ? !gateway.checkRequest(req, res) : !this.checkHost(req, res) || !this.checkOrigin(req, res)) return;
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (gateway?.resource.serve(req, res, path)) return;
    const scope = parseEndpointPath(path);
    if (refuseMethod(req, res, scope ? '/mcp' : path, path)) return;
    if (path === '/healthz') return sendJson(res, 200, { status: 'ok' });
    if (path === '/readyz') {
      // An edit that needs a restart (gateway.tls, ...) is named; the replica still serves the config it started with.
      const restartNeeded = this.core.settings.restartNeeded();
      const readiness = { ...this.core.backends.readiness(), ...(restartNeeded.length > 0 ? { restartNeeded } : {}) };
      // Draining: not ready, so the load balancer sends the next requests to another replica.
      if (this.drain.draining) {
        return sendJson(res, 503, { ...readiness, ready: false, draining: true, sessions: this.sessionCount });
      }
      // Live 2025-era HTTP sessions: abandoned ones end after sessionIdleMs.
      return sendJson(res, readiness.ready ? 200 : 503, { ...readiness, sessions: this.sessionCount });
    }
    if (path === '/metrics') return this.serveMetrics(req, res);
    if (!scope) {
      if (await routeConnections(this.core.connections, req, res, path)) return;
      if (this.extension && (await this.extension.route(req, res, path))) return;
      return sendJson(res, 404, { error: 'not found' });
    }
    // Waited for when draining (GET streams last for ever: not counted).
    if (req.method !== 'GET') this.drain.track(res);
    const caller = await this.caller(req, res, gateway);
    if (caller === undefined) return;
    const picked = this.routes.pick(scope, caller.client);
    if ('status' in picked) return jsonRpcError(res, picked.status, -32000, picked.message);
    const principal = caller.principal;
    // Handlers learn the client (and the person) from authInfo; the token itself is never passed on.
    (req as IncomingMessage & { auth?: AuthInfo }).auth = {
      token: '',
      clientId: picked.client,
      scopes: principal?.scopes ?? [],
      ...(principal ? { extra: { principal } } : {}),
    };
    return picked.route.serve(req, res, { client: picked.client, principal }, gateway);
  }

  /** The request's caller; undefined once a 401 (or, in gateway mode, 403/503) has been answered. */
  private async caller(
    req: IncomingMessage,
    res: ServerResponse,
    gateway: GatewayGuard | undefined,
  ): Promise<Caller | GatewayCaller | undefined> {
    if (gateway) return gateway.authenticate(req, res);
    const client = await this.authenticate(req);
    if (client !== undefined) return { client };
    jsonRpcError(res, 401, -32000, 'Unauthorized: a valid bearer token is required', {
      'WWW-Authenticate': 'Bearer realm="mcp-switchboard"',
    });
    return undefined;
  }

  /** `/metrics`: 404 unless metrics are on; then the main token or the metrics token (metricsRoute.ts). */
  private async serveMetrics(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const route = this.options.observability?.metrics;
    if (!route) return sendJson(res, 404, { error: 'not found' });
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD' }).end();
      return;
    }
    return route.serve(req, res, this.isMainToken);
  }

  /** The client profile of a request's bearer token: the main token is the local user. */
  private async authenticate(req: IncomingMessage): Promise<string | undefined> {
    const presented = bearerToken(req);
    if (presented === undefined) return undefined;
    if (this.isMainToken(presented)) return LOCAL_CLIENT;
    // A client `install` just set up may not be known yet: the stores are re-read before a 401.
    return this.core.profiles.authenticateRechecking(presented);
  }

  /**
   * Drains before a stop: `/readyz` answers 503 at once, new 2025-era sessions are refused with
   * 503, and the requests in flight (and those the balancer still sends) are answered, for at
   * most `maxMs`. Call {@link close} after it.
   */
  drainRequests(maxMs: number, signal?: AbortSignal): Promise<DrainOutcome> {
    return this.drain.settle(maxMs, signal);
  }

  /** Stops accepting requests and closes every session. */
  async close(): Promise<void> {
    this.unsubscribe();
    void this.gateway?.then(
      (gateway) => gateway.close(),
      () => undefined,
    );
    await this.extension?.close?.().catch(() => undefined);
    await this.routes.close();
    this.http.closeAllConnections();
    await new Promise<void>((resolve) => this.http.close(() => resolve()));
  }
}
