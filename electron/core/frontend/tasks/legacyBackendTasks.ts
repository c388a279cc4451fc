/**
 * A backend's own task behind one of ours (2025-11-25 tasks): created by a
 * task-augmented tools/call, watched with tasks/get, its result fetched with
 * tasks/result (through the input relay, since a backend delivers an
 * `input_required` task's questions during tasks/result), cancelled with
 * tasks/cancel. Each is one queued request on the backend's connection.
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { CallToolRequestParams, CallToolResult, GetTaskResult } from '@modelcontextprotocol/server';
import type { BackendConnection } from '../../backends/connection/backendConnection.js';
import { relayRequest, type RelayHost, type RelayOptions } from '../relay/inputRelay.js';
import type { TaskState } from './proxyTask.js';
import { isTerminal } from './proxyTask.js';

/** The shortest wait between our polls of a backend's task, whatever it suggests. */
const MIN_POLL_MS = 50;

/** Asks the backend to run the call as a task; answers the backend's task id and its first state. */
export async function createBackendTask(
  connection: BackendConnection,
  params: CallToolRequestParams,
  ttlMs: number,
  signal?: AbortSignal,
): Promise<{ taskId: string; status: TaskState; statusMessage?: string | undefined }> {
  const created = await connection.run(
    `tools/call ${params.name} (task)`,
    ({ signal: taskSignal, sdkTimeoutMs }) =>
      connection.callToolAsTask(params, { ttl: ttlMs }, { signal: taskSignal, timeout: sdkTimeoutMs() }),
    signal,
  );
  const task = (created as { task?: { taskId?: unknown; status?: TaskState; statusMessage?: string } }).task;
  if (typeof task?.taskId !== 'string') throw new Error(`backend ${connection.id} answered a task call without a task`);
  return { taskId: task.taskId, status: task.status ?? 'working', statusMessage: task.statusMessage };
}

/** The backend's view of its task (tasks/get). */
export function getBackendTask(
  connection: BackendConnection,
  backendTaskId: string,
  signal?: AbortSignal,
): Promise<GetTaskResult> {
  return connection.run(
    'tasks/get',
    ({ signal: taskSignal, sdkTimeoutMs }) =>
      connection.taskRequest<GetTaskResult>('tasks/get', backendTaskId, {
        signal: taskSignal,
        timeout: sdkTimeoutMs(),
      }),
    signal,
  );
}

/**
 * The task's result: polls tasks/get (each poll one short request, so a long
 * task never outlives a request deadline) until the task is terminal or needs
 * input, then asks tasks/result, relaying the backend's questions to the
 * frontend making this request.
 */
export async function backendTaskResult(
  host: RelayHost,
  connection: BackendConnection,
  backendTaskId: string,
  options: RelayOptions & { onStatus?: (task: GetTaskResult) => void },
): Promise<CallToolResult> {
  for (;;) {
    const task = await getBackendTask(connection, backendTaskId, options.signal);
    options.onStatus?.(task);
    if (isTerminal(task.status) || task.status === 'input_required') break;
    await delay(Math.max(MIN_POLL_MS, task.pollInterval ?? 1000), undefined, { signal: options.signal });
  }
  const result = await relayRequest<{ taskId: string; _meta?: Record<string, unknown> }, CallToolResult>(
    host,
    {
      connection,
      label: 'tasks/result',
      binding: `tasks/result ${backendTaskId}`,
      params: { taskId: backendTaskId },
      perform: (_params, requestOptions) =>
        connection.taskRequest<CallToolResult>('tasks/result', backendTaskId, requestOptions),
    },
    options,
  );
  return result as CallToolResult;
}

/**
 * The result of a backend's task that has ended (tasks/result): answered at
 * once, with no question to relay, so one short request on the queue.
 */
export function endedBackendTaskResult(
  connection: BackendConnection,
  backendTaskId: string,
  signal?: AbortSignal,
): Promise<CallToolResult> {
  return connection.run(
    'tasks/result',
    ({ signal: taskSignal, sdkTimeoutMs }) =>
      connection.taskRequest<CallToolResult>('tasks/result', backendTaskId, {
        signal: taskSignal,
        timeout: sdkTimeoutMs(),
      }),
    signal,
  );
}

/** Asks the backend to cancel its task (tasks/cancel); errors are the caller's to judge. */
export async function cancelBackendTask(connection: BackendConnection, backendTaskId: string): Promise<void> {
  await connection.run('tasks/cancel', ({ signal, sdkTimeoutMs }) =>
    connection.taskRequest('tasks/cancel', backendTaskId, { signal, timeout: sdkTimeoutMs() }),
  );
}
