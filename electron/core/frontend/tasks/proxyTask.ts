/**
 * One task of Switchboard's (MCP 2025-11-25 "Tasks", experimental; the
 * 2026-07-28 `io.modelcontextprotocol/tasks` extension): the id we gave the
 * client, who owns it, where it runs and how it stands. A task either wraps a
 * backend's own task (`backendTaskId`) or is run by us (the ordinary call
 * underneath, for a backend without task support).
 */
import { randomBytes } from 'node:crypto';
import type { CallToolResult, Task } from '@modelcontextprotocol/server';

/** The task states of the spec (2025-11-25 `TaskStatus`). */
export type TaskState = Task['status'];

/** Who a task belongs to and what it runs. */
export interface TaskOwner {
  /** The client profile that created it: the only one that may see it. */
  client: string;
  backendId: string;
  /** The tool's exposed (merged catalog) name, re-checked against the policy at tasks/result. */
  tool: string;
  /** The backend's own name of the tool. */
  original: string;
}

/** How a finished task ended: a tool result (completed, or failed with `isError`) or a JSON-RPC error. */
export type TaskOutcome = { result: CallToolResult } | { error: { code: number; message: string; data?: unknown } };

/** A cancelled task's outcome: the error a 2025 tasks/result answers for it (-32600). */
export const CANCELLED_OUTCOME: TaskOutcome = { error: { code: -32600, message: 'Task was cancelled' } };

/** One task as the registry holds it. */
export interface ProxyTask extends TaskOwner {
  /** Ours: 128 random bits, never the backend's id. */
  readonly taskId: string;
  /** Where the work runs: the backend's own task, or the ordinary call run by Switchboard. */
  readonly runsOn: 'backend' | 'switchboard';
  /** The backend's id of its task (runsOn `backend`), set once the backend answered; never shown to clients. */
  backendTaskId?: string | undefined;
  status: TaskState;
  statusMessage?: string | undefined;
  readonly createdAt: number;
  lastUpdatedAt: number;
  /** Granted lifetime from creation (ms); the task and its result are dropped after it. */
  readonly ttlMs: number;
  readonly pollIntervalMs: number;
  /** Set once the task is terminal. */
  outcome?: TaskOutcome | undefined;
}

/** A task as 2026-07-28 tasks/get shows it: with its open input requests (`inputRequests`). */
export interface TaskDetail {
  task: ProxyTask;
  inputRequests?: Record<string, unknown> | undefined;
}

/** A new task id: unguessable (128 bits from the CSPRNG), URL-safe. */
export function newTaskId(): string {
  return randomBytes(16).toString('base64url');
}

/** Whether a state is final (spec: completed, failed and cancelled never change again). */
export function isTerminal(status: TaskState): boolean {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}

/** The task as the 2025-11-25 wire shows it (`Task`), under our id. */
export function wireTask(task: ProxyTask): Task {
  return {
    taskId: task.taskId,
    status: task.status,
    ...(task.statusMessage !== undefined ? { statusMessage: task.statusMessage } : {}),
    createdAt: new Date(task.createdAt).toISOString(),
    lastUpdatedAt: new Date(task.lastUpdatedAt).toISOString(),
    ttl: task.ttlMs,
    pollInterval: task.pollIntervalMs,
  };
}
