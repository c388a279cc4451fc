/**
 * The MCP server a frontend talks to. It is a low-level SDK `Server` whose
 * handlers answer lists from the core's catalog snapshot (no round trip to the
 * backends) and route everything else through the router. One instance serves
 * one 2025-era session or one 2026-07-28 request.
 */
import type { CallToolRequestParams, CallToolResult, Server, ServerContext } from '@modelcontextprotocol/server';
import { VERSION } from '../../../../shared/version.js';
import { LoadedTools } from '../exposure/loadedTools.js';
import { describeTools, metaToolOf, searchTools, unwrapCall, type SearchSession } from '../exposure/metaToolCalls.js';
import { argumentsError } from '../exposure/callArguments.js';
import { runCode, type DirectCall } from '../exposure/code/codeRun.js';
import { rememberToolList, toolListChanged } from './listTracking.js';
import { logShadowedTools } from '../exposure/shadowedTools.js';
import { LOCAL_CLIENT } from '../../platform/config/policyConfig.js';
import { frontendChannel, requestEra } from '../relay/frontendChannel.js';
import { requestFlow } from '../relay/requestFlow.js';
import { SHIM_MAX_ROUNDS } from '../relay/inputRelay.js';
import { afterProgress, progressRelay } from '../routing/forwarding.js';
import { EXTENSION_CAPABILITY, registerHealthMethod } from './healthMethod.js';
import { countHttpSessions } from '../../../../shared/model/sessionCount.js';
import { relayable } from './responseGuard.js';
import { registerSubscriptionHandlers } from './legacySubscriptionMethods.js';
import { isTaskRequest, registerTaskHandlers, TASKS_CAPABILITY, TaskAwareServer } from './legacyTaskMethods.js';
import { createTaskResult, declaresTasks, TASKS_EXTENSION_ID } from './taskMethods.js';
import type { FrontendCore } from '../../api/services.js';
import type { CoreEvents } from '../../api/events.js';
import type { Principal } from '../../catalog/policy/principal.js';
import { callerIdentityOf, callerKey } from '../../catalog/policy/callerIdentity.js';
import { checkToolScopes, toolsWithinScopes } from './scopeGate.js';
import { declaresSkills, registerSkillMethods, skillsCapability } from './skillMethods.js';

/**
 * How long a 2026-07-28 client may keep a list result (tools, prompts, resources, templates) and
 * for whom: not at all, and for the caller only (`private`: a list holds what the caller's profile
 * may use). The catalog changes whenever a rule, a review or a server does, and a client that kept
 * a list (the SDK client keeps it for its `ttlMs`) would still offer a tool just denied; a client
 * that listens (`subscriptions/listen`) is told of each change anyway.
 */
const LIST_CACHE = { ttlMs: 0, cacheScope: 'private' } as const;

/** Identity of the proxy as an MCP server. */
export const SERVER_INFO = { name: 'mcp-switchboard', version: VERSION };

/** What the merged endpoint tells the model about names and URIs. */
export const INSTRUCTIONS =
  'MCP Switchboard serves the tools, prompts and resources of several MCP servers. ' +
  'Tool and prompt names start with the name of the server they come from; resource URIs ' +
  'have the form mcp-proxy://<server>/<original URI>.';

/** What one server's own endpoint (`/servers/<id>/mcp`) tells the model: its names and URIs are the server's own. */
export function serverInstructions(backendId: string): string {
  return (
    `MCP Switchboard serves the tools, prompts and resources of the MCP server "${backendId}" under ` +
    'their own names and URIs.'
  );
}

/**
 * Builds a frontend server instance over the core, for one client profile:
 * its lists are that client's view of the catalog, and every request is
 * authorized for it. `scope` says what holds the tools `search+load` adds:
 * the instance itself (a 2025-era session, a stdio connection) or, for
 * 2026-07-28 requests over HTTP (one instance per request), the profile.
 * In gateway mode `principal` is the signed-in caller: tools their token has
 * no scope for are not listed nor called (scopeGate.ts), and every routed
 * request names them (audit, `ask`).
 */
