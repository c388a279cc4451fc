/**
 * One MCP endpoint behind the HTTP server: the merged one (`/mcp`, which
 * `/profiles/<name>/mcp` shares) or one server's own (`/servers/<id>/mcp`).
 * It holds what an MCP URL needs once the caller is authenticated: the 2025-era
 * sessions (one SDK server and sessionful transport each), the 2026-07-28
 * per-request handler with its listen streams and bus, and the hub that fans
 * list_changed, logs and task status out. What it serves is the core it is
 * given: the core itself, or the core narrowed to one server
 * (server/serverScopedCore.ts). The HTTP server, its edges and the bearer
 * check stay in httpEndpoint.ts.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FetchLikeMcpHandler } from '@modelcontextprotocol/node';
import type { AuthInfo } from '@modelcontextprotocol/server';
import type { ClientRequest, Observability } from '../../platform/observability/observability.js';
import { modernNodeHandler } from './modernNodeHandler.js';
import { SessionTransport } from './sessionTransport.js';
import { classifiedEra, postEra, type PostEra } from './postEra.js';
import { principalKey, type Principal } from '../../catalog/policy/principal.js';
import { callerIdentityOf, callerKey } from '../../catalog/policy/callerIdentity.js';
import type { GatewayGuard } from './gateway/gatewayGuard.js';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { LOCAL_CLIENT } from '../../platform/config/policyConfig.js';
import type { FrontendCore } from '../../api/services.js';
import { FrontendHub } from '../server/frontendHub.js';
import { createFrontendServer } from '../server/mcpServer.js';
import { publishToolListChanged } from '../server/listTracking.js';
import { BoundedBus } from './boundedBus.js';
import { ListenStreams } from './listenStreams.js';
import { guardResponses } from '../server/responseGuard.js';
import { refuseBatch } from './httpEdges.js';
import { LegacySessions, type LegacySession } from './legacySessions.js';
import { ResponseFlow } from './responseFlow.js';
import { EventRetention, RESUME_LIMITS, RESUME_RETRY_MS } from './eventRetention.js';
import { boundNotifications } from '../relay/notificationQueue.js';
import { requestFlow } from '../relay/requestFlow.js';
import { header, isInitialize, isMethod, jsonRpcError, readBody, sendJson } from './httpJson.js';
import { ErrorCode } from '../../../../shared/errors.js';
import { ParamHeaderCheck } from './paramHeaderCheck.js';
import { HEADER_MISMATCH } from '../../backends/transport/paramHeaders.js';
import type { Drain } from './drain.js';
import { limitRefusals, type LimitRefusalSlot } from '../routing/limitGate.js';
import { FULL_PATH_ENV, PlainCalls, REPLAY_KEY, replayOutcome, type CallOutcome } from './plainCall.js';

/** Options of one MCP route. */
export interface McpRouteOptions {
  /** How long a 2026 listen stream may stay unread before it is ended (default 30 s). */
  listenStallMs?: number | undefined;
  /** Names its 2026 publisher in diagnostics. */
  label: string;
  /** What `initialize` and `server/discover` tell the model about names (default: the merged endpoint's). */
  instructions?: string;
  /** Traces, request ids and counts of client requests (absent: off). */
  observability?: Observability | undefined;
  /** The endpoint's drain: while it runs, a new 2025-era session is refused with 503. */
  drain?: Drain | undefined;
}

/** Who made a request: the client profile, and in gateway mode the person. */
export interface Caller {
  client: string;
  principal?: Principal | undefined;
}

/** One MCP endpoint's sessions, handlers and streams; see the module comment. */
export class McpRoute {
  private readonly sessions: LegacySessions;
  /** Sessions, listen sinks and notification fan-out, as every frontend does them. */
  private readonly hub: FrontendHub;
  private readonly listens: ListenStreams;
  /** Change events to 2026 listen streams, bounded per stream. */
  readonly bus: BoundedBus;
  private readonly modern;
  private readonly modernNode;
  private readonly unsubscribe: () => void;
  /** SEP-2243: Mcp-Param-* headers of 2026-07-28 tools/call requests against the client's tools/list. */
  private readonly paramHeaders: ParamHeaderCheck;
  /** Recent SSE events of every 2025-era session, bounded, for resumption with Last-Event-ID. */
  private readonly retention = new EventRetention();
  /** What each session's initialize answer tells the model about names. */
  private readonly instructions: string | undefined;
  private readonly observability: Observability | undefined;
  private readonly drain: Drain | undefined;
  /** The fast path of a plain 2026-07-28 tools/call (plainCall.ts); absent when turned off. */
  private readonly plain: PlainCalls | undefined;

