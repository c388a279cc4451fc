/**
 * Routing of frontend requests to the backend that owns the item: each
 * request's item is resolved once (resolution.ts: name mapping and policy),
 * an `ask` tool waits for approval, and the request goes to the owner's
 * connection through the input relay and into the audit log. What the SDK
 * must be told per request is the connection's (backends/connection/backendRequests.ts).
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
} from '@modelcontextprotocol/server';
import { isInputRequiredResult } from '@modelcontextprotocol/server';
import type { BackendConnection } from '../../backends/connection/backendConnection.js';
import type { BackendPool } from '../../backends/supervisor/backendPool.js';
import type { Catalog } from '../../catalog/catalog.js';
import { rewritePromptResult, rewriteReadResult, rewriteToolResult } from '../../catalog/rewrite.js';
import { relayRequest, type PerformOptions, type RelayHost } from '../relay/inputRelay.js';
import { LOCAL_CLIENT } from '../../platform/config/policyConfig.js';
import type { AuditEntry, AuditKind } from '../../catalog/policy/auditLog.js';
import { askApproval, type ApprovalHost } from './askApproval.js';
import { withForwardedMeta } from './forwarding.js';
import { unknownItem } from './protocolErrors.js';
import { callerKey } from './callerIdentity.js';
import { signInAnswer } from './signInAnswer.js';
import type { AccessControl } from '../../catalog/policy/accessControl.js';
import { ItemResolver, type Resolution } from './resolution.js';
import { recordDenied, recordedRequest } from './routeAudit.js';
import type { RouteOptions } from './routeOptions.js';

export type { RouteOptions } from './routeOptions.js';

/** What the router needs from the core. */
export interface RouterSource extends RelayHost, ApprovalHost {
  catalog(): Catalog;
  /** The backends' connections: the owner's is waited for while it starts (cached catalog, on demand). */
  pool: Pick<BackendPool, 'connectionFor'>;
  /** The policy's decision for one item of the given snapshot. */
  /** The policy: its decision for one item of a given snapshot (AccessControl.decide). */
  access: Pick<AccessControl, 'decide'>;
  /** Records one request in the audit log (the core drops arguments and results unless capture is on). */
  audit?(entry: AuditEntry): void;
}

/** A resolved item with the connection of its owner: everything a request needs to be made. */
export interface ResolvedCall extends Resolution {
  connection: BackendConnection;
}

/** One relayed request: its audit kind, params for the backend, how to make it and how to rewrite its result. */
interface RelayedCall<P extends { _meta?: Record<string, unknown> | undefined }, R> {
  kind: AuditKind;
  arguments?: unknown;
  forwarded: P;
  perform(params: P, options: PerformOptions): Promise<R | InputRequiredResult>;
  rewrite(catalog: Catalog, backendId: string, result: R): R;
}

/** Routes tools/call, resources/read, prompts/get and completion/complete. */
export class Router {
  private readonly resolver: ItemResolver;

  constructor(private readonly source: RouterSource) {
    this.resolver = new ItemResolver((client, catalog, kind, key) => source.access.decide(client, catalog, kind, key));
  }

  /**
   * The owner's connection for a resolved item (a per-caller backend's: this
   * caller's own, or the answer that asks them to sign in); a backend gone
   * meanwhile answers like an unknown item.
   */
  private async connected(item: Resolution, kind: string, options: RouteOptions): Promise<ResolvedCall> {
    const caller = callerKey(options.caller ?? { clientId: item.client });
    let connection: BackendConnection | undefined;
    try {
      connection = await this.source.pool.connectionFor(item.origin.backendId, options.signal, caller);
    } catch (error) {
      throw signInAnswer(error, options.frontend);
    }
    if (!connection) throw unknownItem(kind, item.exposed);
    return { ...item, connection };
  }

  /** An item found and allowed, else the audit's `denied` and the answer to an unknown item. */
  private allowed(item: Resolution | undefined, kind: AuditKind, noun: string, name: string): Resolution {
    if (!item) throw unknownItem(noun, name);
    if (item.rule === 'deny') {
      recordDenied(this.source.audit, { kind, client: item.client, origin: item.origin, decision: item.decision });
      throw unknownItem(noun, name);
    }
    return item;
  }

  /**
   * tools/call, prompts/get and resources/read: forward through the input
   * relay, then rewrite URIs in the result (against the snapshot the item was
   * resolved in) unless the backend needs input first.
   */
  private relayed<P extends { _meta?: Record<string, unknown> | undefined }, R>(
    call: ResolvedCall,
    request: RelayedCall<P, R>,
    options: RouteOptions,
  ): Promise<R | InputRequiredResult> {
    const audited = {
      kind: request.kind,
      client: call.client,
      origin: call.origin,
      arguments: request.arguments,
      decision: call.decision,
    };
    return recordedRequest(this.source.audit, audited, options.signal, async () => {
      const result = await relayRequest(
        this.source,
        {
          connection: call.connection,
          label: `${request.kind} ${call.origin.original}`,
          binding: `${request.kind} ${call.exposed}`,
          params: request.forwarded,
          perform: request.perform,
        },
        options,
      );
      return isInputRequiredResult(result) ? result : request.rewrite(call.catalog, call.origin.backendId, result as R);
    });
  }

