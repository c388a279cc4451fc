/**
 * Tasks for every client: a 2026-07-28 client that did not declare the tasks
 * extension calls plainly a tool its 2025-11-25 server runs only as a task
 * (`taskSupport: required`). The server would answer -32601; we know this
 * request cannot take a task, so we run the backend's task ourselves and
 * answer the ordinary call with its result. The whole exchange (create,
 * polls, tasks/result) is one relayed request: bounded by the server's
 * request timeout, its questions put to the client as a plain call's are
 * (input_required, the retry resuming the same task), the task's status
 * messages relayed as progress, and the backend's task cancelled when the
 * call is cancelled or times out. A 2025 client keeps its -32601 (its spec asks it).
 */
import { setTimeout as delay } from 'node:timers/promises';
import {
  RELATED_TASK_META_KEY,
  type CallToolRequestParams,
  type CallToolResult,
  type GetTaskResult,
  type InputRequiredResult,
} from '@modelcontextprotocol/server';
import type { BackendConnection } from '../../backends/connection/backendConnection.js';
import type { PerformOptions, RelayHost } from '../relay/inputRelay.js';
import { relayRequest } from '../relay/inputRelay.js';
import type { FrontendChannel } from '../relay/frontendChannel.js';
import { withForwardedMeta } from '../routing/forwarding.js';
import { recordedRequest, type AuditSink } from '../routing/routeAudit.js';
import type { RouteOptions } from '../routing/routeOptions.js';
import type { ResolvedCall } from '../routing/router.js';
import { rewriteToolResult } from '../../catalog/rewrite.js';
import { cancelBackendTask } from './legacyBackendTasks.js';
import { isTerminal } from './proxyTask.js';
import { backendRunsTasks, declaredTaskSupport } from './taskSupport.js';

/** The shortest wait between our polls of the backend's task, whatever it suggests. */
const MIN_POLL_MS = 50;

/** What a plain call run as a backend task needs from the core. */
export interface PlainTaskHost extends RelayHost {
  audit?: AuditSink;
}

/**
 * Whether this plain call must run as its backend's task: a 2026-07-28
 * frontend, a 2025-11-25 backend that runs tasks, a tool it runs only as one.
 * An `ask` tool keeps the router's path (its approval comes first).
 */
export function runsOnlyAsBackendTask(call: ResolvedCall, frontend: FrontendChannel | undefined): boolean {
  const { connection } = call;
  return (
    frontend?.era === 'modern' &&
    call.rule !== 'ask' &&
    connection.era !== 'modern' &&
    declaredTaskSupport(call.tool) === 'required' &&
    backendRunsTasks(connection.capabilities, connection.era)
  );
}

/** The call as the backend's task, answered with the task's result (or the client's next input round). */
export function callAsBackendTask(
  host: PlainTaskHost,
  call: ResolvedCall,
  params: CallToolRequestParams,
  ttlMs: number,
  options: RouteOptions,
): Promise<CallToolResult | InputRequiredResult> {
  const { connection, origin } = call;
  const audited = {
    kind: 'tools/call' as const,
    client: call.client,
    origin,
    arguments: params.arguments,
    decision: call.decision,
  };
  return recordedRequest(host.audit, audited, options.signal, async () => {
    const result = await relayRequest<CallToolRequestParams, CallToolResult>(
      host,
      {
        connection,
        label: `tools/call ${origin.original} (task)`,
        // The same binding a plain call has: the client's retry resumes this very task.
        binding: `tools/call ${call.exposed}`,
        params: { ...withForwardedMeta(params), name: origin.original },
        perform: (forwarded, performOptions) => runTaskToEnd(connection, forwarded, ttlMs, performOptions),
      },
      options,
    );
    if ('resultType' in result && result.resultType === 'input_required') return result;
    const { [RELATED_TASK_META_KEY]: _theirs, ...meta } = (result as CallToolResult)._meta ?? {};
    const plain = { ...(result as CallToolResult), _meta: Object.keys(meta).length ? meta : undefined };
    return rewriteToolResult(call.catalog, origin.backendId, plain);
  });
}

/**
 * Creates the backend's task and follows it to its end: polls tasks/get
 * (relaying each new status message as progress) until it ends or asks for
 * input, then tasks/result (where a 2025 backend delivers its questions).
 * Any failure, the caller's cancel or the deadline included, cancels the task.
 */
async function runTaskToEnd(
  connection: BackendConnection,
  params: CallToolRequestParams,
  ttlMs: number,
  options: PerformOptions,
): Promise<CallToolResult> {
  const { signal, timeout, onprogress } = options;
  const created = await connection.callToolAsTask(params, { ttl: ttlMs }, options);
  const taskId = (created as { task?: { taskId?: unknown } }).task?.taskId;
  if (typeof taskId !== 'string') throw new Error(`server ${connection.id} answered a task call without a task`);
  try {
    const report = statusProgress(onprogress);
    for (;;) {
      const task = await connection.taskRequest<GetTaskResult>('tasks/get', taskId, { signal, timeout });
      report(task.statusMessage);
      if (isTerminal(task.status) || task.status === 'input_required') break;
      await delay(Math.max(MIN_POLL_MS, task.pollInterval ?? 1000), undefined, { signal });
    }
    return await connection.taskRequest<CallToolResult>('tasks/result', taskId, { signal, timeout });
  } catch (error) {
    // Not awaited: this request still holds its queue slot, which the cancel may need.
    void cancelBackendTask(connection, taskId).catch(() => undefined);
    throw error;
  }
}

/** Relays each new status message of the task as one progress step (none when not asked for). */
function statusProgress(onprogress: PerformOptions['onprogress']): (message: string | undefined) => void {
  let last: string | undefined;
  let step = 0;
  return (message) => {
    if (!onprogress || message === undefined || message === last) return;
    last = message;
    onprogress({ progress: ++step, message });
  };
}
