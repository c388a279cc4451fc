/**
 * The era of a parsed POST, as the SDK's `classifyInboundRequest` decides it,
 * without validating a 2026-07-28 envelope twice. The endpoint needs to know
 * whether a request is 2025-era (its sessions serve it) or not (the SDK's
 * 2026-07-28 handler serves it, and classifies it again, answering a
 * rejection itself). A request or notification whose `_meta` carries the
 * envelope claim (the protocol-version key), other than `initialize` and
 * without `result` or `error`, can never be 2025-era by the SDK's rules: only
 * modern or rejected, and which of the two only the zod validation of the
 * envelope tells, about 30 µs per request that the SDK's handler spends again
 * (bench/hopProfile.ts, docs/benchmarks.md). Such a request is `claimed`; the
 * endpoint asks for the full classification only where modern and rejected
 * differ for it (a tools/call whose Mcp-Param-* headers disagree with it).
 */
import type { IncomingMessage } from 'node:http';
import { classifyInboundRequest, PROTOCOL_VERSION_META_KEY } from '@modelcontextprotocol/server';
import { header } from './httpJson.js';

/** The SDK's outcome, or `claimed`: modern or rejected, not yet told apart. */
export type PostEra = 'legacy' | 'modern' | 'reject' | 'claimed';

/** The era of `body`, POSTed with `req`'s headers. */
export function postEra(req: IncomingMessage, body: unknown): PostEra {
  return claimsEnvelope(body) ? 'claimed' : classifiedEra(req, body);
}

/** The SDK's own classification of `body` (the envelope validated). */
export function classifiedEra(req: IncomingMessage, body: unknown): Exclude<PostEra, 'claimed'> {
  return classifyInboundRequest({
    httpMethod: 'POST',
    protocolVersionHeader: header(req, 'mcp-protocol-version'),
    mcpMethodHeader: header(req, 'mcp-method'),
    mcpNameHeader: header(req, 'mcp-name'),
    body,
  }).kind;
}

/** Whether `body` is a message the SDK classifies as modern or rejects, never as 2025-era. */
function claimsEnvelope(body: unknown): boolean {
  if (!isPlainObject(body) || 'result' in body || 'error' in body || body['method'] === 'initialize') return false;
  const params = body['params'];
  if (!isPlainObject(params)) return false;
  const meta = params['_meta'];
  return isPlainObject(meta) && PROTOCOL_VERSION_META_KEY in meta;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