export function createFrontendServer(
  core: FrontendCore,
  client: string = LOCAL_CLIENT,
  scope: 'session' | 'profile' = 'session',
  principal?: Principal,
  instructions: string = INSTRUCTIONS,
): Server {
  const skills = skillsCapability(core);
  const server = new TaskAwareServer(SERVER_INFO, {
    capabilities: {
      tools: { listChanged: true },
      // 2025-11-25 tasks (the 2026-07-28 codec leaves this out of a modern answer).
      tasks: TASKS_CAPABILITY,
      prompts: { listChanged: true },
      resources: { listChanged: true, subscribe: true },
      completions: {},
      logging: {},
      // 2026-07-28 tasks (io.modelcontextprotocol/tasks): shown in server/discover.
      // io.modelcontextprotocol/skills, while a backend declares it (skillMethods.ts).
      extensions: { ...EXTENSION_CAPABILITY, [TASKS_EXTENSION_ID]: {}, ...skills },
    },
    instructions,
    // A person answers each round the shim puts to a 2025 client: give them the input timeout.
    inputRequired: { maxRounds: SHIM_MAX_ROUNDS, roundTimeoutMs: core.backends.proxyOptions().inputTimeoutMs },
  });
  const { router, exposure } = core;
  const { logger } = core.deps;
  // A result that cannot be serialized again becomes an error the caller sees (responseGuard.ts).
  const checked =
    <R>(what: string) =>
    (result: R) =>
      relayable(result, what, logger);
  server.onerror = (error) => logger.warn(`frontend: ${error.message}`);
  const view = () => core.policy.view(client, core.catalog());
  const loaded = scope === 'profile' ? exposure.profiles.of(client) : new LoadedTools();
  const session: SearchSession = {
    loaded,
    relists: () => scope === 'session' || exposure.profiles.listening(client),
    listChanged: () =>
      scope === 'profile' ? exposure.profiles.changed(client) : void notifyListChanged(core, server, TOOLS_ONLY),
  };
  clients.set(server, { client, loaded });
  rememberToolList(server, exposure.fingerprint(client, loaded));
  // During the startup grace a list waits for backends on their first attempt (see startupGrace.ts).
  // A 2026-07-28 list result says how long it may be cached and for whom (LIST_CACHE).
  const listed =
    <R extends object>(answer: () => R) =>
    (_request: unknown, ctx: ServerContext): R | Promise<R> => {
      const cached = requestEra(ctx) === 'modern' ? (result: R): R => ({ ...result, ...LIST_CACHE }) : undefined;
      const waiting = core.grace.wait(ctx.mcpReq.signal);
      if (waiting) return waiting.then(() => (cached ? cached(answer()) : answer()));
      return cached ? cached(answer()) : answer();
    };
  server.setRequestHandler(
    'tools/list',
    listed(() => {
      logShadowedTools(logger, client, exposure.shadowed(client));
      rememberToolList(server, exposure.fingerprint(client, loaded));
      return { tools: core.tasks.listed(toolsWithinScopes(core, client, principal, exposure.list(client, loaded))) };
    }),
  );
  server.setRequestHandler(
    'prompts/list',
    listed(() => ({ prompts: view().prompts })),
  );
  server.setRequestHandler(
    'resources/list',
    listed(() => ({ resources: view().resources })),
  );
  server.setRequestHandler(
    'resources/templates/list',
    listed(() => ({ resourceTemplates: view().resourceTemplates })),
  );
  // A client with a name budget calls shortened names: map them back first.
  const named = <P extends { name: string }>(params: P): P => {
    const name = view().aliases.get(params.name);
    return name === undefined ? params : { ...params, name };
  };
  server.setRequestHandler('tools/call', (request, ctx) => {
    // Search mode: search_tools answers here; call_tool is the direct call it names, on the same path.
    const meta = metaToolOf(exposure, client, request.params.name);
    if (meta === 'search')
      // Skills are found too for a client that takes them, while a backend serves them.
      return searchTools(
        exposure,
        client,
        request.params.arguments,
        session,
        skills !== undefined && declaresSkills(server, ctx),
      );
    if (meta === 'code') {
      // Code mode: each call of the program is a direct call below (policy, ask, limits, audit naming the run).
      const frontend = frontendChannel(server, ctx);
      // A 2026-07-28 retry's answers belong to run_code itself, never to the program's calls.
      const programFrontend = { ...frontend, inputResponses: undefined, requestState: undefined };
      const direct: DirectCall = (inner, { signal, run, answers }) => {
        const params = named(inner);
        checkToolScopes(core, client, principal, params.name);
        const options = {
          client,
          principal,
          signal,
          frontend: answers ? { ...frontend, ...answers } : programFrontend,
          run,
        };
        const call = () => core.tasks.callPlainly(params, options);
        const gate = router.limitTool(params, options);
        return gate ? gate.then(call) : call();
      };
      const caller = {
        owner: principal ? `${client}\u0000${principal.subject}` : client,
        retry:
          frontend.era === 'modern'
            ? { inputResponses: frontend.inputResponses, requestState: frontend.requestState }
            : undefined,
      };
      return runCode(
        exposure.codeTools(client)!,
        request.params.arguments,
        direct,
        ctx.mcpReq.signal,
        caller,
        exposure.suspendedRuns,
      );
    }
    if (meta === 'describe') return describeTools(exposure, client, request.params.arguments);
    const unwrapped = meta === 'call' ? unwrapCall(request.params) : request.params;
    if (meta === 'call') {
      // Arguments that do not fit answer with what was wrong and the schema (the model saw a compact form).
      const tool = exposure.visible(client, unwrapped.name);
      const wrong = tool && argumentsError(tool, unwrapped.arguments);
      if (wrong) return wrong;
    }
    const params = named(unwrapped);
    checkToolScopes(core, client, principal, params.name);
    loaded.touch(params.name);
    exposure.counted(client, params.name);
    // Past its rate limits: made as a task, or routed as a call (tasks/ decides which).
    const routeCall = () => {
      const onProgress = progressRelay(
        request.params._meta?.progressToken,
        (notification) => ctx.mcpReq.notify(notification as Parameters<typeof ctx.mcpReq.notify>[0]),
        requestFlow.getStore(),
      );
      // `task` never goes upstream as it came: a task call is ours to make (core/tasks).
      const { task: _task, ...plain } = params as CallToolRequestParams & { task?: unknown };
      const frontend = frontendChannel(server, ctx);
      if (frontend.era === 'legacy' && isTaskRequest(request)) {
        const ttl = (request.params as { task?: { ttl?: unknown } }).task?.ttl;
        const options = { client, principal, signal: ctx.mcpReq.signal, frontend, onProgress };
        // The SDK's typed result is CallToolResult; TaskAwareServer relays this CreateTaskResult as it is.
        return core.tasks.create(plain, ttl, options) as unknown as Promise<CallToolResult>;
      }
      if (declaresTasks(ctx)) {
        // 2026-07-28 with the tasks extension declared: the call may become a task (taskMethods.ts).
        const options = { client, principal, signal: ctx.mcpReq.signal, frontend, onProgress };
        return core.tasks
          .open(plain, undefined, options)
          .then((opened) =>
            'result' in opened
              ? checked<CallToolResult>(`tools/call ${params.name}`)(opened.result as CallToolResult)
              : (createTaskResult(opened) as unknown as CallToolResult),
          );
      }
      // A task-only tool called plainly by a 2026 client runs as its server's task (tasks/plainTaskCall.ts).
      return core.tasks
        .callPlainly(plain, { signal: ctx.mcpReq.signal, onProgress, frontend, client, principal })
        .then((result) => afterProgress(onProgress, result))
        .then(checked(`tools/call ${params.name}`));
    };
    // Rate limits are taken once per client request, however it is then routed (routing/limitGate.ts).
    const gate = router.limitTool(params, { client, principal });
    return gate ? gate.then(routeCall) : routeCall();
  });
  server.setRequestHandler('prompts/get', (request, ctx) =>
    router
      .getPrompt(named(request.params), {
        signal: ctx.mcpReq.signal,
        frontend: frontendChannel(server, ctx),
        client,
        principal,
      })
      .then(checked(`prompts/get ${request.params.name}`)),
  );
  server.setRequestHandler('resources/read', (request, ctx) =>
    router
      .readResource(request.params, {
        signal: ctx.mcpReq.signal,
        frontend: frontendChannel(server, ctx),
        client,
        principal,
      })
      .then(checked(`resources/read ${request.params.uri}`)),
  );
  server.setRequestHandler('completion/complete', (request, ctx) =>
    router
      .complete(
        request.params.ref.type === 'ref/prompt'
          ? { ...request.params, ref: named(request.params.ref) }
          : request.params,
        { signal: ctx.mcpReq.signal, client, principal },
      )
      .then(checked('completion/complete')),
  );
  if (skills) registerSkillMethods(server, core, client, principal, core.catalog().skillDirectoryBackends.size > 0);
  registerSubscriptionHandlers(server, core.subscriptions, client, () =>
    callerKey(callerIdentityOf({ client, principal })),
  );
  registerTaskHandlers(server, core, client);
  registerHealthMethod(
    server,
    () => core.backends.readiness(),
    () => countHttpSessions(core.sessions.list()),
  );
  return server;
}

