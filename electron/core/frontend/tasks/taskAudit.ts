/**
 * The audit log's record of tasks: one entry when a task is created, one
 * when it ends (completed, failed, cancelled) and one if it is dropped
 * before it ended (its TTL ran out). Kind `task`; `detail` says which step
 * and names our task id.
 */
import type { AuditEntry, AuditOutcome } from '../../catalog/policy/auditLog.js';
import type { ProxyTask } from './proxyTask.js';
import type { TaskChange } from './taskRegistry.js';

/** Where audit entries go (absent: no audit log). */
export type TaskAuditSink = ((entry: AuditEntry) => void) | undefined;

/** One audit entry for a step of a task. */
export function taskAuditEntry(
  task: ProxyTask,
  step: 'created' | 'completed' | 'failed' | 'cancelled' | 'expired',
  now: number,
): AuditEntry {
  const outcome: AuditOutcome =
    step === 'failed' ? 'error' : step === 'cancelled' ? 'cancelled' : step === 'expired' ? 'timeout' : 'ok';
  const error = task.outcome && 'error' in task.outcome ? task.outcome.error : undefined;
  return {
    time: new Date(now).toISOString(),
    client: task.client,
    backend: task.backendId,
    kind: 'task',
    item: task.original,
    outcome,
    ...(step === 'failed' && error ? { errorCode: error.code } : {}),
    durationMs: step === 'created' ? 0 : now - task.createdAt,
    detail: `task ${task.taskId} ${step}${task.runsOn === 'switchboard' ? ' (run by Switchboard)' : ''}${
      step === 'failed' && task.statusMessage ? `: ${task.statusMessage}` : ''
    }`,
  };
}

/**
 * Records a registry change when it is a step the log keeps: a new task,
 * an end, or a drop before the end.
 */
export function auditTaskChange(audit: TaskAuditSink, change: TaskChange, now: number): void {
  if (!audit) return;
  const { task } = change;
  if (change.kind === 'dropped') {
    if (task.status === 'working' || task.status === 'input_required') audit(taskAuditEntry(task, 'expired', now));
    return;
  }
  if (change.kind === 'created') {
    audit(taskAuditEntry(task, 'created', now));
  } else if (task.status === 'completed' || task.status === 'failed' || task.status === 'cancelled') {
    audit(taskAuditEntry(task, task.status, now));
  }
}
