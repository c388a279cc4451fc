/**
 * Every task of this Switchboard instance, in memory only (tasks do not
 * survive a restart). Ids are ours and unguessable; a task is visible only to
 * the client profile that created it, so another profile's id answers as
 * unknown (2025-11-25: "invalid or nonexistent taskId" is -32602). A task and
 * its result are dropped when its TTL runs out, counted from creation
 * (2025-11-25 `ttl`: "duration in milliseconds from creation to retain").
 */
import type { ProxyTask, TaskOutcome, TaskOwner, TaskState } from './proxyTask.js';
import { isTerminal, newTaskId } from './proxyTask.js';
import {
  grantedTtl,
  MAX_FINISHED_PER_CLIENT,
  POLL_INTERVAL_MS,
  taskLimitError,
  type TaskLimits,
} from './taskLimits.js';

/** Why a listener hears of a task: it was created, changed state, or was dropped (expired or removed). */
export interface TaskChange {
  kind: 'created' | 'status' | 'dropped';
  task: ProxyTask;
}

/** What the registry needs: its limits in force and a clock. */
export interface TaskRegistryOptions {
  limits(): TaskLimits;
  now?: () => number;
  /** Finished tasks kept per client, oldest dropped first (default MAX_FINISHED_PER_CLIENT). */
  maxFinishedPerClient?: number;
}

interface Held {
  task: ProxyTask;
  timer: NodeJS.Timeout;
  settled: Promise<void>;
  settle(): void;
}

/** The tasks held; see the module comment. */
export class TaskRegistry {
  private readonly tasks = new Map<string, Held>();
  private readonly listeners = new Set<(change: TaskChange) => void>();
  private readonly now: () => number;

  constructor(private readonly options: TaskRegistryOptions) {
    this.now = options.now ?? Date.now;
  }

  /**
   * A new task in `working`, its TTL granted within the limits. Throws the
   * retryable task-limit error when the client already runs its cap.
   */
  create(owner: TaskOwner, requestedTtl: unknown, runsOn: ProxyTask['runsOn'] = 'switchboard'): ProxyTask {
    const limits = this.options.limits();
    this.assertRoom(owner.client);
    const now = this.now();
    const task: ProxyTask = {
      ...owner,
      taskId: newTaskId(),
      runsOn,
      status: 'working',
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs: grantedTtl(requestedTtl, limits),
      pollIntervalMs: POLL_INTERVAL_MS,
    };
    let settle!: () => void;
    const settled = new Promise<void>((resolve) => (settle = resolve));
    const timer = setTimeout(() => this.drop(task.taskId), task.ttlMs);
    timer.unref();
    this.tasks.set(task.taskId, { task, timer, settled, settle });
    this.emit({ kind: 'created', task });
    return task;
  }

  /** Throws the retryable task-limit error when the client already runs its cap. */
  assertRoom(client: string): void {
    const { maxPerClient } = this.options.limits();
    if (this.running(client) >= maxPerClient) throw taskLimitError(client, maxPerClient);
  }

  /** The task, if it exists and belongs to `client`; undefined otherwise (never says which). */
  get(taskId: string, client: string): ProxyTask | undefined {
    const task = this.tasks.get(taskId)?.task;
    return task && task.client === client ? task : undefined;
  }

  /** A task by id for this instance's own user (the host contract), whoever owns it. */
  find(taskId: string): ProxyTask | undefined {
    return this.tasks.get(taskId)?.task;
  }

  /** One client's tasks (or, without a client, every task), newest first. */
  list(client?: string): ProxyTask[] {
    const all = [...this.tasks.values()].map((held) => held.task);
    const mine = client === undefined ? all : all.filter((task) => task.client === client);
    return mine.sort((a, b) => b.createdAt - a.createdAt);
  }

  /** Tasks of a client not yet terminal: what the cap counts. */
  running(client: string): number {
    let count = 0;
    for (const { task } of this.tasks.values()) if (task.client === client && !isTerminal(task.status)) count++;
    return count;
  }

