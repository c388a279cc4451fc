/**
 * A 2026-07-28 tasks requester for tests, against any Streamable HTTP endpoint (a fixture
 * direct, or serve): an SDK v2 Client pinned to 2026-07-28 (server/discover, tools/list...),
 * an ext-tasks session on it (`session.callTool` drives create, poll, input, result) whose task
 * traffic goes through `rawDispatch` (tasks2026Wire), and typed one-step wire helpers
 * (createTask, getTask, updateTask, cancelTask, waitForStatus, listen) validated with the
 * extension's V2 schemas, for tests that assert what crosses the wire.
 */
import { Client, StreamableHTTPClientTransport, type ClientCapabilities } from '@modelcontextprotocol/client';
import {
  createTaskSessionFromClient,
  type RawClientDispatch,
  type TaskEnabledSession,
  type WithTasksOptions,
} from '@modelcontextprotocol/ext-tasks/client';
import type { JsonValue } from '@modelcontextprotocol/ext-tasks/core';
import {
  CancelTaskResultV2Schema,
  CreateTaskResultV2Schema,
  GetTaskResultV2Schema,
  UpdateTaskResultV2Schema,
  type CreateTaskResultV2,
  type GetTaskResultV2,
  type InputResponsesV2,
} from '@modelcontextprotocol/ext-tasks/core/v2';
import {
  MODERN_REVISION,
  TASKS_EXTENSION,
  listenTasks,
  postRpc,
  type RpcErrorBody,
  type RpcOutcome,
  type TaskListen,
  type WireTarget,
} from './tasks2026Wire.js';
import { waitUntil } from './processes.js';

export { TASKS_EXTENSION, type RpcOutcome, type TaskListen } from './tasks2026Wire.js';

/** A JSON-RPC error answer, thrown by the typed helpers. */
export class RpcError extends Error {
  constructor(
    readonly method: string,
    readonly body: RpcErrorBody,
    readonly httpStatus: number,
  ) {
    super(`${method}: ${body.code} ${body.message}`);
    this.name = 'RpcError';
  }
  get code(): number {
    return this.body.code;
  }
}

/** How to connect. */
export interface Tasks2026Options extends Omit<WireTarget, 'url'> {
  /** Client capabilities declared in every request's `_meta` (the extension is always added). */
  capabilities?: ClientCapabilities;
  clientInfo?: { name: string; version: string };
  /**
   * Answers input requests of input_required tasks driven by `session.callTool`: gets
   * `{kind: 'elicitation' | 'sampling' | 'roots', params}`, returns the response (for an
   * elicitation `{action, content?}`), which ext-tasks validates and sends with tasks/update.
   */
  onInputRequest?: (request: { kind: string; params?: Record<string, unknown> }) => Promise<unknown>;
}

/** Options of one raw request. */
export interface RpcOptions {
  /** Declare the extension in this request's `_meta` capabilities (default true). */
  declare?: boolean;
  /** Headers replacing the computed ones (e.g. a wrong Mcp-Name). */
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Hears each other message on an SSE answer (progress, logs), before the answer. */
  onMessage?: (message: Record<string, unknown>) => void;
}

/** A connected 2026-07-28 tasks requester. */
export interface Tasks2026Client {
  client: Client;
  /** The ext-tasks session (callTool -> execution.settle() / result() / cancel()). */
  session: TaskEnabledSession;
  /** Whether server/discover declared io.modelcontextprotocol/tasks. */
  serverDeclaresTasks: boolean;
  /** One raw request framed with this client's `_meta` (protocol version, info, capabilities). */
  rpc(method: string, params?: Record<string, unknown>, options?: RpcOptions): Promise<RpcOutcome>;
  /** tools/call that must answer a task (CreateTaskResult, validated). */
  createTask(name: string, args?: Record<string, unknown>): Promise<CreateTaskResultV2>;
  /** tools/call's raw answer, whatever its resultType. */
  callRaw(name: string, args?: Record<string, unknown>, options?: RpcOptions): Promise<RpcOutcome>;
  getTask(taskId: string): Promise<GetTaskResultV2>;
  updateTask(taskId: string, inputResponses: InputResponsesV2): Promise<void>;
  cancelTask(taskId: string): Promise<void>;
  /** Polls tasks/get (at the task's pollIntervalMs) until its status is one of `statuses`. */
  waitForStatus(taskId: string, statuses: string[], timeoutMs?: number): Promise<GetTaskResultV2>;
  /** Opens subscriptions/listen for these tasks' status notifications. */
  listen(taskIds: string[]): Promise<TaskListen>;
  close(): Promise<void>;
}

const META = {
  version: 'io.modelcontextprotocol/protocolVersion',
  info: 'io.modelcontextprotocol/clientInfo',
  capabilities: 'io.modelcontextprotocol/clientCapabilities',
} as const;

function ok<T>(method: string, outcome: RpcOutcome, schema: { parse(value: unknown): T }): T {
  if (outcome.kind === 'error') throw new RpcError(method, outcome.error, outcome.httpStatus);
  return schema.parse(outcome.result);
}

