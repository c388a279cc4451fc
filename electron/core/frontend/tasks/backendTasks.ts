/**
 * A 2026-07-28 backend's own task behind one of ours (the
 * io.modelcontextprotocol/tasks extension, SEP-2663): created by a tools/call
 * that declares the extension (the backend decides whether to answer a task),
 * watched with tasks/get (status, input requests, and the result inline once
 * done), answered with tasks/update, cancelled with tasks/cancel. What the
 * backend sends is checked with the extension's own V2 schemas. Each request
 * is one queued request on the backend's connection.
 */
import {
  CreateTaskResultV2Schema,
  DetailedTaskV2Schema,
  type DetailedTaskV2,
} from '@modelcontextprotocol/ext-tasks/core/v2';
import { setTimeout as delay } from 'node:timers/promises';
import type { CallToolRequestParams, CallToolResult, InputRequiredResult, Tool } from '@modelcontextprotocol/server';
import {
  CLIENT_CAPABILITIES_META_KEY,
  RELATED_TASK_META_KEY,
  type ClientCapabilities,
} from '@modelcontextprotocol/server';
import type { BackendConnection } from '../../backends/connection/backendConnection.js';
import { BACKEND_INPUT_CAPABILITIES } from '../../backends/connection/callTracking.js';
import { liftedTask } from '../../backends/connection/taskResultLift.js';
import type { FrontendChannel, InputRequestMessage } from '../relay/frontendChannel.js';
import { relayRequest, type RelayHost } from '../relay/inputRelay.js';
import { CANCELLED_OUTCOME, type TaskOutcome, type TaskState } from './proxyTask.js';

/** The shortest wait between our polls of a backend's task, whatever it suggests. */
const MIN_POLL_MS = 50;

/** What a 2026 backend answered a tools/call declaring the extension. */
export type ModernCallAnswer =
  | { kind: 'task'; taskId: string; status: TaskState; statusMessage?: string | undefined }
  | { kind: 'result'; result: CallToolResult | InputRequiredResult };

/**
 * tools/call declaring the extension, through the input relay (so a
 * 2026-07-28 frontend's multi round-trip answers ride along, and the backend
 * sees the frontend's capabilities). The backend decides: a task, or a result.
 * `tool` (as the backend listed it) gives the call its Mcp-Param-* headers.
 */
export async function callModernBackend(
  host: RelayHost,
  connection: BackendConnection,
  params: CallToolRequestParams,
  options: { signal?: AbortSignal | undefined; frontend?: FrontendChannel | undefined },
  tool?: Tool | undefined,
): Promise<ModernCallAnswer> {
  const answer = await relayRequest<CallToolRequestParams, CallToolResult>(
    host,
    {
      connection,
      label: `tools/call ${params.name} (task)`,
      binding: `tools/call ${params.name}`,
      params,
      perform: (forwarded, requestOptions) =>
        connection.callToolDeclaringTasks(forwarded, capabilitiesOf(forwarded, options.frontend), {
          ...requestOptions,
          tool,
        }),
    },
    options,
  );
  const lifted = liftedTask(answer);
  if (!lifted) return { kind: 'result', result: answer };
  const task = CreateTaskResultV2Schema.parse(lifted);
  return { kind: 'task', taskId: task.taskId, status: task.status, statusMessage: task.statusMessage };
}

/** The client capabilities a forwarded request declares: the frontend's when we know them, else ours. */
function capabilitiesOf(params: CallToolRequestParams, frontend: FrontendChannel | undefined): ClientCapabilities {
  const stamped = params._meta?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined;
  return stamped ?? frontend?.capabilities ?? BACKEND_INPUT_CAPABILITIES;
}

/** The backend's view of its task (tasks/get): status, and by status inputRequests, result or error. */
export async function getModernTask(
  connection: BackendConnection,
  backendTaskId: string,
  signal?: AbortSignal,
): Promise<DetailedTaskV2> {
  const answer = await connection.run(
    'tasks/get',
    ({ signal: taskSignal, sdkTimeoutMs }) =>
      connection.modernTaskRequest<unknown>('tasks/get', { taskId: backendTaskId }, BACKEND_INPUT_CAPABILITIES, {
        signal: taskSignal,
        timeout: sdkTimeoutMs(),
      }),
    signal,
  );
  return DetailedTaskV2Schema.parse(answer);
}

