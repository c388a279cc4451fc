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
  Resource,
} from '@modelcontextprotocol/server';
import { isInputRequiredResult, ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { rewriteArguments } from '../../catalog/overrides/callArguments.js';
import { promptArguments, promptAsToolResult, readAsToolResult } from '../../catalog/overrides/asToolResults.js';
import type { BackendConnection } from '../../backends/connection/backendConnection.js';
import type { BackendPool } from '../../backends/supervisor/backendPool.js';
import type { Catalog } from '../../catalog/catalog.js';
import { rewritePromptResult, rewriteReadResult, rewriteToolResult } from '../../catalog/rewrite.js';
import { relayRequest, type PerformOptions, type RelayHost } from '../relay/inputRelay.js';
import { LOCAL_CLIENT } from '../../platform/config/policyConfig.js';
import type { AuditEntry, AuditKind } from '../../catalog/policy/auditLog.js';
import { askApproval, type ApprovalHost } from './askApproval.js';
import { withForwardedMeta } from './forwarding.js';
import { signInAnswer, unknownItem, withheldItem } from './protocolErrors.js';
import type { AccessControl } from '../../catalog/policy/accessControl.js';
import type { Principal } from '../../catalog/policy/principal.js';
import { ItemResolver, type Resolution } from './resolution.js';
import { recordDenied, recordedRequest } from './routeAudit.js';
import type { RouteOptions } from './routeOptions.js';
import type { BackendCall, Observability } from '../../platform/observability/observability.js';
import { callerIdentityOf, callerKey } from '../../catalog/policy/callerIdentity.js';
import { passLimits, type LimitHost } from './limitGate.js';
import type { Skill } from '@modelcontextprotocol/client/ext/skills';
import { advertisedSkill, moved } from '../../catalog/skills.js';

export type { RouteOptions } from './routeOptions.js';

/** What the router needs from the core. */
export interface RouterSource extends RelayHost, ApprovalHost, Omit<LimitHost, 'audit'> {
  catalog(): Catalog;
  /** The backends' connections: the owner's is waited for while it starts (cached catalog, on demand). */
  pool: Pick<BackendPool, 'connectionFor'>;
  /** The policy's decision for one item of the given snapshot. */
  /**
   * The policy: its decision for one item of a given snapshot (AccessControl.decide), and the
   * tool overrides in force for a client (absent: none apply).
   */
  access: Pick<AccessControl, 'decide'> & Partial<Pick<AccessControl, 'toolOverride' | 'clientToolName'>>;
  /** Records one request in the audit log (the core drops arguments and results unless capture is on). */
  audit?(entry: AuditEntry): void;
  /** Runs each call to a backend in its trace span (absent: observability is off). */
  backendCall?: Observability['backendCall'];
}

/** A resolved item with the connection of its owner: everything a request needs to be made. */
export interface ResolvedCall extends Resolution {
  connection: BackendConnection;
  /**
   * resolveToolCall: an override applies to this client's call (its arguments are rewritten or it is
   * a prompt or resource offered as a tool), so it must go through callTool, never straight upstream.
   */
  overridden?: boolean;
}

/** One relayed request: its audit kind, params for the backend, how to make it and how to rewrite its result. */
interface RelayedCall<P extends { _meta?: Record<string, unknown> | undefined }, R> {
  kind: AuditKind;
  /** The name the client called, when an override makes it differ from the original (for the log). */
  exposed?: string | undefined;
  arguments?: unknown;
  forwarded: P;
  perform(params: P, options: PerformOptions): Promise<R | InputRequiredResult>;
  rewrite(catalog: Catalog, backendId: string, result: R): R;
}

/** A tools/call's arguments after its overrides, and the client's name of the tool when an override applies. */
interface OverriddenCall {
  arguments: Record<string, unknown> | undefined;
  exposed: string | undefined;
}

/**
 * The request a tools/call makes upstream: the tool itself, or for a prompt or
 * resource offered as a tool, prompts/get or resources/read with its answer
 * as tool content.
 */
function toolRequest(
  call: ResolvedCall,
  params: CallToolRequestParams,
  overridden: OverriddenCall,
): RelayedCall<{ _meta?: Record<string, unknown> | undefined }, CallToolResult> {
  const base = {
    kind: 'tools/call' as const,
    exposed: overridden.exposed,
    arguments: overridden.arguments,
    rewrite: rewriteToolResult,
  };
  const { _meta } = withForwardedMeta(params);
  const meta = _meta === undefined ? {} : { _meta };
  const { via, original } = call.origin;
  if (via === 'prompt') {
    return {
      ...base,
      forwarded: {
        ...meta,
        name: original,
        arguments: promptArguments(overridden.arguments),
      } as GetPromptRequestParams,
      perform: async (forwarded, requestOptions) => {
        const result = await call.connection.getPrompt(forwarded as GetPromptRequestParams, requestOptions);
        return isInputRequiredResult(result) ? result : promptAsToolResult(result);
      },
    };
  }
  if (via === 'resource') {
    return {
      ...base,
      forwarded: { ...meta, uri: original } as ReadResourceRequestParams,
      perform: async (forwarded, requestOptions) => {
        const result = await call.connection.readResource(forwarded as ReadResourceRequestParams, requestOptions);
        return isInputRequiredResult(result) ? result : readAsToolResult(result);
      },
    };
  }
  const forwarded: CallToolRequestParams = { ...withForwardedMeta(params), name: original };
  if (overridden.arguments !== undefined) forwarded.arguments = overridden.arguments;
  return {
    ...base,
    forwarded,
    perform: (request, requestOptions) =>
      call.connection.callTool(request as CallToolRequestParams, { ...requestOptions, tool: call.tool }),
  };
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
    const caller = callerKey(options.caller ?? callerIdentityOf({ ...options, client: item.client }));
    let connection: BackendConnection | undefined;
    try {
      // Who a sign-in link is for (kept with their tokens for administrators): read only when one is made.
      const principal = options.caller?.principal;
      const person = principal && (principal.email ?? principal.subject);
      connection = await this.source.pool.connectionFor(item.origin.backendId, options.signal, caller, person);
    } catch (error) {
      throw signInAnswer(error, options.frontend);
    }
    if (!connection) throw unknownItem(kind, item.exposed);
    return { ...item, connection };
  }

  /** An item found and allowed, else the audit's `denied` and the answer to an unknown item. */
  private allowed(
    item: Resolution | undefined,
    kind: AuditKind,
    noun: string,
    name: string,
    options: RouteOptions,
  ): Resolution {
    if (!item) throw unknownItem(noun, name);
    if (item.rule === 'deny') {
      const { client, origin, decision } = item;
      recordDenied(this.source.audit, {
        kind,
        client,
        origin,
        decision,
        principal: options.principal,
        run: options.run,
      });
      if (decision.source === 'quarantined' || decision.source === 'held')
        throw withheldItem(noun, name, origin.backendId, decision.source);
      throw unknownItem(noun, name);
    }
    return item;
  }

  /** Runs a call to the owner of `call` as observed (a trace span), or as it is when observability is off. */
  private observed<T>(call: Pick<Resolution, 'origin' | 'client'>, kind: string, run: () => Promise<T>): Promise<T> {
    const backendCall = this.source.backendCall;
    if (!backendCall) return run();
    // The seam for principals: laptop mode knows the client profile only; the gateway passes a person.
    const observedCall: BackendCall = {
      server: call.origin.backendId,
      kind,
      item: call.origin.original,
      principal: { kind: 'client', id: call.client },
    };
    return backendCall(observedCall, run);
  }

  /** The rate-limit gate for a resolved item (limitGate.ts): undefined at once when no limit applies. */
  private limited(item: Resolution, kind: AuditKind, options: RouteOptions): Promise<void> | undefined {
    const caller = callerIdentityOf(options);
    const call = {
      kind,
      client: item.client,
      principal: options.principal,
      origin: item.origin,
      decision: item.decision,
      run: options.run,
    };
    return passLimits(this.source, caller, call, item.exposed);
  }

  /**
   * A tools/call's rate limits, taken once per client request before it is
   * routed (as a call, a task or a search mode call_tool): rejects with the
   * retryable `rate_limited` error when one refuses. An unknown or denied
   * tool passes here and gets its usual answer on the way.
   */
  limitTool(params: CallToolRequestParams, options: RouteOptions = {}): Promise<void> | undefined {
    if (!this.source.limits) return undefined;
    const client = options.client ?? LOCAL_CLIENT;
    const item = this.resolver.tool(this.source.catalog(), client, params.name);
    if (!item || item.rule === 'deny') return undefined;
    return this.limited(item, 'tools/call', options);
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
      exposed: request.exposed,
      arguments: request.arguments,
      decision: call.decision,
      principal: options.principal,
      run: options.run,
    };
    return recordedRequest(this.source.audit, audited, options.signal, async () => {
      const result = await this.observed(call, request.kind, () =>
        relayRequest(
          this.source,
          {
            connection: call.connection,
            label: `${request.kind} ${call.origin.original}`,
            binding: `${request.kind} ${call.exposed}`,
            params: request.forwarded,
            perform: request.perform,
          },
          options,
        ),
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
    const call = await this.connected(this.allowed(item, 'tools/call', 'tool', params.name, options), 'tool', options);
    const overridden = this.overridden(call, params, options.principal, options.run);
    if (call.rule === 'ask') {
      const approval = await askApproval(this.source, { ...call, arguments: overridden.arguments }, options);
      if (approval.kind === 'input') return approval.result;
      if (approval.kind === 'refused') {
        const { origin, decision } = call;
        const refused = {
          kind: 'tools/call' as const,
          client,
          origin,
          decision,
          principal: options.principal,
          run: options.run,
        };
        recordDenied(this.source.audit, { ...refused, exposed: overridden.exposed }, approval.text);
        return { content: [{ type: 'text', text: approval.text }], isError: true };
      }
      options = { ...options, frontend: approval.frontend };
    }
    return this.relayed(call, toolRequest(call, params, overridden), options);
  }

  /**
   * A call's arguments under the tool's overrides in force for its client
   * (fixed values injected, defaults filled; setting a fixed one is refused,
   * naming it), and the client's name for the log when an override applies.
   */
  private overridden(
    call: ResolvedCall,
    params: CallToolRequestParams,
    principal?: Principal,
    run?: string,
  ): OverriddenCall {
    const override = this.source.access.toolOverride?.(call.client, call.catalog, call.exposed);
    if (!override && call.origin.via === undefined) return { arguments: params.arguments, exposed: undefined };
    const rewritten = rewriteArguments(
      params.arguments,
      override && 'arguments' in override ? override.arguments : undefined,
    );
    const exposed = this.source.access.clientToolName?.(call.client, call.catalog, call.exposed) ?? call.exposed;
    if (!rewritten.ok) {
      const text = `Invalid arguments for tool ${params.name}: "${rewritten.hidden}" is fixed by the configuration and cannot be set`;
      recordDenied(
        this.source.audit,
        {
          kind: 'tools/call',
          client: call.client,
          origin: call.origin,
          exposed,
          decision: call.decision,
          principal,
          run,
        },
        text,
      );
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, text);
    }
    return { arguments: rewritten.arguments, exposed };
  }

  /**
   * A tools/call made as a task (core/tasks): the tool found, allowed (a
   * denied one is recorded and answers as unknown) and its owner connected.
   */
  async resolveToolCall(params: CallToolRequestParams, options: RouteOptions = {}): Promise<ResolvedCall> {
    const client = options.client ?? LOCAL_CLIENT;
    const item = this.resolver.tool(this.source.catalog(), client, params.name);
    const call = await this.connected(this.allowed(item, 'tools/call', 'tool', params.name, options), 'tool', options);
    // A hidden argument set by the client is refused here too; an overridden call runs through callTool.
    const overridden = this.overridden(call, params, options.principal, options.run).exposed !== undefined;
    return overridden ? { ...call, overridden } : call;
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
    const item = this.allowed(
      this.resolver.prompt(this.source.catalog(), client, params.name),
      'prompts/get',
      'prompt',
      params.name,
      options,
    );
    await this.limited(item, 'prompts/get', options);
    const call = await this.connected(item, 'prompt', options);
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
    await this.limited(item, 'resources/read', options);
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

  /**
   * skills/get (SEP-2640): advertised SKILL.md URI -> the owning backend's
   * entry, under advertised URIs. An unknown or denied skill answers -32602,
   * as the extension asks.
   */
  async getSkill(uri: string, options: RouteOptions = {}): Promise<Skill> {
    const client = options.client ?? LOCAL_CLIENT;
    const catalog = this.source.catalog();
    const origin = catalog.skillIndex.get(uri);
    const found = origin && catalog.skillFolders.resolve(uri);
    const decision = origin ? this.source.access.decide(client, catalog, 'skills', uri) : undefined;
    const item: Resolution | undefined =
      origin && found && decision
        ? { catalog, client, exposed: uri, origin, rule: decision.rule, decision }
        : undefined;
    const call = await this.connected(this.allowed(item, 'skills/get', 'skill', uri, options), 'skill', options);
    const original = `${found!.folder.original}/SKILL.md`;
    const audited = { kind: 'skills/get' as const, client, origin: call.origin, decision: call.decision };
    return recordedRequest(this.source.audit, { ...audited, principal: options.principal }, options.signal, () =>
      this.observed(call, 'skills/get', async () => {
        const skill = await call.connection.run(
          'skills/get',
          ({ signal, sdkTimeoutMs }) => call.connection.getSkill(original, { signal, timeout: sdkTimeoutMs() }),
          options.signal,
        );
        return advertisedSkill(found!.folder, skill);
      }),
    );
  }

  /**
   * resources/directory/read of a folder inside a skill (SEP-2640's
   * `directoryRead`): to its owner under the backend's own URI, children
   * under advertised URIs (a child outside the skill's folder is left out).
   * A URI in no skill folder, or of a denied skill, answers -32602.
   */
  async readSkillDirectory(uri: string, options: RouteOptions = {}): Promise<{ resources: Resource[] }> {
    const client = options.client ?? LOCAL_CLIENT;
    const catalog = this.source.catalog();
    const item = this.resolver.skillFile(catalog, client, uri);
    const call = await this.connected(
      this.allowed(item, 'resources/read', 'resource', uri, options),
      'resource',
      options,
    );
    const folder = catalog.skillFolders.resolve(uri)!.folder;
    const audited = { kind: 'resources/read' as const, client, origin: call.origin, decision: call.decision };
    return recordedRequest(this.source.audit, { ...audited, principal: options.principal }, options.signal, () =>
      this.observed(call, 'resources/directory/read', async () => {
        const listing = await call.connection.run(
          'resources/directory/read',
          ({ signal, sdkTimeoutMs }) =>
            call.connection.readSkillDirectory(call.origin.original, { signal, timeout: sdkTimeoutMs() }),
          options.signal,
        );
        const resources = listing.resources.flatMap((child) => {
          const advertised = moved(child.uri, folder.original, folder.advertised);
          return advertised === undefined ? [] : [{ ...child, uri: advertised }];
        });
        return { resources };
      }),
    );
  }

  /** completion/complete for a prompt argument or a resource template variable. */
  async complete(params: CompleteRequestParams, options: RouteOptions = {}): Promise<CompleteResult> {
    const client = options.client ?? LOCAL_CLIENT;
    const item = this.resolver.completion(this.source.catalog(), client, params.ref);
    const { connection, origin, decision } = await this.connected(item, 'completion target', options);
    if (!connection.capabilities?.completions) return { completion: { values: [] } };
    const audited = {
      kind: 'completion/complete' as const,
      client,
      origin,
      arguments: params.argument,
      decision,
      principal: options.principal,
    };
    return recordedRequest(this.source.audit, audited, options.signal, () =>
      this.observed(item, 'completion/complete', () =>
        connection.run(
          'completion/complete',
          ({ signal, sdkTimeoutMs }) =>
            connection.complete({ ...withForwardedMeta(params), ref: item.ref }, { signal, timeout: sdkTimeoutMs() }),
          options.signal,
        ),
      ),
    );
  }
}