/** The client profile each frontend instance serves, and the tools its searches loaded. */
const clients = new WeakMap<Server, { client: string; loaded: LoadedTools }>();

/** The client profile a frontend instance serves. */
export function servedClient(server: Server): string {
  return clients.get(server)?.client ?? LOCAL_CLIENT;
}

const TOOLS_ONLY = { tools: true, prompts: false, resources: false };

/**
 * Sends the list-changed notifications a catalog change calls for to one
 * connected instance: tools only when that client's own tools/list changed.
 */
export async function notifyListChanged(
  core: FrontendCore,
  server: Server,
  changed: { tools: boolean; prompts: boolean; resources: boolean },
): Promise<void> {
  const sends: Promise<void>[] = [];
  const { client, loaded } = clients.get(server) ?? { client: LOCAL_CLIENT, loaded: undefined };
  if (changed.tools && toolListChanged(server, core.exposure.fingerprint(client, loaded)))
    sends.push(server.sendToolListChanged());
  if (changed.prompts) sends.push(server.sendPromptListChanged());
  if (changed.resources) sends.push(server.sendResourceListChanged());
  await Promise.allSettled(sends);
}

/**
 * Forwards a backend's log message to one 2025-era frontend, naming the
 * backend in `logger`. (2026-07-28 has no unsolicited log channel: logs only
 * travel inside a request's own stream.)
 */
export async function forwardBackendLog(
  server: Server,
  event: CoreEvents['backendLog'],
  sessionId?: string,
): Promise<void> {
  const { backendId, params } = event;
  const logger = params.logger ? `${backendId}/${params.logger}` : backendId;
  await server.sendLoggingMessage({ ...params, logger }, sessionId).catch(() => undefined);
}