  /** Moves a live task to a non-terminal state (working, input_required); ignored once terminal. */
  setStatus(taskId: string, status: 'working' | 'input_required', statusMessage?: string): void {
    const task = this.tasks.get(taskId)?.task;
    if (!task || isTerminal(task.status)) return;
    if (task.status === status && task.statusMessage === statusMessage) return;
    task.status = status;
    task.statusMessage = statusMessage;
    task.lastUpdatedAt = this.now();
    this.emit({ kind: 'status', task });
  }

  /**
   * Ends a task with its outcome (none: the backend holds it, for its
   * tasks/result); the first end wins (a cancel racing a completion keeps
   * whichever came first). Returns whether this call ended it.
   */
  finish(
    taskId: string,
    status: Exclude<TaskState, 'working' | 'input_required'>,
    outcome: TaskOutcome | undefined,
    statusMessage?: string,
  ): boolean {
    const held = this.tasks.get(taskId);
    if (!held || isTerminal(held.task.status)) return false;
    const { task } = held;
    task.status = status;
    task.statusMessage = statusMessage;
    task.outcome = outcome;
    task.lastUpdatedAt = this.now();
    held.settle();
    this.emit({ kind: 'status', task });
    this.trimFinished(task.client);
    return true;
  }

  /**
   * Keeps the outcome of a task that ended without one (a backend's result
   * fetched after its end was seen), told to listeners as a change so the
   * shared record gets it too. Ignored when the task is open or already has one.
   */
  keepOutcome(taskId: string, outcome: TaskOutcome): void {
    const task = this.tasks.get(taskId)?.task;
    if (!task || !isTerminal(task.status) || task.outcome) return;
    task.outcome = outcome;
    this.emit({ kind: 'status', task });
  }

  /** Drops a client's oldest finished tasks beyond the bound (see MAX_FINISHED_PER_CLIENT). */
  private trimFinished(client: string): void {
    const bound = this.options.maxFinishedPerClient ?? MAX_FINISHED_PER_CLIENT;
    const finished = [...this.tasks.values()]
      .map((held) => held.task)
      .filter((task) => task.client === client && isTerminal(task.status));
    if (finished.length <= bound) return;
    finished.sort((a, b) => a.lastUpdatedAt - b.lastUpdatedAt || a.createdAt - b.createdAt);
    for (const task of finished.slice(0, finished.length - bound)) this.drop(task.taskId);
  }

  /** Resolves once the task is terminal (or dropped); rejects never. */
  settled(taskId: string): Promise<void> {
    return this.tasks.get(taskId)?.settled ?? Promise.resolve();
  }

  /** Fails every open task of a backend with `message` (it restarted, crashed or was removed). */
  failBackend(backendId: string, message: string, which: (task: ProxyTask) => boolean = () => true): ProxyTask[] {
    const failed: ProxyTask[] = [];
    for (const { task } of this.tasks.values()) {
      if (task.backendId !== backendId || isTerminal(task.status) || !which(task)) continue;
      const error = { code: -32603, message, data: { code: 'backend_unavailable', backend: backendId } };
      if (this.finish(task.taskId, 'failed', { error }, message)) failed.push(task);
    }
    return failed;
  }

  /** Drops a task and its result now (its TTL ran out, or the user removed it). */
  drop(taskId: string): void {
    const held = this.tasks.get(taskId);
    if (!held) return;
    clearTimeout(held.timer);
    this.tasks.delete(taskId);
    held.settle();
    this.emit({ kind: 'dropped', task: held.task });
  }

  /** Hears every change; returns the way to stop. */
  onChange(listener: (change: TaskChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Drops every task (the core is closing). */
  dispose(): void {
    for (const taskId of [...this.tasks.keys()]) this.drop(taskId);
  }

  private emit(change: TaskChange): void {
    for (const listener of this.listeners) listener(change);
  }
}
