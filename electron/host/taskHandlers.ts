/**
 * The tasks side of the contract: every task of this instance (MCP tasks
 * through the proxy) for the request log, and cancelling a running one.
 * The host's user sees every profile's tasks; no arguments or results.
 */
import type { CoreHandlers } from '../../shared/contract.js';
import type { TaskView } from '../../shared/model/taskViews.js';
import type { Switchboard } from '../core/api/index.js';
import type { ProxyTask } from '../core/frontend/index.js';

/** One task as the contract shows it. */
export function taskView(task: ProxyTask): TaskView {
  return {
    id: task.taskId,
    status: task.status,
    ...(task.statusMessage !== undefined ? { statusMessage: task.statusMessage } : {}),
    client: task.client,
    backend: task.backendId,
    tool: task.tool,
    createdAt: new Date(task.createdAt).toISOString(),
    lastUpdatedAt: new Date(task.lastUpdatedAt).toISOString(),
    ttlMs: task.ttlMs,
    runsOn: task.runsOn,
  };
}

/** `tasks.list` and `tasks.cancel`. */
export function taskHandlers(core: Pick<Switchboard, 'tasks'>): Pick<CoreHandlers, 'tasks.list' | 'tasks.cancel'> {
  return {
    'tasks.list': async () => core.tasks.registry.list().map(taskView),
    'tasks.cancel': async ({ id }) => ({ cancelled: await core.tasks.cancelById(id) }),
  };
}