  constructor(
    private readonly core: FrontendCore,
    options: McpRouteOptions,
  ) {
    this.bus = new BoundedBus(options.listenStallMs);
    this.instructions = options.instructions;
    this.observability = options.observability;
    this.drain = options.drain;
    this.plain = process.env[FULL_PATH_ENV] === '1' ? undefined : new PlainCalls(core);
    this.paramHeaders = new ParamHeaderCheck((client) => core.exposure.list(client, core.exposure.profiles.of(client)));
    // The client profile travels as the request's authInfo (modernNodeHandler forwards `req.auth`).
    // 2026-07-28 requests get one server each: tools that search+load adds are held per profile.
    // A fast-path call replayed for the SDK to encode carries its outcome (plainCall.ts).
    this.modern = createMcpHandler(
      ({ authInfo }) => {
        const server = createFrontendServer(
          core,
          authInfo?.clientId ?? LOCAL_CLIENT,
          'profile',
          authInfo?.extra?.['principal'] as Principal | undefined,
          options.instructions,
        );
        const replayed = authInfo?.extra?.[REPLAY_KEY] as CallOutcome | undefined;
        if (replayed) replayOutcome(server, replayed);
        return server;
      },
      {
        legacy: 'reject',
        bus: this.bus,
      },
    );
    // A request a rate limit refused leaves as HTTP 429 with Retry-After (withLimitStatus, below).
    this.modernNode = modernNodeHandler(
      withLimitStatus(this.modern, () => (core.policy.current.limits?.length ?? 0) > 0),
    );
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
      // A per-caller server's update: that caller's streams only (the SDK's filter still picks by URI).
      publishTo: (uri, owner) =>
        this.bus.publish({ kind: 'resource_updated', uri }, (stream) => stream.caller === owner),
      publisherId: options.label,
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
    // search+load: a 2026-07-28 search loaded tools into its profile's list.
    this.unsubscribe = core.exposure.profiles.onChange(() => this.publishToolsChanged());
  }

  /** Sends tools/list_changed to the 2026-07-28 listen streams whose profile's list changed. */
  private publishToolsChanged(): void {
    publishToolListChanged(this.bus, (client) => this.core.exposure.profileFingerprint(client));
  }

  /** Number of open 2025-era sessions. */
  get sessionCount(): number {
    return this.sessions.size;
  }

  /** Ends the sessions idle at `now`. */
  sweepIdleSessions(now = Date.now()): void {
    this.sessions.sweep(now);
  }

