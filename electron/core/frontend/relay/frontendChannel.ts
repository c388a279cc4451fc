/**
 * The frontend side of an input request: who made a call, in which era, what
 * it can answer, and how to put a request to it. Built per request by the
 * frontend server's handlers and carried to the router in `RouteOptions`.
 */
import {
  CLIENT_CAPABILITIES_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  type ClientCapabilities,
  type Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { ProtocolEra } from '../../../../shared/model/health.js';
import type { InputMethod } from '../../backends/connection/callTracking.js';

/** An input request as a 2025-era JSON-RPC request (method + params) or a 2026 embedded one. */
export interface InputRequestMessage {
  method: InputMethod;
  params?: Record<string, unknown> | undefined;
}

/** The frontend that made one request. */
export interface FrontendChannel {
  /** 2025-era (session, server-to-client requests) or 2026-07-28 (input_required results). */
  era: ProtocolEra;
  /**
   * Identity of the frontend: one object per 2025-era session, and per
   * 2026-07-28 request (which has no session). Calls with the same key are
   * answered by the same client.
   */
  key: object;
  /** What the client declared: at `initialize` (2025) or in this request's `_meta` (2026). */
  capabilities: ClientCapabilities | undefined;
  /**
   * Sends a server-to-client request tied to this request (2025 era only):
   * `relatedRequestId` is set, so on Streamable HTTP it rides the response
   * stream of the client's own request.
   */
  send(request: InputRequestMessage, options: { signal: AbortSignal; timeout: number }): Promise<unknown>;
  /** A 2026-07-28 retry's answers (`inputResponses`), bare results keyed as we asked. */
  inputResponses: Record<string, unknown> | undefined;
  /** A 2026-07-28 retry's `requestState`, echoed verbatim. */
  requestState: string | undefined;
}

/** The era of one request: a 2026-07-28 request carries its protocol version in its envelope. */
export function requestEra(ctx: ServerContext): ProtocolEra {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  return envelope?.[PROTOCOL_VERSION_META_KEY] !== undefined ? 'modern' : 'legacy';
}

/**
 * Describes the frontend behind one request to `server`. The server instance
 * is its key: one per 2025 session, one per 2026-07-28 request.
 */
export function frontendChannel(server: Server, ctx: ServerContext): FrontendChannel {
  // The published type of the envelope is `{}` (SDK 2.4.0): index it through a cast.
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const modern = envelope?.[PROTOCOL_VERSION_META_KEY] !== undefined;
  const state = ctx.mcpReq.requestState();
  return {
    era: modern ? 'modern' : 'legacy',
    key: server,
    capabilities: modern
      ? (envelope?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined)
      : server.getClientCapabilities(),
    send: (request, options) => ctx.mcpReq.send(request, options),
    inputResponses: ctx.mcpReq.inputResponses,
    requestState: typeof state === 'string' ? state : undefined,
  };
}

/**
 * Whether declared capabilities cover one input request, with the rules the
 * SDK applies to a 2026-07-28 `InputRequiredResult` (a bare `elicitation: {}`
 * means form mode; URL mode needs `elicitation.url`; sampling with tools needs
 * `sampling.tools`). Checking first lets us refuse one request to the backend
 * instead of having the whole result refused with -32021.
 */
export function frontendSupports(capabilities: ClientCapabilities | undefined, request: InputRequestMessage): boolean {
  if (!capabilities) return false;
  switch (request.method) {
    case 'elicitation/create': {
      const elicitation = capabilities.elicitation;
      if (!elicitation) return false;
      if (request.params?.['mode'] === 'url') return elicitation.url !== undefined;
      return elicitation.form !== undefined || elicitation.url === undefined;
    }
    case 'sampling/createMessage': {
      const sampling = capabilities.sampling;
      if (!sampling) return false;
      const usesTools = request.params?.['tools'] !== undefined || request.params?.['toolChoice'] !== undefined;
      return !usesTools || sampling.tools !== undefined;
    }
    case 'roots/list':
      return capabilities.roots !== undefined;
  }
}
