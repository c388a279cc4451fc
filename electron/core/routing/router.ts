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
import type { BackendConnection } from '../backends/backendConnection.js';
import type { Catalog, ItemOrigin } from '../catalog/catalog.js';
import { rewritePromptResult, rewriteReadResult, rewriteToolResult } from '../catalog/rewrite.js';
import type { FrontendChannel } from '../relay/frontendChannel.js';
import { relayRequest, type PerformOptions, type RelayHost } from '../relay/inputRelay.js';
import { LOCAL_CLIENT, type ItemKind, type ToolRule } from '../policy/policyConfig.js';
import type { AuditEntry, AuditKind } from '../policy/auditLog.js';
import { askApproval, type ApprovalHost } from './askApproval.js';
import { withForwardedMeta, type ProgressUpdate } from './forwarding.js';
import { unknownItem } from './protocolErrors.js';
import { recordDenied, recordedRequest } from './routeAudit.js';

/**
 * Accepts any result: the frontend's own SDK validates what we relay (against
 * the outputSchema we advertise), so checking it here too only costs time
 * (a fraction of a millisecond per call; `npm run bench`, bench/proxy-latency.ts,
 * shows the proxy's overhead per call). Also sidesteps SDK 2.4.0 checking an
 * input_required answer against a cached outputSchema.
 */
const PASSTHROUGH = {
  '~standard': { version: 1 as const, vendor: 'mcp-switchboard', validate: (value: unknown) => ({ value }) },
};

/** Tools whose schema declares `x-mcp-header` (SEP-2243), found once per tool definition. */
const headerMirroring = new WeakMap<Tool, boolean>();

/**
 * Whether calls to this tool must go through the SDK's callTool, which mirrors
 * `x-mcp-header` parameters into `Mcp-Param-*` headers for 2026-07-28 backends.
 */
function mirrorsHeaders(tool: Tool | undefined): boolean {
  if (!tool) return false;
  let mirrors = headerMirroring.get(tool);
  if (mirrors === undefined) {
    mirrors = JSON.stringify(tool.inputSchema).includes('"x-mcp-header"');
    headerMirroring.set(tool, mirrors);
  }
  return mirrors;
}

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
  /** The owner's live connection; one still starting (cached catalog, on demand) is waited for. */
  connection(
    backendId: string,
    signal?: AbortSignal,
  ): BackendConnection | undefined | Promise<BackendConnection | undefined>;
  /** The policy's decision for one item; `deny` must answer exactly like an unknown item. */
  authorize(client: string, kind: ItemKind, key: string): ToolRule;
  /** Records one request in the audit log (the core drops arguments and results unless capture is on). */
  audit?(entry: AuditEntry): void;
}

/** Routes tools/call, resources/read, prompts/get and completion/complete. */
export class Router {
  constructor(private readonly source: RouterSource) {}

  private async connectionFor(origin: ItemOrigin, kind: string, name: string, signal?: AbortSignal) {
    const connection = await this.source.connection(origin.backendId, signal);
    if (!connection) throw unknownItem(kind, name);
    return connection;
  }

  private recorded<T>(
    call: { kind: AuditKind; client: string; origin: ItemOrigin; arguments?: unknown },
    options: RouteOptions,
    run: () => Promise<T>,
  ): Promise<T> {
    return recordedRequest(this.source.audit, call, options.signal, run);
  }

  private denied(kind: AuditKind, client: string, origin: ItemOrigin, detail?: string): void {
    recordDenied(this.source.audit, { kind, client, origin }, detail);
  }

  /**
   * prompts/get and resources/read: forward through the input relay, then
   * rewrite URIs in the result unless the backend needs input first.
   */
  private relayed<P extends { _meta?: Record<string, unknown> | undefined }, R>(
    call: { kind: AuditKind; client: string; origin: ItemOrigin; arguments?: unknown },
    connection: BackendConnection,
    exposed: string,
    forwarded: P,
    perform: (params: P, requestOptions: PerformOptions) => Promise<R | InputRequiredResult>,
    rewrite: (result: R) => R,
    options: RouteOptions,
  ): Promise<R | InputRequiredResult> {
    return this.recorded(call, options, async () => {
      const result = await relayRequest(
        this.source,
        {
          connection,
          label: `${call.kind} ${call.origin.original}`,
          binding: `${call.kind} ${exposed}`,
          params: forwarded,
          perform,
        },
        options,
      );
      return isInputRequiredResult(result) ? result : rewrite(result as R);
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
    const connection = await this.connectionFor(origin, 'tool', params.name, options.signal);
    if (decision === 'ask') {
      const approval = await askApproval(
        this.source,
        { client, origin, exposed: params.name, arguments: params.arguments },
        options,
      );
      if (approval.kind === 'input') return approval.result;
      if (approval.kind === 'refused') {
        this.denied('tools/call', client, origin, approval.text);
        return { content: [{ type: 'text', text: approval.text }], isError: true };
      }
      options = { ...options, frontend: approval.frontend };
    }
    const exposed = catalog.toolByName.get(params.name);
    const toolDefinition = mirrorsHeaders(exposed)
      ? { name: origin.original, inputSchema: exposed!.inputSchema }
      : undefined;
    return this.recorded({ kind: 'tools/call', client, origin, arguments: params.arguments }, options, async () => {
      const result = await relayRequest(
        this.source,
        {
          connection,
          label: `tools/call ${origin.original}`,
          binding: `tools/call ${params.name}`,
          params: { ...withForwardedMeta(params), name: origin.original },
          perform: (forwarded, requestOptions) =>
            (toolDefinition
              ? connection.sdkClient.callTool(forwarded, { ...requestOptions, toolDefinition })
              : connection.sdkClient.request(
                  { method: 'tools/call', params: forwarded },
                  PASSTHROUGH,
                  requestOptions,
                )) as Promise<CallToolResult | InputRequiredResult>,
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
    const connection = await this.connectionFor(origin, 'prompt', params.name, options.signal);
    return this.relayed(
      { kind: 'prompts/get', client, origin, arguments: params.arguments },
      connection,
      params.name,
      { ...withForwardedMeta(params), name: origin.original },
      (forwarded, requestOptions) => connection.sdkClient.getPrompt(forwarded, requestOptions),
      (result: GetPromptResult) => rewritePromptResult(this.source.catalog(), origin.backendId, result),
      options,
    );
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
    const parsed = catalog.templatesMatching(uri);
    if (!parsed) throw unknownItem('resource', uri);
    const matches = parsed.templates.filter(
      (template) => this.source.authorize(client, 'resourceTemplates', template.advertised) !== 'deny',
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
    const connection = await this.connectionFor(origin, 'resource', params.uri, options.signal);
    return this.relayed(
      { kind: 'resources/read', client, origin },
      connection,
      params.uri,
      { ...withForwardedMeta(params), uri: origin.original },
      (forwarded, requestOptions) =>
        connection.sdkClient.readResource(forwarded, { ...requestOptions, cacheMode: 'bypass' }),
      (result: ReadResourceResult) => rewriteReadResult(this.source.catalog(), origin.backendId, result),
      options,
    );
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
    const target = ref.type === 'ref/prompt' ? ref.name : ref.uri;
    const connection = await this.connectionFor(owner, 'completion target', target, options.signal);
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
