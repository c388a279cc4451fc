/**
 * Tasks on a 2026-07-28 frontend: the io.modelcontextprotocol/tasks extension
 * (SEP-2663, ext-tasks spec). We advertise it in server/discover
 * (`capabilities.extensions`); a tools/call whose `_meta` client capabilities
 * declare it may answer a flat `CreateTaskResult` (`resultType: "task"`);
 * tasks/get answers the task with its input requests, and once done its
 * result (carrying its own `resultType: "complete"`) or error inline;
 * tasks/update delivers input responses; tasks/cancel acks; there is no
 * tasks/list nor tasks/result. A request that did not declare the extension
 * never gets a task, and its tasks/* get -32021 (spec, Capability Negotiation).
 *
 * Seam: the SDK's 2026 server encoder lets a tools/call handler's
 * `resultType: "task"` through (it adds `content: []`, which the extension's
 * schemas accept), and checks `Mcp-Name` against `params.taskId` for tasks/*
 * itself, so no override is needed for this era. Status pushes
 * (`notifications/tasks` on a `subscriptions/listen` with `taskIds`, which
 * the SDK's listen router drops) are served by taskListen.ts.
 */
import {
  CLIENT_CAPABILITIES_META_KEY,
  MissingRequiredClientCapabilityError,
  PROTOCOL_VERSION_META_KEY,
  ProtocolError,
  ProtocolErrorCode,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { TASKS_EXTENSION_ID } from '../../backends/connection/backendRequests.js';
import { wireTask, type ProxyTask } from '../tasks/proxyTask.js';
import type { TaskDetail } from '../tasks/taskService.js';

export { TASKS_EXTENSION_ID } from '../../backends/connection/backendRequests.js';

/** What a 2026-07-28 request's `_meta` envelope says, read through a cast (SDK 2.4.0 types it `{}`). */
function envelopeOf(ctx: ServerContext): Record<string, unknown> | undefined {
  return ctx.mcpReq.envelope as Record<string, unknown> | undefined;
}

/** Whether a request is of the 2026-07-28 era (its envelope names the protocol version). */
export function isModernRequest(ctx: ServerContext): boolean {
  return envelopeOf(ctx)?.[PROTOCOL_VERSION_META_KEY] !== undefined;
}

/** Whether a 2026-07-28 request declared the tasks extension in its client capabilities. */
export function declaresTasks(ctx: ServerContext): boolean {
  if (!isModernRequest(ctx)) return false;
  const capabilities = envelopeOf(ctx)?.[CLIENT_CAPABILITIES_META_KEY] as
    { extensions?: Record<string, unknown> } | undefined;
  const entry = capabilities?.extensions?.[TASKS_EXTENSION_ID];
  return typeof entry === 'object' && entry !== null;
}

/** -32021 for a tasks/* request that did not declare the extension. */
export function requireTasksDeclared(ctx: ServerContext): void {
  if (!declaresTasks(ctx))
    throw new MissingRequiredClientCapabilityError({
      requiredCapabilities: { extensions: { [TASKS_EXTENSION_ID]: {} } },
    } as ConstructorParameters<typeof MissingRequiredClientCapabilityError>[0]);
}

/** Method-not-found for the 2025 task methods this era dropped (tasks/result, tasks/list). */
export function droppedInModernEra(method: string): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.MethodNotFound, `${method} is not part of 2026-07-28 tasks`);
}

/**
 * The fields every 2026-07-28 task shows: the 2025 `Task`'s, with its
 * lifetime and poll hint renamed `ttlMs` and `pollIntervalMs`.
 */
function modernTask(task: ProxyTask): Record<string, unknown> {
  const { ttl: _ttl, pollInterval: _pollInterval, ...common } = wireTask(task);
  return { ...common, ttlMs: task.ttlMs, pollIntervalMs: task.pollIntervalMs };
}

/** A tools/call's answer when it made a task: the flat CreateTaskResult. */
export function createTaskResult(task: ProxyTask): Record<string, unknown> {
  return { resultType: 'task', ...modernTask(task) };
}

/**
 * tasks/get's answer (a DetailedTask; the SDK stamps the outer `resultType:
 * "complete"`): by status, `inputRequests`, the `result` (the tool result
 * with its own `resultType: "complete"`, also when `isError`) or the `error`.
 */
export function detailedTask(detail: TaskDetail): Record<string, unknown> {
  const { task } = detail;
  const shown = modernTask(task);
  const outcome = task.outcome;
  if (task.status === 'input_required') return { ...shown, inputRequests: detail.inputRequests ?? {} };
  if (task.status === 'completed' && outcome && 'result' in outcome)
    return { ...shown, result: { ...outcome.result, resultType: 'complete' } };
  if (task.status === 'failed') {
    if (outcome && 'result' in outcome)
      return { ...shown, status: 'completed', result: { ...outcome.result, resultType: 'complete' } };
    const error = outcome && 'error' in outcome ? outcome.error : undefined;
    return {
      ...shown,
      error: error ?? { code: ProtocolErrorCode.InternalError, message: task.statusMessage ?? 'failed' },
    };
  }
  return shown;
}