/** Connects to `url` as a 2026-07-28 client that declares the tasks extension. */
export async function connectTasks2026(url: string, options: Tasks2026Options = {}): Promise<Tasks2026Client> {
  const target: WireTarget = { url, headers: options.headers, timeoutMs: options.timeoutMs };
  const clientInfo = options.clientInfo ?? { name: 'tasks2026-test', version: '1.0.0' };
  const baseCapabilities = options.capabilities ?? {};
  const withExtension = (declare: boolean): Record<string, unknown> => {
    const { extensions, ...rest } = baseCapabilities as ClientCapabilities & { extensions?: Record<string, unknown> };
    const others = { ...extensions };
    delete others[TASKS_EXTENSION];
    const all = declare ? { ...others, [TASKS_EXTENSION]: {} } : others;
    return Object.keys(all).length > 0 ? { ...rest, extensions: all } : rest;
  };
  const frame = (params: Record<string, unknown> = {}, declare = true): Record<string, unknown> => ({
    ...params,
    _meta: {
      ...(params._meta as Record<string, unknown> | undefined),
      [META.version]: MODERN_REVISION,
      [META.info]: clientInfo,
      [META.capabilities]: withExtension(declare),
    },
  });

  const client = new Client(clientInfo, {
    capabilities: baseCapabilities,
    versionNegotiation: { mode: { pin: MODERN_REVISION } },
  });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: options.headers } }));
  const extension = (client.getServerCapabilities() as { extensions?: Record<string, unknown> } | undefined)
    ?.extensions?.[TASKS_EXTENSION];

  // ext-tasks frames _meta itself on what it sends here (frameV2TaskRequest); the headers it
  // passes (Mcp-Name for tasks/*) ride along.
  const rawDispatch: RawClientDispatch = async (request, dispatchOptions) => {
    const { method, params } = request as { method: string; params?: Record<string, unknown> };
    const outcome = await postRpc(
      target,
      { method, params },
      {
        signal: dispatchOptions?.signal,
        headers: dispatchOptions?.context?.headers as Record<string, string> | undefined,
      },
    );
    return outcome.kind === 'result'
      ? { kind: 'result', result: outcome.result as JsonValue }
      : { kind: 'error', error: outcome.error as { code: number; message: string; data?: JsonValue } };
  };
  const session = createTaskSessionFromClient(client, {
    endpointId: url,
    rawDispatch,
    v2RequestFraming: {
      protocolVersion: MODERN_REVISION,
      clientInfo,
      clientCapabilities: baseCapabilities as Record<string, JsonValue>,
    },
    // (cast: ext-tasks types the handler generically per request kind)
    ...(options.onInputRequest
      ? { onInputRequest: options.onInputRequest as unknown as WithTasksOptions['onInputRequest'] }
      : {}),
  });

  const rpc: Tasks2026Client['rpc'] = (method, params, rpcOptions = {}) =>
    postRpc(target, { method, params: frame(params, rpcOptions.declare ?? true) }, rpcOptions);
  const getTask = async (taskId: string): Promise<GetTaskResultV2> =>
    ok('tasks/get', await rpc('tasks/get', { taskId }), GetTaskResultV2Schema);

  return {
    client,
    session,
    serverDeclaresTasks: extension !== undefined && extension !== null,
    rpc,
    callRaw: (name, args = {}, rpcOptions) => rpc('tools/call', { name, arguments: args }, rpcOptions),
    async createTask(name, args = {}) {
      return ok('tools/call', await rpc('tools/call', { name, arguments: args }), CreateTaskResultV2Schema);
    },
    getTask,
    async updateTask(taskId, inputResponses) {
      ok('tasks/update', await rpc('tasks/update', { taskId, inputResponses }), UpdateTaskResultV2Schema);
    },
    async cancelTask(taskId) {
      ok('tasks/cancel', await rpc('tasks/cancel', { taskId }), CancelTaskResultV2Schema);
    },
    async waitForStatus(taskId, statuses, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const task = await getTask(taskId);
        if (statuses.includes(task.status)) return task;
        if (Date.now() > deadline) {
          throw new Error(
            `task ${taskId} still ${task.status} after ${timeoutMs} ms (waiting for ${statuses.join('|')})`,
          );
        }
        // Spec: clients SHOULD respect pollIntervalMs.
        await new Promise((resolve) => setTimeout(resolve, task.pollIntervalMs ?? 100));
      }
    },
    listen: (taskIds) => listenTasks(target, taskIds, frame({})),
    async close() {
      await session.close();
      await client.close();
    },
  };
}

/** Waits (up to 20 s) until every one of `clients` lists `tool`: each replica has its server's catalog. */
export async function waitForTool(clients: Tasks2026Client[], tool: string): Promise<void> {
  await Promise.all(
    clients.map((client) =>
      waitUntil(async () => (await client.client.listTools()).tools.some((listed) => listed.name === tool), {
        timeoutMs: 20_000,
        intervalMs: 100,
        description: `${tool} listed`,
      }),
    ),
  );
}