  /** Serves one MCP request of the authenticated caller (its profile; in gateway mode, the person and their scopes). */
  async serve(req: IncomingMessage, res: ServerResponse, caller: Caller, gateway?: GatewayGuard): Promise<void> {
    const { client, principal } = caller;
    if (req.method === 'POST') {
      const text = await readBody(req);
      if (text === undefined) return jsonRpcError(res, 413, -32600, 'Request body too large');
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        return jsonRpcError(res, 400, -32700, 'Parse error: the body is not JSON');
      }
      if (gateway && principal && gateway.refuseScope(res, body, { client, principal })) return;
      // The SDK's own era classification, on the body we already parsed (building
      // a Request for isLegacyRequest would re-read and re-parse it); an envelope
      // the SDK's handler validates anyway is not validated here first (postEra.ts).
      const era = postEra(req, body);
      const observedEra = era === 'legacy' ? 'legacy' : 'modern';
      return this.observed(req, res, body, observedEra, caller, () => this.handlePost(req, res, body, caller, era));
    }
    // GET (standalone stream) and DELETE (end session) exist only in the 2025 era.
    return this.observed(req, res, undefined, 'legacy', caller, () => this.handleLegacy(req, res, undefined, caller));
  }

  /** Runs `handle` as an observed client request (span, request id, counts), or as it is when observability is off. */
  private observed(
    req: IncomingMessage,
    res: ServerResponse,
    body: unknown,
    era: ClientRequest['era'],
    caller: Caller,
    handle: () => Promise<void>,
  ): Promise<void> {
    if (!this.observability) return handle();
    return this.observability.clientRequest(observedRequest(req, body, era, caller), res, handle);
  }

  /** A parsed POST, by its era (the SDK's classification: legacy, modern, or a rejection the SDK answers). */
  private async handlePost(
    req: IncomingMessage,
    res: ServerResponse,
    body: unknown,
    caller: Caller,
    era: PostEra,
  ): Promise<void> {
    const { client } = caller;
    if (era === 'legacy') return this.handleLegacy(req, res, body, caller);
    this.hub.seenModern(client, body);
    if (isMethod(body, 'subscriptions/listen')) {
      this.drain?.untrack(res); // a stream that lasts: a drain does not wait for it
      return this.listens.serve(req, res, body, client, callerKey(callerIdentityOf(caller)));
    }
    if (era !== 'reject' && this.refuseParamHeaders(req, res, body, era, client)) return;
    const plain = caller.principal === undefined ? this.plain?.accepts(req, body, client) : undefined;
    if (plain) return this.plain!.serve(res, plain, client, (outcome) => this.replay(req, res, body, outcome));
    // Progress toward this request waits (latest wins) while its client does not read the stream.
    const flow = new ResponseFlow();
    flow.add(res);
    return requestFlow.run(flow, () => this.modernNode(req, res, body));
  }

  /** Serves a fast-path call's outcome through the SDK's per-request server, which validates and encodes it. */
  private replay(req: IncomingMessage, res: ServerResponse, body: unknown, outcome: CallOutcome): Promise<void> {
    const auth = (req as IncomingMessage & { auth?: AuthInfo }).auth;
    const extra = { ...auth?.extra, [REPLAY_KEY]: outcome };
    (req as IncomingMessage & { auth?: AuthInfo }).auth = {
      token: '',
      clientId: LOCAL_CLIENT,
      scopes: [],
      ...auth,
      extra,
    };
    return this.modernNode(req, res, body);
  }

  /**
   * Answers 400 / -32020 (and returns true) when a modern tools/call's Mcp-Param-* headers disagree
   * with its arguments (a rejected one is the SDK's to answer).
   */
  private refuseParamHeaders(
    req: IncomingMessage,
    res: ServerResponse,
    body: unknown,
    era: PostEra,
    client: string,
  ): boolean {
    if (!isMethod(body, 'tools/call')) return false;
    const { id, params } = body as { id?: unknown; params?: unknown };
    const mismatch = this.paramHeaders.mismatch(client, params, req);
    if (!mismatch) return false;
    if (era === 'claimed' && classifiedEra(req, body) !== 'modern') return false;
    const error = {
      code: HEADER_MISMATCH,
      message: `Bad Request: the request headers and body disagree: ${mismatch.message}`,
      data: { mismatch: { header: mismatch.header } },
    };
    sendJson(res, 400, { jsonrpc: '2.0', id: id ?? null, error });
    return true;
  }

  /** Ends every session and stream of a client whose token was revoked or rotated. */
  endClient(client: string): void {
    for (const [id, session] of this.sessions) {
      if (session.client !== client) continue;
      this.sessions.delete(id);
      this.hub.close(id);
      void session.server.close();
    }
    this.listens.endClient(client);
    this.hub.closeModern(client);
  }

  private async handleLegacy(req: IncomingMessage, res: ServerResponse, body: unknown, caller: Caller): Promise<void> {
    const { client, principal } = caller;
    const person = principal ? principalKey(principal) : undefined;
    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const session = this.sessions.get(sessionId);
      if (!session) return jsonRpcError(res, 404, -32001, 'Session not found');
      if (session.client !== client || session.principal !== person)
        return jsonRpcError(res, 403, -32000, 'Forbidden: this session belongs to another client');
      // The initialize-negotiated version (deprecated accessor, still right for 2025-era sessions).
      if (refuseBatch(body, session.server.getNegotiatedProtocolVersion(), res)) return;
      if (this.refuseUnknownLastEvent(req, res, session)) return;
      this.hub.touch(sessionId);
      this.sessions.track(session, res);
      return session.transport.handleNodeRequest(req, res, body);
    }
    if (req.method !== 'POST' || !isInitialize(body)) {
      return jsonRpcError(res, 400, -32000, 'Bad Request: Mcp-Session-Id header is required');
    }
    // This replica is stopping: the balancer gives the retried initialize to another.
    if (this.drain?.draining) {
      return jsonRpcError(res, 503, -32000, 'Service Unavailable: this replica is shutting down; initialize again', {
        'Retry-After': '1',
      });
    }
    // At the bound a new session is refused, not an old one ended: the balancer gives it to another replica.
    const { maxSessions } = this.core.backends.proxyOptions();
    if (this.sessions.size >= maxSessions) {
      return jsonRpcError(
        res,
        503,
        -32000,
        `Service Unavailable: this Switchboard holds its maximum of ${maxSessions} live 2025-era sessions ` +
          '(proxy.maxSessions); initialize again later or through another replica',
        { 'Retry-After': '5' },
        { code: ErrorCode.SessionLimit, retryable: true, maxSessions },
      );
    }
    const server = createFrontendServer(this.core, client, 'session', principal, this.instructions);
    const flow = new ResponseFlow();
    const events = this.retention.forSession();
    const transport = guardResponses(
      new SessionTransport({
        sessionIdGenerator: () => randomUUID(),
        // Each SSE stream opens with a priming event (an id, empty data) and a retry field; a dropped
        // stream is resumed by a GET with Last-Event-ID (spec 2025-11-25 "Resumability and Redelivery").
        eventStore: events,
        retryInterval: RESUME_RETRY_MS,
        onsessioninitialized: (id) => {
          this.sessions.track(
            this.sessions.add(id, { transport, server, client, principal: person, flow, events }),
            res,
          );
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
    await transport.handleNodeRequest(req, res, body);
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

  /** Closes every session and stream. */
  async close(): Promise<void> {
    this.unsubscribe();
    this.hub.dispose();
    for (const id of this.sessions.ids()) this.hub.close(id);
    const sessions = this.sessions.clear();
    await Promise.allSettled(sessions.map((session) => session.server.close()));
    await this.modern.close().catch(() => undefined);
    this.retention.clear();
  }
}

/**
 * HTTP 429 for a rate-limited 2026-07-28 request. The SDK answers an error a
 * handler throws as HTTP 200 with the JSON-RPC error in the body; for a
 * request a rate limit refused (routing/limitGate.ts notes it in the slot
 * opened here), the same JSON body leaves as 429 with `Retry-After` (whole
 * seconds, rounded up), so HTTP clients and proxies back off as they do for
 * any API. A response already streaming (SSE) keeps its 200: its status left
 * before the refusal. With no `policy.limits` nothing can refuse, and no slot is
 * opened: every AsyncLocalStorage in use adds work to each promise made while
 * a request runs, so a feature that is off costs a call nothing.
 *
 * `handler`, with rate-limit refusals answered as HTTP 429 while `limitsOn()` (read per request).
 */
export function withLimitStatus(handler: FetchLikeMcpHandler, limitsOn: () => boolean): FetchLikeMcpHandler {
  return {
    fetch: async (request, options) => {
      if (!limitsOn()) return handler.fetch(request, options);
      const slot: LimitRefusalSlot = {};
      const response = await limitRefusals.run(slot, () => handler.fetch(request, options));
      if (slot.retryAfterMs === undefined || response.status !== 200) return response;
      if (!response.headers.get('content-type')?.includes('application/json')) return response;
      const headers = new Headers(response.headers);
      headers.set('Retry-After', String(Math.ceil(slot.retryAfterMs / 1000)));
      return new Response(response.body, { status: 429, statusText: 'Too Many Requests', headers });
    },
  };
}

/**
 * A client request as observability sees it (platform/observability): its
 * method, era, principal (the client profile until the gateway adds people),
 * and where its trace context is: the `traceparent` header, else the request's
 * `_meta.traceparent`. Kept apart from the route so every endpoint
 * (`/mcp`, `/servers/<id>/mcp`, `/profiles/<name>/mcp`) describes requests alike.
 *
 * The observed form of one request to an MCP route.
 */
export function observedRequest(
  req: IncomingMessage,
  body: unknown,
  era: ClientRequest['era'],
  caller: { client: string; principal?: Principal | undefined },
): ClientRequest {
  const message = typeof body === 'object' && body !== null ? (body as { method?: unknown; params?: unknown }) : {};
  const method =
    typeof message.method === 'string' ? message.method : body === undefined ? (req.method ?? 'GET') : 'response';
  const meta = (message.params as { _meta?: Record<string, unknown> } | undefined)?._meta;
  const metaParent = meta?.['traceparent'];
  const headers =
    req.headers.traceparent === undefined && typeof metaParent === 'string'
      ? {
          ...req.headers,
          traceparent: metaParent,
          tracestate: typeof meta?.['tracestate'] === 'string' ? meta['tracestate'] : undefined,
        }
      : req.headers;
  const principal = caller.principal
    ? { kind: 'person' as const, id: principalKey(caller.principal) }
    : { kind: 'client' as const, id: caller.client };
  return { method, era, principal, headers };
}
