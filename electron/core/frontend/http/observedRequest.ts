/**
 * A client request as observability sees it (platform/observability): its
 * method, era, principal (the client profile until the gateway adds people),
 * and where its trace context is: the `traceparent` header, else the request's
 * `_meta.traceparent`. Kept apart from the route so every endpoint
 * (`/mcp`, `/servers/<id>/mcp`, `/profiles/<name>/mcp`) describes requests alike.
 */
import type { IncomingMessage } from 'node:http';
import type { ClientRequest } from '../../platform/observability/observability.js';
import { principalKey, type Principal } from '../../catalog/policy/principal.js';

/** The observed form of one request to an MCP route. */
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
