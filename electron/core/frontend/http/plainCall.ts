/**
 * The fast path of a plain 2026-07-28 `tools/call` over HTTP. The full path
 * builds an SDK server for every 2026-07-28 request (createFrontendServer),
 * connects it to a per-request transport, classifies and validates the
 * message again inside it, and closes it with an error object: the profile of
 * a proxied call (bench/hopProfile.ts, docs/benchmarks.md) put a third of
 * serve's CPU there. A call that needs nothing of that machinery skips it:
 * the envelope is validated once (the SDK's own `classifyInboundRequest`;
 * once per distinct envelope, which a client repeats on every call),
 * and the call takes the very handler body the full path runs
 * (`core.tasks.callPlainly`: policy, `ask`, overrides, task-only tools,
 * audit, the backend's connection, resource links rewritten), so what the
 * user relies on is decided in one place for both paths.
 *
 * Only what is provably answered alike takes it. A request the SDK could
 * answer otherwise (a header or envelope out of the ordinary, progress asked
 * for, a task declared, a retry with input responses, search mode's
 * meta-tools, a shortened name, gateway mode, rate limits in force) goes the
 * full path before anything runs. After the call, a result of the plain shape
 * (text content, structured content, isError) is written as the SDK would
 * encode it; anything else (an error, `input_required`, other content) is
 * replayed through the SDK's per-request server with the outcome in hand
 * (`replayOutcome`), so the SDK validates and encodes it, never calling the
 * backend twice. `SWITCHBOARD_FULL_PATH=1` turns the fast path off (the
 * differential test compares the two).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  SERVER_INFO_META_KEY,
  classifyInboundRequest,
  isJsonContentType,
  type CallToolRequestParams,
  type CallToolResult,
  type ClientCapabilities,
  type Server,
} from '@modelcontextprotocol/server';
import type { FrontendCore } from '../../api/services.js';
import type { FrontendChannel } from '../relay/frontendChannel.js';
import { metaToolOf } from '../exposure/metaToolCalls.js';
import { relayable } from '../server/responseGuard.js';
import { SERVER_INFO } from '../server/mcpServer.js';
import { TASKS_EXTENSION_ID } from '../server/taskMethods.js';

/** The environment variable that sends every call the full path (`1`), the backend's relay (plainRelay.ts) too. */
export { FULL_PATH_ENV } from '../../backends/connection/plainRelay.js';

/** What a call came to: its result, or what it threw. */
export type CallOutcome = { result: CallToolResult } | { error: unknown };

/** A request the fast path serves: its id, the params the handler sees, and the caller's capabilities. */
export interface PlainCall {
  id: string | number;
  params: CallToolRequestParams;
  capabilities: ClientCapabilities;
}

/** The `authInfo.extra` key a replayed request carries its outcome under. */
export const REPLAY_KEY = 'switchboard.replay';

/** The revision the fast path serves (the SDK's 2026-07-28 handler serves it; another goes the full path). */
const MODERN_REVISION = '2026-07-28';

/** Tool names the Mcp-Name header carries as they are (no Base64 sentinel can be among them). */
const PLAIN_NAME = /^[A-Za-z0-9_./-]+$/;

/** The envelope keys the SDK lifts out of `_meta` before its handler sees the params. */
const ENVELOPE_KEYS = new Set([PROTOCOL_VERSION_META_KEY, CLIENT_CAPABILITIES_META_KEY, CLIENT_INFO_META_KEY]);

/** Keys of a plain result, in the order the SDK's result schema writes them. */
const RESULT_KEYS = ['_meta', 'content', 'structuredContent', 'isError'];

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The request's header, when sent once. */
function single(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === 'string' ? value : undefined;
}

/**
 * Envelopes (a request's whole `_meta`, as JSON) the SDK classified as a valid
 * 2026-07-28 tools/call: a client sends the same one with every call, and its
 * validation (zod over the client's capabilities) was the largest single cost
 * left on the fast path. Bounded: at most this many, each at most
 * {@link MAX_ENVELOPE_CHARS}; when full it starts again.
 */
const MAX_ENVELOPES = 256;
const MAX_ENVELOPE_CHARS = 8192;