/** Delivers input responses to the backend's `input_required` task (tasks/update). */
export async function updateModernTask(
  connection: BackendConnection,
  backendTaskId: string,
  inputResponses: Record<string, unknown>,
  signal?: AbortSignal,
): Promise<void> {
  await connection.run(
    'tasks/update',
    ({ signal: taskSignal, sdkTimeoutMs }) =>
      connection.modernTaskRequest(
        'tasks/update',
        { taskId: backendTaskId, inputResponses },
        BACKEND_INPUT_CAPABILITIES,
        { signal: taskSignal, timeout: sdkTimeoutMs() },
      ),
    signal,
  );
}

/** Asks the backend to cancel its task (tasks/cancel: cooperative, acked at once). */
export async function cancelModernTask(connection: BackendConnection, backendTaskId: string): Promise<void> {
  await connection.run('tasks/cancel', ({ signal, sdkTimeoutMs }) =>
    connection.modernTaskRequest('tasks/cancel', { taskId: backendTaskId }, BACKEND_INPUT_CAPABILITIES, {
      signal,
      timeout: sdkTimeoutMs(),
    }),
  );
}

/** The tool result a completed task carries, without the wire's own `resultType` (we stamp ours). */
export function modernTaskResult(task: DetailedTaskV2): CallToolResult | undefined {
  if (task.status !== 'completed') return undefined;
  const { resultType: _resultType, ...result } = task.result as Record<string, unknown>;
  return result as CallToolResult;
}

/** How a terminal 2026 task ends ours: a tool result (`isError` one: failed, as in 2025), an error, or a cancel. */
export function modernOutcome(
  remote: DetailedTaskV2,
  rewrite: (result: CallToolResult) => CallToolResult,
): { status: 'completed' | 'failed' | 'cancelled'; outcome: TaskOutcome } {
  const result = modernTaskResult(remote);
  if (result) return { status: result.isError === true ? 'failed' : 'completed', outcome: { result: rewrite(result) } };
  if (remote.status === 'failed') return { status: 'failed', outcome: { error: remote.error } };
  return { status: 'cancelled', outcome: CANCELLED_OUTCOME };
}

/** What following a 2026 backend's task for a 2025 client needs. */
export interface FollowOptions {
  /** Our task id, marking the questions put to the client (`io.modelcontextprotocol/related-task`). */
  taskId: string;
  signal: AbortSignal;
  frontend: FrontendChannel | undefined;
  inputTimeoutMs: number;
  /** Hears each state the backend reports. */
  seen(remote: DetailedTaskV2): void;
  /** Whether our task has ended (then the following stops). */
  ended(): boolean;
}

/**
 * A 2025 client's tasks/result over a 2026 backend's task: polls tasks/get
 * (at the backend's pollIntervalMs) until the task ends, its result then
 * inline; an input_required task's requests go to the client as
 * server-to-client requests marked with our task id, and the answers back
 * with tasks/update.
 */
export async function followModernTask(
  connection: BackendConnection,
  backendTaskId: string,
  options: FollowOptions,
): Promise<void> {
  const { signal, frontend } = options;
  while (!options.ended()) {
    const remote = await getModernTask(connection, backendTaskId, signal);
    options.seen(remote);
    if (remote.status === 'input_required' && frontend) {
      const responses: Record<string, unknown> = {};
      for (const [key, request] of Object.entries(remote.inputRequests)) {
        const { method, params } = request as { method: InputRequestMessage['method']; params?: object };
        const marked = {
          ...params,
          _meta: { ...(params as { _meta?: object })?._meta, [RELATED_TASK_META_KEY]: { taskId: options.taskId } },
        };
        responses[key] = await frontend.send({ method, params: marked }, { signal, timeout: options.inputTimeoutMs });
      }
      await updateModernTask(connection, backendTaskId, responses, signal);
    } else if (!options.ended()) {
      await delay(Math.max(MIN_POLL_MS, remote.pollIntervalMs ?? 1000), undefined, { signal });
    }
  }
}
