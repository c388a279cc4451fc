/**
 * Tasks on a 2025-11-25 frontend (MCP "Tasks", experimental): the
 * capability we advertise, the tasks/* handlers, status notifications to
 * the owner's sessions, and the server class that lets a task-augmented
 * tools/call answer `CreateTaskResult`. SDK v2 2.4.0 parses task vocabulary
 * but has no task runtime and validates every tools/call result as a
 * `CallToolResult`; its `_wrapHandler` hook (meant for subclasses) is where
 * a task call skips that check.
 */
import {
  PROTOCOL_VERSION_META_KEY,
  ProtocolError,
  ProtocolErrorCode,
  Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { JSONRPCRequest, Result } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
import type { FrontendCore } from '../../api/services.js';
import { frontendChannel } from '../relay/frontendChannel.js';
import { wireTask, type ProxyTask } from '../tasks/proxyTask.js';
import { detailedTask, droppedInModernEra, isModernRequest, requireTasksDeclared } from './taskMethods.js';

/** 2025-11-25 `capabilities.tasks`: list, cancel, and task-augmented tools/call. */
export const TASKS_CAPABILITY = { list: {}, cancel: {}, requests: { tools: { call: {} } } };

/**
 * Whether a request is a 2025-11-25 task-augmented one (`params.task`
 * present). A 2026-07-28 request (its `_meta` names the protocol version)
 * never is: that era's tasks are the `io.modelcontextprotocol/tasks`
 * extension, not `params.task`, so such a call runs as an ordinary one.
 */
export function isTaskRequest(request: { params?: unknown }): boolean {
  const params = request.params as { task?: unknown; _meta?: Record<string, unknown> } | undefined;
  if (params?._meta?.[PROTOCOL_VERSION_META_KEY] !== undefined) return false;
  return typeof params?.task === 'object' && params.task !== null;
}

/**
 * The SDK's low-level server, except that a task-augmented tools/call
 * answers the `CreateTaskResult` its handler made (the request itself was
 * validated already) instead of having it refused as a tool result.
 */
export class TaskAwareServer extends Server {
  protected override _wrapHandler(
    method: string,
    handler: (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result>,
  ): (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result> {
    const wrapped = super._wrapHandler(method, handler);
    if (method !== 'tools/call') return wrapped;
    return (request, ctx) => (isTaskRequest(request) ? handler(request, ctx) : wrapped(request, ctx));
  }
}

const TaskIdParams = z.looseObject({ taskId: z.string() });
const ListParams = z.looseObject({ cursor: z.string().optional() }).optional();

/**
 * Registers the task methods for one client profile, in each era's form:
 * tasks/get, tasks/result, tasks/list and tasks/cancel (2025-11-25), and
 * tasks/get, tasks/update and tasks/cancel (2026-07-28, taskMethods.ts).
 */
export function registerTaskHandlers(server: Server, core: FrontendCore, client: string): void {
  const { tasks } = core;
  server.setRequestHandler('tasks/get', { params: TaskIdParams }, async (params, ctx) => {
    if (!isModernRequest(ctx)) return tasks.get(params.taskId, client, ctx.mcpReq.signal);
    requireTasksDeclared(ctx);
    return detailedTask(await tasks.detail(params.taskId, client, ctx.mcpReq.signal));
  });
  server.setRequestHandler('tasks/result', { params: TaskIdParams }, (params, ctx) => {
    if (isModernRequest(ctx)) throw droppedInModernEra('tasks/result');
    return tasks.result(params.taskId, { client, signal: ctx.mcpReq.signal, frontend: frontendChannel(server, ctx) });
  });
  // One process's tasks are bounded per client (proxy.maxTasksPerClient): one page holds them all.
  // With replicas a page holds at most TASK_PAGE_SIZE, its cursor valid on any replica.
  server.setRequestHandler('tasks/list', { params: ListParams }, async (params, ctx) => {
    if (isModernRequest(ctx)) throw droppedInModernEra('tasks/list');
    const page = await tasks.list(client, params?.cursor);
    return { tasks: page.tasks.map(wireTask), ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
  });
  server.setRequestHandler('tasks/cancel', { params: TaskIdParams }, async (params, ctx) => {
    if (!isModernRequest(ctx)) return tasks.cancel(params.taskId, client);
    requireTasksDeclared(ctx);
    // 2026-07-28: an ack (cooperative, eventually consistent); an ended task stays as it ended.
    await tasks.cancel(params.taskId, client).catch((error: unknown) => {
      if (!(error instanceof ProtocolError && /already/.test(error.message))) throw error;
    });
    return {};
  });
  server.setRequestHandler('tasks/update', { params: TaskIdParams }, async (params, ctx) => {
    if (!isModernRequest(ctx)) throw new ProtocolError(ProtocolErrorCode.MethodNotFound, 'Method not found');
    requireTasksDeclared(ctx);
    // The SDK lifts `inputResponses` off every 2026 request into ctx.mcpReq (liftWireOnlyMaterial).
    const responses = ctx.mcpReq.inputResponses as Record<string, unknown> | undefined;
    if (responses === undefined || (ctx.mcpReq.droppedInputResponseKeys ?? []).length > 0)
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Invalid tasks/update: inputResponses must be objects');
    await tasks.update(params.taskId, client, responses, ctx.mcpReq.signal);
    return {};
  });
}

/** Tells one 2025-era server of a task's new state, when it serves the task's owner. */
export async function notifyTaskStatus(server: Server, servedClient: string, task: ProxyTask): Promise<void> {
  if (servedClient !== task.client) return;
  await server
    .notification({ method: 'notifications/tasks/status', params: { ...wireTask(task) } })
    .catch(() => undefined);
}