/** The fast path of one MCP route; see the module comment. */
export class PlainCalls {
  private readonly envelopes = new Set<string>();

  constructor(private readonly core: FrontendCore) {}

  /**
   * The call, when `body` is a plain 2026-07-28 tools/call the fast path
   * answers exactly as the full path would; undefined sends it the full path.
   */
  accepts(req: IncomingMessage, body: unknown, client: string): PlainCall | undefined {
    if (!isPlainObject(body) || body['method'] !== 'tools/call') return undefined;
    if ((this.core.policy.current.limits?.length ?? 0) > 0) return undefined;
    const { id, params } = body;
    if (Object.keys(body).length !== 4 || body['jsonrpc'] !== '2.0' || !isPlainObject(params)) return undefined;
    if (typeof id !== 'string' && !(typeof id === 'number' && Number.isSafeInteger(id))) return undefined;
    const { name, arguments: args, _meta: meta } = params;
    if (typeof name !== 'string' || !PLAIN_NAME.test(name) || !isPlainObject(meta)) return undefined;
    if (args !== undefined && !isPlainObject(args)) return undefined;
    for (const key of Object.keys(params))
      if (key !== 'name' && key !== 'arguments' && key !== '_meta') return undefined;
    // The SDK's standard headers, present and exactly as the body says.
    const version = meta[PROTOCOL_VERSION_META_KEY];
    if (version !== MODERN_REVISION) return undefined;
    if (single(req, 'mcp-protocol-version') !== version) return undefined;
    if (single(req, 'mcp-method') !== 'tools/call' || single(req, 'mcp-name') !== name) return undefined;
    if (!isJsonContentType(single(req, 'content-type'))) return undefined;
    // The handler's params: `_meta` without the envelope; progress, tasks and other envelope keys go the full path.
    const kept: Record<string, unknown> = {};
    for (const key of Object.keys(meta)) {
      if (ENVELOPE_KEYS.has(key)) continue;
      if (key === 'progressToken' || key.startsWith('io.modelcontextprotocol/')) return undefined;
      kept[key] = meta[key];
    }
    const capabilities = meta[CLIENT_CAPABILITIES_META_KEY];
    if (!isPlainObject(capabilities)) return undefined;
    if (isPlainObject(capabilities['extensions']) && TASKS_EXTENSION_ID in capabilities['extensions']) return undefined;
    // Search mode's meta-tools and shortened names are the full path's.
    const { exposure } = this.core;
    if (metaToolOf(exposure, client, name) !== undefined) return undefined;
    if (this.core.policy.view(client, this.core.catalog()).aliases.has(name)) return undefined;
    if (!this.validEnvelope(req, body, meta)) return undefined;
    const handled: CallToolRequestParams = { name };
    if (args !== undefined) handled.arguments = args;
    if (Object.keys(kept).length > 0) handled._meta = kept;
    return { id, params: handled, capabilities: capabilities as ClientCapabilities };
  }

  /**
   * Whether the SDK classifies this request as a valid 2026-07-28 request (its
   * own `classifyInboundRequest`, as its handler runs it). Past the structure
   * `accepts` checked, the outcome depends on `_meta` alone, so an envelope
   * found valid once is known valid when it comes again, byte for byte.
   */
  private validEnvelope(req: IncomingMessage, body: Record<string, unknown>, meta: Record<string, unknown>): boolean {
    const key = JSON.stringify(meta);
    if (this.envelopes.has(key)) return true;
    const version = meta[PROTOCOL_VERSION_META_KEY] as string;
    const route = classifyInboundRequest({
      httpMethod: 'POST',
      protocolVersionHeader: version,
      mcpMethodHeader: 'tools/call',
      mcpNameHeader: single(req, 'mcp-name'),
      body,
    });
    if (route.kind !== 'modern' || route.messageKind !== 'request' || route.classification.revision !== version) {
      return false;
    }
    if (key.length <= MAX_ENVELOPE_CHARS) {
      if (this.envelopes.size >= MAX_ENVELOPES) this.envelopes.clear();
      this.envelopes.add(key);
    }
    return true;
  }