  /**
   * tools/call: exposed name -> owning backend, original name. May answer
   * `input_required` (2026-07-28) when the backend needs input from the
   * frontend (see frontend/relay/inputRelay.ts) or an `ask` rule asks the client itself.
   */
  async callTool(
    params: CallToolRequestParams,
    options: RouteOptions = {},
  ): Promise<CallToolResult | InputRequiredResult> {
    const client = options.client ?? LOCAL_CLIENT;
    const item = this.resolver.tool(this.source.catalog(), client, params.name);
    const call = await this.connected(this.allowed(item, 'tools/call', 'tool', params.name), 'tool', options);
    if (call.rule === 'ask') {
      const approval = await askApproval(this.source, { ...call, arguments: params.arguments }, options);
      if (approval.kind === 'input') return approval.result;
      if (approval.kind === 'refused') {
        const refused = { kind: 'tools/call' as const, client, origin: call.origin, decision: call.decision };
        recordDenied(this.source.audit, refused, approval.text);
        return { content: [{ type: 'text', text: approval.text }], isError: true };
      }
      options = { ...options, frontend: approval.frontend };
    }
    return this.relayed(
      call,
      {
        kind: 'tools/call',
        arguments: params.arguments,
        forwarded: { ...withForwardedMeta(params), name: call.origin.original },
        perform: (forwarded, requestOptions) =>
          call.connection.callTool(forwarded, { ...requestOptions, tool: call.tool }),
        rewrite: rewriteToolResult,
      },
      options,
    );
  }

  /**
   * A tools/call made as a task (core/tasks): the tool found, allowed (a
   * denied one is recorded and answers as unknown) and its owner connected.
   */
  async resolveToolCall(params: CallToolRequestParams, options: RouteOptions = {}): Promise<ResolvedCall> {
    const client = options.client ?? LOCAL_CLIENT;
    const item = this.resolver.tool(this.source.catalog(), client, params.name);
    return this.connected(this.allowed(item, 'tools/call', 'tool', params.name), 'tool', options);
  }

  /** Whether a client may still call a tool (exposed name) under the policy in force. */
  mayCallTool(client: string, name: string): boolean {
    const item = this.resolver.tool(this.source.catalog(), client, name);
    return item !== undefined && item.rule !== 'deny';
  }

  /** prompts/get: exposed name -> owning backend, original name. May answer `input_required`. */
  async getPrompt(
    params: GetPromptRequestParams,
    options: RouteOptions = {},
  ): Promise<GetPromptResult | InputRequiredResult> {
    const client = options.client ?? LOCAL_CLIENT;
    const item = this.resolver.prompt(this.source.catalog(), client, params.name);
    const call = await this.connected(this.allowed(item, 'prompts/get', 'prompt', params.name), 'prompt', options);
    return this.relayed(
      call,
      {
        kind: 'prompts/get',
        arguments: params.arguments,
        forwarded: { ...withForwardedMeta(params), name: call.origin.original },
        perform: (forwarded, requestOptions) => call.connection.getPrompt(forwarded, requestOptions),
        rewrite: rewritePromptResult,
      },
      options,
    );
  }

  /** resources/read: advertised URI -> owning backend, original URI. May answer `input_required`. */
  async readResource(
    params: ReadResourceRequestParams,
    options: RouteOptions = {},
  ): Promise<ReadResourceResult | InputRequiredResult> {
    const client = options.client ?? LOCAL_CLIENT;
    const item = this.resolver.resource(this.source.catalog(), client, params.uri);
    const call = await this.connected(item, 'resource', options);
    return this.relayed(
      call,
      {
        kind: 'resources/read',
        forwarded: { ...withForwardedMeta(params), uri: call.origin.original },
        perform: (forwarded, requestOptions) => call.connection.readResource(forwarded, requestOptions),
        rewrite: rewriteReadResult,
      },
      options,
    );
  }

  /** completion/complete for a prompt argument or a resource template variable. */
  async complete(params: CompleteRequestParams, options: RouteOptions = {}): Promise<CompleteResult> {
    const client = options.client ?? LOCAL_CLIENT;
    const item = this.resolver.completion(this.source.catalog(), client, params.ref);
    const { connection, origin, decision } = await this.connected(item, 'completion target', options);
    if (!connection.capabilities?.completions) return { completion: { values: [] } };
    const audited = { kind: 'completion/complete' as const, client, origin, arguments: params.argument, decision };
    return recordedRequest(this.source.audit, audited, options.signal, () =>
      connection.run(
        'completion/complete',
        ({ signal, sdkTimeoutMs }) =>
          connection.complete({ ...withForwardedMeta(params), ref: item.ref }, { signal, timeout: sdkTimeoutMs() }),
        options.signal,
      ),
    );
  }
}
