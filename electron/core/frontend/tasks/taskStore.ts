/**
 * Where tasks are kept beyond this process: the seam between the task
 * service and the state replicas share. One process (laptop mode, or `serve`
 * without a `cluster` section) keeps every task in its registry alone: the
 * in-memory store below shares nothing and knows of no other replica. With
 * replicas (redisTaskStore.ts, loaded only then) each task's record (id,
 * owner, status, a bounded result) lives in Redis, the work stays on the
 * replica that created it, and a request reaching another replica is
 * answered from the record or handed to the owner.
 */
import type { Task } from '@modelcontextprotocol/server';
import type { ProxyTask, TaskDetail, TaskOutcome } from './proxyTask.js';

/** A task as another replica kept it: the task, and who runs it. */
export interface SharedTask extends ProxyTask {
  /** The replica that created it and runs its work. */
  replica: string;
  /** Set when the outcome was larger than the record keeps: it stays with the owner, fetched on demand. */
  outcomeBytes?: number | undefined;
}

/** One page of a client's tasks on every replica, newest first. */
export interface SharedTaskPage {
  tasks: SharedTask[];
  /** The cursor of the next page (absent: this was the last). */
  nextCursor?: string;
}

/** What the owning replica does for another one (each call checks the owner's client, as a local request would). */
export interface OwnerTaskOps {
  detail(taskId: string, client: string, signal?: AbortSignal): Promise<TaskDetail>;
  update(taskId: string, client: string, responses: Record<string, unknown>, signal?: AbortSignal): Promise<void>;
  cancel(taskId: string, client: string): Promise<Task>;
  outcome(taskId: string, client: string, signal?: AbortSignal): Promise<TaskOutcome | undefined>;
}

/** One operation handed to the owner, with its arguments. */
export type OwnerCall =
  | { op: 'detail'; taskId: string; client: string }
  | { op: 'update'; taskId: string; client: string; responses: Record<string, unknown> }
  | { op: 'cancel'; taskId: string; client: string }
  | { op: 'outcome'; taskId: string; client: string };

/** The seam; see the module comment. */
export interface TaskStore {
  /** Whether tasks are shared with other replicas (false: this process holds them all). */
  readonly shared: boolean;
  /** Serves other replicas' calls for this replica's tasks, and re-sends `local()` whenever the store returns. */
  attach(ops: OwnerTaskOps, local: () => ProxyTask[]): void;
  /** Keeps a new task where other replicas see it; resolves once kept (the task is acknowledged only then). */
  keep(task: ProxyTask): Promise<void>;
  /** A task changed state: kept again (best effort; re-sent when the store returns). */
  changed(task: ProxyTask): void;
  /** A task was dropped (TTL, or answered without a task). */
  dropped(task: ProxyTask): void;
  /**
   * A task this replica does not hold, as kept, when it belongs to `client`;
   * undefined when unknown or another client's (never says which). A task
   * whose replica is gone is answered failed, saying so.
   */
  elsewhere(taskId: string, client: string): Promise<SharedTask | undefined>;
  /**
   * One page of `client`'s tasks as kept, on every replica, after `cursor`
   * (a page's `nextCursor`, valid on any replica); running tasks of a replica
   * that is gone are answered failed. -32602 for a cursor not handed out.
   */
  page(client: string, cursor: string | undefined): Promise<SharedTaskPage>;
  /** Hears each status change of a task another replica runs (the record, without its outcome); returns the stop. */
  follow(taskId: string, listener: (task: SharedTask) => void): () => void;
  /** Hands `call` to the replica that owns `task`; rejects with its error, or when it does not answer in time. */
  forward(task: SharedTask, call: OwnerCall, signal?: AbortSignal): Promise<unknown>;
  /** Stops sharing (the core is closing): other replicas then see this replica's open tasks fail. */
  close(): void;
}

/** The store of one process: shares nothing (every task is in the registry). */
export const memoryTaskStore: TaskStore = {
  shared: false,
  attach: () => undefined,
  keep: () => Promise.resolve(),
  changed: () => undefined,
  dropped: () => undefined,
  elsewhere: () => Promise.resolve(undefined),
  page: () => Promise.resolve({ tasks: [] }),
  follow: () => () => undefined,
  forward: () => Promise.reject(new Error('no other replica')),
  close: () => undefined,
};