  /**
   * Makes the call as the full path's handler does, then writes a plain result
   * (see the module comment) or hands anything else to `replay`.
   */
  async serve(
    res: ServerResponse,
    call: PlainCall,
    client: string,
    replay: (outcome: CallOutcome) => Promise<void>,
  ): Promise<void> {
    const { core } = this;
    const { params } = call;
    core.exposure.profiles.of(client).touch(params.name);
    core.exposure.counted(client, params.name);
    // Cancellation: the client going away aborts the call, as the SDK's per-request server does.
    const abort = new AbortController();
    const onClose = (): void => abort.abort();
    res.once('close', onClose);
    if (res.destroyed) abort.abort();
    const frontend: FrontendChannel = {
      era: 'modern',
      key: {},
      capabilities: call.capabilities,
      send: () => Promise.reject(new Error('a 2026-07-28 request takes no server-to-client requests')),
      inputResponses: undefined,
      requestState: undefined,
    };
    let outcome: CallOutcome;
    try {
      const options = { client, signal: abort.signal, frontend };
      await core.router.limitTool(params, options);
      const result = await core.tasks.callPlainly(params, { ...options, onProgress: undefined, principal: undefined });
      outcome = { result: relayable(result, `tools/call ${params.name}`, core.deps.logger) as CallToolResult };
    } catch (error) {
      outcome = { error };
    }
    res.off('close', onClose);
    if (abort.signal.aborted || res.destroyed) return;
    if ('result' in outcome && isPlainResult(outcome.result)) return writeResult(res, call.id, outcome.result);
    return replay(outcome);
  }
}

/**
 * Whether the SDK would validate `result` into itself: an object of the result
 * schema's keys in its order, text content only, no `_meta` but a backend's
 * identity, and no `resultType` (so neither `input_required` nor a task).
 */
function isPlainResult(result: unknown): result is CallToolResult {
  if (!isPlainObject(result) || !Array.isArray(result['content'])) return false;
  let at = 0;
  for (const key of Object.keys(result)) {
    while (at < RESULT_KEYS.length && RESULT_KEYS[at] !== key) at++;
    if (at === RESULT_KEYS.length) return false;
  }
  if (result['isError'] !== undefined && typeof result['isError'] !== 'boolean') return false;
  if ('_meta' in result && !isServerInfoMeta(result['_meta'])) return false;
  if ('structuredContent' in result && result['structuredContent'] === undefined) return false;
  for (const block of result['content'] as unknown[]) {
    if (!isPlainObject(block) || block['type'] !== 'text' || typeof block['text'] !== 'string') return false;
    const keys = Object.keys(block);
    if (keys.length !== 2 || keys[0] !== 'type') return false;
  }
  return true;
}

/**
 * Whether a result's `_meta` is a backend's own server identity alone (what a
 * 2026-07-28 backend stamps on every result), which the SDK keeps as it is.
 */
function isServerInfoMeta(meta: unknown): boolean {
  if (!isPlainObject(meta)) return false;
  const keys = Object.keys(meta);
  if (keys.length !== 1 || keys[0] !== SERVER_INFO_META_KEY) return false;
  const info = meta[SERVER_INFO_META_KEY];
  if (!isPlainObject(info) || typeof info['name'] !== 'string' || typeof info['version'] !== 'string') return false;
  const fields = Object.keys(info);
  return fields.length === 2 && fields[0] === 'name';
}

/** Writes a plain result as the SDK's 2026-07-28 encoding of it (resultType, serverInfo) in one write. */
function writeResult(res: ServerResponse, id: string | number, result: CallToolResult): void {
  // A backend's own identity stays; else ours is stamped (the SDK's stampServerInfoMeta).
  const encoded =
    result._meta === undefined
      ? { ...result, resultType: 'complete', _meta: { [SERVER_INFO_META_KEY]: SERVER_INFO } }
      : { ...result, resultType: 'complete' };
  const bytes = Buffer.from(JSON.stringify({ result: encoded, jsonrpc: '2.0', id }));
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(bytes.length) }).end(bytes);
}

/** Makes a per-request server answer its tools/call with an outcome already reached (the fast path's replay). */
export function replayOutcome(server: Server, outcome: CallOutcome): void {
  server.setRequestHandler('tools/call', () =>
    'result' in outcome ? Promise.resolve(outcome.result) : Promise.reject(outcome.error),
  );
}
