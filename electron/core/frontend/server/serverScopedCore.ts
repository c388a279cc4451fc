/**
 * The core as one server's own endpoint (`/servers/<id>/mcp`) sees it: the
 * same front door, narrowed. Lists are each client's view of the merged
 * catalog narrowed to that server under its own names and URIs
 * (serverView.ts); a request's own name or URI is mapped to the merged one and
 * goes down the one request path every endpoint uses (policy, ask approvals,
 * tasks, audit, progress), and its result comes back with the server's own
 * URIs. A name this server does not serve is unknown here, even when another
 * server's tool has it. Notifications are narrowed too: list_changed for
 * prompts and resources only when this server's changed (tools: the
 * fingerprint of the narrowed list decides), this server's logs only, and
 * health counts this server only (a down server: an empty catalog, health
 * `down`).
 */
import {
  ProtocolError,
  type CallToolRequestParams,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/server';
import type { Readiness } from '../../../../shared/model/health.js';
import type { CoreEvents } from '../../api/events.js';
import type {
  CallsService,
  CoreEventSource,
  ExposureService,
  FrontendCore,
  PolicyService,
  SubscriptionsService,
  TasksService,
} from '../../api/services.js';
import { ServerCatalog } from '../../catalog/serverCatalog.js';
import { readinessOf } from '../../backends/supervisor/backendPool.js';
import type { ClientView } from '../../catalog/policy/policyEngine.js';
import { LOCAL_CLIENT } from '../../platform/config/policyConfig.js';
import type { UpdateSink } from '../relay/coalescingSink.js';
import { unknownItem } from '../routing/protocolErrors.js';
import type { ProxyTask } from '../tasks/proxyTask.js';
import { narrowView, ownPromptResult, ownReadResult, ownToolResult, type ServerClientView } from './serverView.js';

/** Runs a request under the merged name of an own tool or prompt name (see serverScopedCore). */
type ViaMerged = <R>(kind: 'tools' | 'prompts', name: string, request: (merged: string) => Promise<R>) => Promise<R>;

/** The narrowed views, cached per merged view (the policy engine makes a new one on every change). */
type ViewCache = WeakMap<ClientView, ServerClientView>;

/** The core narrowed to the server `backendId`; see the module comment. */
export function serverScopedCore(core: FrontendCore, backendId: string): FrontendCore {
  let scope: ServerCatalog | undefined;
  const views: ViewCache = new WeakMap();
  const scoped = (): ServerCatalog => {
    const merged = core.catalog();
    if (scope?.merged !== merged) {
      const separator = core.backends.proxyOptions().separator;
      scope = new ServerCatalog(backendId, merged, core.catalogInput(backendId), separator);
    }
    return scope;
  };
  const view = (client: string): ServerClientView => {
    const current = scoped();
    const merged = core.policy.view(client, current.merged);
    let narrowed = views.get(merged);
    if (!narrowed) {
      const budget = client === LOCAL_CLIENT ? undefined : core.policy.current.clients[client]?.maxNameLength;
      narrowed = narrowView(merged, core.tasks.listed(merged.tools), current, budget);
      views.set(merged, narrowed);
    }
    return narrowed;
  };
  /**
   * Runs `request` with the merged name of one of this server's tools or
   * prompts; an unknown name (or one the policy hides, which answers alike)
   * is answered under the name the client used.
   */
  const merged: ViaMerged = async (kind, name, request) => {
    const noun = kind === 'tools' ? 'tool' : 'prompt';
    const found = scoped().mergedName(kind, name);
    if (found === undefined) throw unknownItem(noun, name);
    return request(found).catch((error: unknown) => {
      const unknown = error instanceof ProtocolError && error.message.endsWith(`${noun}: ${found}`);
      throw unknown ? unknownItem(noun, name) : error;
    });
  };
  const ownResult = <R>(result: R): R => ownToolResult(scoped(), result as Partial<CallToolResult>) as R;
  const own = {
    catalog: () => scoped().own,
    policy: scopedPolicy(core.policy, view),
    exposure: scopedExposure(core.exposure, view),
    router: scopedRouter(core.router, scoped, merged),
    tasks: scopedTasks(core.tasks, backendId, merged, ownResult),
    subscriptions: scopedSubscriptions(core.subscriptions, scoped),
    events: scopedEvents(core, backendId, scoped),
    backends: narrowed(core.backends, { readiness: () => serverReadiness(core, backendId) }),
  };
  // Everything else (sessions, profiles, grace, deps ...) is the core's own.
  return narrowed<FrontendCore>(core, own);
}

/** `target` with some members replaced; the rest are its own, methods bound to it. */
function narrowed<T extends object>(target: T, overrides: Partial<T>): T {
  return new Proxy(target, {
    get: (inner, key) => {
      if (key in overrides) return overrides[key as keyof T];
      const value = Reflect.get(inner, key, inner) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(inner) : value;
    },
  });
}

/** The policy service whose `view` is the narrowed one (the frontend server reads its aliases, prompts, resources). */
function scopedPolicy(policy: PolicyService, view: (client: string) => ServerClientView): PolicyService {
  return narrowed(policy, { view: (client: string) => view(client) });
}

/** Every tool the client may use on this server, listed; no search mode. */
function scopedExposure(exposure: ExposureService, view: (client: string) => ServerClientView): ExposureService {
  const list = (client: string): Tool[] => view(client).tools;
  return {
    mode: () => 'all',
    list,
    fingerprint: (client) => view(client).fingerprint,
    reachable: (client) => list(client).length,
    search: () => [],
    searchSkills: () => [],
    counted: () => undefined,
    visible: () => undefined,
    metaToolsFor: () => [],
    describe: () => [],
    load: () => false,
    runsCode: () => false,
    codeTools: () => undefined,
    suspendedRuns: exposure.suspendedRuns,
    profiles: exposure.profiles,
    profileFingerprint: (client) => view(client).fingerprint,
    shadowed: () => [],
  };
}

/** Prompts, reads and completions under own names and URIs. */
function scopedRouter(router: CallsService, scoped: () => ServerCatalog, merged: ViaMerged): CallsService {
  return {
    callTool: async (params, options) =>
      ownToolResult(
        scoped(),
        await merged('tools', params.name, (name) => router.callTool({ ...params, name }, options)),
      ),
    getPrompt: async (params, options) =>
      ownPromptResult(
        scoped(),
        await merged('prompts', params.name, (name) => router.getPrompt({ ...params, name }, options)),
      ),
    // An unknown own name passes here and is refused as unknown by callTool.
    limitTool: (params, options) => {
      const name = scoped().mergedName('tools', params.name);
      return name === undefined ? undefined : router.limitTool({ ...params, name }, options);
    },
    readResource: async (params, options) =>
      ownReadResult(scoped(), await router.readResource({ ...params, uri: scoped().advertised(params.uri) }, options)),
    complete: (params, options) => {
      const { ref } = params;
      if (ref.type !== 'ref/prompt')
        return router.complete({ ...params, ref: { ...ref, uri: scoped().advertised(ref.uri) } }, options);
      return merged('prompts', ref.name, (name) => router.complete({ ...params, ref: { ...ref, name } }, options));
    },
    // A server's own endpoint lists no skills (their URIs are the merged catalog's): every one is unknown here.
    getSkill: (uri) => Promise.reject(unknownItem('skill', uri)),
    readSkillDirectory: (uri) => Promise.reject(unknownItem('resource', uri)),
  };
}

/** Task calls under own names; results with own URIs; a listing of this server's tasks only. */
function scopedTasks(
  tasks: TasksService,
  backendId: string,
  merged: ViaMerged,
  ownResult: <R>(result: R) => R,
): TasksService {
  const call = <R>(params: CallToolRequestParams, request: (params: CallToolRequestParams) => Promise<R>) =>
    merged('tools', params.name, (name) => request({ ...params, name }));
  const ownTask = (task: ProxyTask): ProxyTask => {
    const outcome = task.outcome;
    return outcome && 'result' in outcome ? { ...task, outcome: { result: ownResult(outcome.result) } } : task;
  };
  return narrowed<TasksService>(tasks, {
    create: (params: CallToolRequestParams, ttl: unknown, options: Parameters<TasksService['create']>[2]) =>
      call(params, (named) => tasks.create(named, ttl, options)),
    open: async (params: CallToolRequestParams, ttl: unknown, options: Parameters<TasksService['open']>[2]) => {
      const opened = await call(params, (named) => tasks.open(named, ttl, options));
      return 'result' in opened ? { result: ownResult(opened.result) } : opened;
    },
    callPlainly: async (params: CallToolRequestParams, options: Parameters<TasksService['callPlainly']>[1]) =>
      ownResult(await call(params, (named) => tasks.callPlainly(named, options))),
    result: async (taskId: string, options: Parameters<TasksService['result']>[1]) =>
      ownResult(await tasks.result(taskId, options)),
    detail: async (taskId: string, client: string, signal?: AbortSignal) => {
      const detail = await tasks.detail(taskId, client, signal);
      return { ...detail, task: ownTask(detail.task) };
    },
    // tools/list is already listed with each tool's task support (serverScopedCore's view).
    listed: (tools: Tool[]) => tools,
    // This server's tasks only (a page may then hold fewer; its cursor goes on as it is).
    list: async (client: string, cursor?: string) => {
      const page = await tasks.list(client, cursor);
      return { ...page, tasks: page.tasks.filter((task) => task.backendId === backendId) };
    },
  });
}

/** Subscriptions to this server's own URIs; each update reaches its sink under the own URI. */
function scopedSubscriptions(hub: SubscriptionsService, scoped: () => ServerCatalog): SubscriptionsService {
  const sinks = new WeakMap<UpdateSink, UpdateSink>();
  const wrapped = (sink: UpdateSink): UpdateSink => {
    let inner = sinks.get(sink);
    if (!inner) {
      const deliver = (uri: string, caller?: string) => sink.deliver(scoped().ownUri(uri) ?? uri, caller);
      inner = { id: sink.id, client: sink.client, caller: sink.caller, deliver };
      sinks.set(sink, inner);
    }
    return inner;
  };
  const advertised = (uri: string): string => scoped().advertised(uri);
  return {
    validate: (uri, client) => hub.validate(advertised(uri), client),
    attach: (sink, uri) => hub.attach(wrapped(sink), advertised(uri)),
    attachAll: (sink, uris) => hub.attachAll(wrapped(sink), uris.map(advertised)),
    detach: (sink, uri) => hub.detach(wrapped(sink), advertised(uri)),
    detachAll: (sink) => hub.detachAll(wrapped(sink)),
  };
}

/**
 * The core's events as this endpoint hears them: catalogChanged says prompts
 * or resources changed only when this server's did or the policy moved; logs
 * of this server only.
 */
function scopedEvents(core: FrontendCore, backendId: string, scoped: () => ServerCatalog): CoreEventSource {
  const signature = () => {
    const { own } = scoped();
    return {
      policy: core.policy.current,
      prompts: JSON.stringify(own.prompts),
      resources: JSON.stringify([own.resources, own.resourceTemplates]),
    };
  };
  return {
    on<K extends keyof CoreEvents>(event: K, listener: (payload: CoreEvents[K]) => void): () => void {
      if (event === 'backendLog') {
        return core.events.on('backendLog', (payload) => {
          if (payload.backendId === backendId) listener(payload as CoreEvents[K]);
        });
      }
      if (event !== 'catalogChanged') return core.events.on(event, listener);
      let before = signature();
      return core.events.on('catalogChanged', (changed) => {
        const after = signature();
        const policyMoved = after.policy !== before.policy;
        const narrowed = {
          tools: changed.tools,
          prompts: changed.prompts && (policyMoved || after.prompts !== before.prompts),
          resources: changed.resources && (policyMoved || after.resources !== before.resources),
        };
        before = after;
        if (narrowed.tools || narrowed.prompts || narrowed.resources) listener(narrowed as CoreEvents[K]);
      });
    },
  };
}

/** Readiness of this one server (proxy/health on its endpoint): a server with no health yet is not ready. */
function serverReadiness(core: FrontendCore, backendId: string): Readiness {
  const health = core.backends.health().find((backend) => backend.id === backendId);
  if (!health) return { ...readinessOf([]), ready: false };
  // Its endpoint serves only an enabled server (any other is 404).
  return readinessOf([{ status: health.status, enabled: true, settled: health.settled ?? true }]);
}
