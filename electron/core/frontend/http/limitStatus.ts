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
 */
import type { FetchLikeMcpHandler } from '@modelcontextprotocol/node';
import { limitRefusals, type LimitRefusalSlot } from '../routing/limitGate.js';

/** `handler`, with rate-limit refusals answered as HTTP 429 while `limitsOn()` (read per request). */
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
