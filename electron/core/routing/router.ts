/**
 * Routing of frontend requests to the backend that owns the item. Lookups go
 * through the catalog's tables; an unknown or removed item answers
 * invalid-params (-32602), as the spec asks for unknown tools, prompts and
 * resources (2026-07-28: "unknown resource is -32602").
 */
import type {
  CallToolRequestParams,
  CallToolResult,
  CompleteRequestParams,
  CompleteResult,
  GetPromptRequestParams,
  GetPromptResult,
  InputRequiredResult,
  ReadResourceRequestParams,
  ReadResourceResult,
  Tool,
} from '@modelcontextprotocol/server';
import { isInputRequiredResult, ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { ErrorCode, SwitchboardError } from '../../../shared/errors.js';
import type { BackendConnection } from '../backends/backendConnection.js';
import type { Catalog, ItemOrigin } from '../catalog/catalog.js';
import { rewritePromptResult, rewriteReadResult, rewriteToolResult } from '../catalog/rewrite.js';
import { parseAdvertisedUri } from '../catalog/uris.js';
import type { FrontendChannel } from '../relay/frontendChannel.js';
import { relayRequest, type RelayHost } from '../relay/inputRelay.js';
import { LOCAL_CLIENT, type ItemKind, type ToolRule } from '../policy/policyConfig.js';
import type { AuditEntry, AuditKind, AuditOutcome } from '../policy/auditLog.js';
import { askApproval, type ApprovalHost } from './askApproval.js';
import { withForwardedMeta, type ProgressUpdate } from './forwarding.js';

/** Per-request options a frontend passes along. */
export interface RouteOptions {
  signal?: AbortSignal;
  /** Called with each progress update of the backend request, when the frontend asked for progress. */
  onProgress?: ((progress: ProgressUpdate) => void) | undefined;
  /**
   * The frontend that made the request (tools/call, prompts/get,
   * resources/read): where the backend's input requests go, and a 2026-07-28
   * retry's answers. Without it, backends' input requests are refused.
   */
  frontend?: FrontendChannel | undefined;
  /** The client profile making the request (default: the local user). */
  client?: string | undefined;
}

/** What the router needs from the core. */
export interface RouterSource extends RelayHost, ApprovalHost {
  catalog(): Catalog;
  connection(backendId: string): BackendConnection | undefined;
  /** The policy's decision for one item; `deny` must answer exactly like an unknown item. */
  authorize(client: string, kind: ItemKind, key: string): ToolRule;
  /** Records one request in the audit log (the core drops arguments and results unless capture is on). */
  audit?(entry: AuditEntry): void;
}

/**
 * JSON-RPC codes for local failures. -32001 is the conventional request-timeout
 * code (the v1 SDK's `RequestTimeout`); -32000 is the implementation-defined
 * server-error range for "backend busy / unavailable". `data.code` carries our
 * local code so clients and the UI can tell them apart.
 */
const WIRE_CODE: Partial<Record<ErrorCode, number>> = {
  [ErrorCode.Timeout]: -32001,
  [ErrorCode.QueueFull]: -32000,
  [ErrorCode.BackendUnavailable]: -32000,
  [ErrorCode.BackendRemoved]: -32000,
};

/** Turns a local error into the protocol error a frontend receives; protocol errors pass through. */
export function toProtocolError(error: unknown): unknown {
  if (error instanceof SwitchboardError) {
    return new ProtocolError(WIRE_CODE[error.code] ?? ProtocolErrorCode.InternalError, error.message, {
      code: error.code,
      ...error.data,
    });
  }
  return error;
}

function unknownItem(kind: string, name: string): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown ${kind}: ${name}`);
}

/** Routes tools/call, resources/read, prompts/get and completion/complete. */
export class Router {
  constructor(private readonly source: RouterSource) {}

  private connectionFor(origin: ItemOrigin, kind: string, name: string): BackendConnection {
    const connection = this.source.connection(origin.backendId);
    if (!connection) throw unknownItem(kind, name);
    return connection;
  }

  /**
   * Runs one routed request and records it in the audit log: outcome,
   * duration, and (when the core keeps them) arguments and result. Local
   * errors become protocol errors on the way out.
   */
  private async recorded<T>(
    call: { kind: AuditKind; client: string; origin: ItemOrigin; arguments?: unknown },
    options: RouteOptions,
    run: () => Promise<T>,
  ): Promise<T> {
    const started = Date.now();
    const base = {
      ...call,
      time: new Date(started).toISOString(),
      backend: call.origin.backendId,
      item: call.origin.original,
    };
    try {
      const result = await run();
      const toolError = (result as { isError?: unknown }).isError === true;
      this.source.audit?.({
        time: base.time,
        client: call.client,
        backend: base.backend,
        kind: call.kind,
        item: base.item,
        outcome: toolError ? 'error' : 'ok',
        ...(toolError ? { errorCode: 'tool_error' } : {}),
        durationMs: Date.now() - started,
        arguments: call.arguments,
        result,
      });
      return result;
    } catch (error) {
      const failure = toProtocolError(error);
      this.source.audit?.({
        time: base.time,
        client: call.client,
        backend: base.backend,
        kind: call.kind,
        item: base.item,
        ...auditFailure(error, options.signal),
        durationMs: Date.now() - started,
        arguments: call.arguments,
      });
      throw failure;
    }
  }

  /** Records a request the policy refused (the client sees an unknown item). */
  private denied(kind: AuditKind, client: string, origin: ItemOrigin, detail?: string): void {
    this.source.audit?.({
      time: new Date().toISOString(),
      client,
      backend: origin.backendId,
      kind,
      item: origin.original,
      outcome: 'denied',
      durationMs: 0,
      ...(detail ? { detail } : {}),
    });
  }

  /**
   * tools/call: exposed name -> owning backend, original name. May answer
   * `input_required` (2026-07-28) when the backend needs input from the
   * frontend; see relay/inputRelay.ts.
   */
  async callTool(
    params: CallToolRequestParams,
    options: RouteOptions = {},
  ): Promise<CallToolResult | InputRequiredResult> {
    const catalog = this.source.catalog();
    const origin = catalog.toolIndex.get(params.name);
    const client = options.client ?? LOCAL_CLIENT;
    const decision = origin ? this.source.authorize(client, 'tools', params.name) : 'deny';
    if (!origin) throw unknownItem('tool', params.name);
    if (decision === 'deny') {
      this.denied('tools/call', client, origin);
      throw unknownItem('tool', params.name);
    }
    const connection = this.connectionFor(origin, 'tool', params.name);
    if (decision === 'ask') {
      const refusal = await askApproval(
        this.source,
        { client, origin, exposed: params.name, arguments: params.arguments },
        options,
      );
      if (refusal !== undefined) {
        this.denied('tools/call', client, origin, refusal);
        return { content: [{ type: 'text', text: refusal }], isError: true };
      }
    }
    // SDK 2.4.0 checks an input_required answer against a cached outputSchema
    // and throws ("has an output schema but did not return structured
    // content"). An explicit definition without it avoids that and keeps the
    // SEP-2243 Mcp-Param-* header mirroring; the frontend's own SDK still
    // validates the final result against the outputSchema we advertise.
    const exposed = catalog.tools.find((tool) => tool.name === params.name);
    const toolDefinition: Tool = { name: origin.original, inputSchema: exposed?.inputSchema ?? { type: 'object' } };
    return this.recorded({ kind: 'tools/call', client, origin, arguments: params.arguments }, options, async () => {
      const result = await relayRequest(
        this.source,
        {
          connection,
          label: `tools/call ${origin.original}`,
          binding: `tools/call ${params.name}`,
          params: { ...withForwardedMeta(params), name: origin.original },
          perform: (forwarded, requestOptions) =>
            connection.sdkClient.callTool(forwarded, { ...requestOptions, toolDefinition }) as Promise<
              CallToolResult | InputRequiredResult
            >,
        },
        options,
      );
      if (isInputRequiredResult(result)) return result;
      return rewriteToolResult(this.source.catalog(), origin.backendId, result);
    });
  }

  /** prompts/get: exposed name -> owning backend, original name. May answer `input_required`. */
  async getPrompt(
    params: GetPromptRequestParams,
    options: RouteOptions = {},
  ): Promise<GetPromptResult | InputRequiredResult> {
    const origin = this.source.catalog().promptIndex.get(params.name);
    const client = options.client ?? LOCAL_CLIENT;
    if (!origin) throw unknownItem('prompt', params.name);
    if (this.source.authorize(client, 'prompts', params.name) === 'deny') {
      this.denied('prompts/get', client, origin);
      throw unknownItem('prompt', params.name);
    }
    const connection = this.connectionFor(origin, 'prompt', params.name);
    return this.recorded({ kind: 'prompts/get', client, origin, arguments: params.arguments }, options, async () => {
      const result = await relayRequest(
        this.source,
        {
          connection,
          label: `prompts/get ${origin.original}`,
          binding: `prompts/get ${params.name}`,
          params: { ...withForwardedMeta(params), name: origin.original },
          perform: (forwarded, requestOptions) => connection.sdkClient.getPrompt(forwarded, requestOptions),
        },
        options,
      );
      if (isInputRequiredResult(result)) return result;
      return rewritePromptResult(this.source.catalog(), origin.backendId, result);
    });
  }

  /**
   * Finds the backend and original URI for an advertised URI: an exact listed
   * resource, or an instance of exactly one of the backend's templates, each
   * as far as the client may see it (a denied template is not even counted
   * when deciding whether a URI is ambiguous, so its existence cannot leak).
   */
  resolveResource(uri: string, client: string = LOCAL_CLIENT): ItemOrigin {
    const catalog = this.source.catalog();
    const exact = catalog.resourceIndex.get(uri);
    if (exact && this.source.authorize(client, 'resources', uri) !== 'deny') return exact;
    const parsed = parseAdvertisedUri(uri);
    const entry = parsed ? catalog.byBackend.get(parsed.backendId) : undefined;
    if (!parsed || !entry) throw unknownItem('resource', uri);
    const matches = entry.templates.filter(
      (template) =>
        template.matcher.match(parsed.original) !== null &&
        this.source.authorize(client, 'resourceTemplates', template.advertised) !== 'deny',
    );
    if (matches.length === 0) throw unknownItem('resource', uri);
    if (matches.length > 1) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Ambiguous resource: ${uri} matches ${matches.length} templates (${matches.map((t) => t.advertised).join(', ')})`,
      );
    }
    return { backendId: parsed.backendId, original: parsed.original };
  }

  /** resources/read: advertised URI -> owning backend, original URI. May answer `input_required`. */
  async readResource(
    params: ReadResourceRequestParams,
    options: RouteOptions = {},
  ): Promise<ReadResourceResult | InputRequiredResult> {
    const client = options.client ?? LOCAL_CLIENT;
    const origin = this.resolveResource(params.uri, client);
    const connection = this.connectionFor(origin, 'resource', params.uri);
    return this.recorded({ kind: 'resources/read', client, origin }, options, async () => {
      const result = await relayRequest(
        this.source,
        {
          connection,
          label: `resources/read ${origin.original}`,
          binding: `resources/read ${params.uri}`,
          params: { ...withForwardedMeta(params), uri: origin.original },
          perform: (forwarded, requestOptions) =>
            connection.sdkClient.readResource(forwarded, { ...requestOptions, cacheMode: 'bypass' }),
        },
        options,
      );
      if (isInputRequiredResult(result)) return result;
      return rewriteReadResult(this.source.catalog(), origin.backendId, result);
    });
  }

  /** completion/complete for a prompt argument or a resource template variable. */
  async complete(params: CompleteRequestParams, options: RouteOptions = {}): Promise<CompleteResult> {
    const catalog = this.source.catalog();
    const { ref } = params;
    let origin: ItemOrigin | undefined;
    let forwarded: CompleteRequestParams['ref'];
    const client = options.client ?? LOCAL_CLIENT;
    if (ref.type === 'ref/prompt') {
      origin = catalog.promptIndex.get(ref.name);
      if (!origin || this.source.authorize(client, 'prompts', ref.name) === 'deny')
        throw unknownItem('prompt', ref.name);
      forwarded = { ...ref, name: origin.original };
    } else {
      const template = catalog.templateIndex.get(ref.uri);
      origin = template ?? catalog.resourceIndex.get(ref.uri);
      const kind = template ? 'resourceTemplates' : 'resources';
      if (!origin || this.source.authorize(client, kind, ref.uri) === 'deny') {
        throw unknownItem('resource template', ref.uri);
      }
      forwarded = { ...ref, uri: origin.original };
    }
    const owner = origin;
    const connection = this.connectionFor(owner, 'completion target', ref.type === 'ref/prompt' ? ref.name : ref.uri);
    if (!connection.sdkClient.getServerCapabilities()?.completions) return { completion: { values: [] } };
    return this.recorded(
      { kind: 'completion/complete', client, origin: owner, arguments: params.argument },
      options,
      () =>
        connection.run(
          `completion/complete`,
          ({ signal, sdkTimeoutMs }) =>
            connection.sdkClient.complete(
              { ...withForwardedMeta(params), ref: forwarded },
              { signal, timeout: sdkTimeoutMs() },
            ),
          options.signal,
        ),
    );
  }
}

/** The audit outcome of a failed request: timeout, cancelled, or an error with its code. */
function auditFailure(
  error: unknown,
  signal: AbortSignal | undefined,
): { outcome: AuditOutcome; errorCode?: string | number } {
  if (error instanceof SwitchboardError && error.code === ErrorCode.Timeout)
    return { outcome: 'timeout', errorCode: error.code };
  if (signal?.aborted) return { outcome: 'cancelled' };
  if (error instanceof SwitchboardError) return { outcome: 'error', errorCode: error.code };
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' || typeof code === 'number'
    ? { outcome: 'error', errorCode: code }
    : { outcome: 'error' };
}
