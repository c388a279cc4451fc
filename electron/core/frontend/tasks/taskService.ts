/**
 * Tasks through the proxy (MCP 2025-11-25 tasks, and the 2026-07-28
 * io.modelcontextprotocol/tasks extension): a task-augmented tools/call
 * becomes a task of ours. To a backend that runs tasks for the tool it goes
 * out as a task and ours maps to the backend's; to any other backend we run
 * the ordinary call ourselves and keep its result until fetched or expired.
 * tasks/get, tasks/result, tasks/list and tasks/cancel answer through the
 * registry, for the owning client profile only. The policy is asked at
 * creation and again at tasks/result; a backend that goes away fails its
 * open tasks with a clear message. The running side (our own calls, fetching
 * and following a backend's task) is taskWork.ts.
 *
 * With replicas (the `cluster` section) the store (taskStore.ts) keeps
 * each task where every replica sees it: a request for a task another
 * replica runs is answered from its record or handed to that replica.
 *
 * The audit log's record of tasks: one entry when a task is created, one
 * when it ends (completed, failed, cancelled) and one if it is dropped
 * before it ended (its TTL ran out). Kind `task`; `detail` says which step
 * and names our task id.
 */
import {
  ProtocolError,
  ProtocolErrorCode,
  RELATED_TASK_META_KEY,
  type CallToolRequestParams,
  type CallToolResult,
  type CreateTaskResult,
  type InputRequiredResult,
  type Task,
  type Tool,
} from '@modelcontextprotocol/server';
import type { AuditEntry, AuditOutcome } from '../../catalog/policy/auditLog.js';
import { withForwardedMeta } from '../routing/forwarding.js';
import { toProtocolError, unknownItem } from '../routing/protocolErrors.js';
import { cancelBackendTask, createBackendTask, getBackendTask } from './legacyBackendTasks.js';
import { cancelModernTask, getModernTask, updateModernTask } from './backendTasks.js';
import { CANCELLED_OUTCOME, isTerminal, wireTask, type ProxyTask, type TaskDetail } from './proxyTask.js';
import { callAsBackendTask, runsOnlyAsBackendTask } from './plainTaskCall.js';
import { grantedTtl, type TaskLimits } from './taskLimits.js';
import { TaskRegistry, type TaskChange } from './taskRegistry.js';
import { memoryTaskStore, type OwnerTaskOps, type SharedTask, type TaskStore } from './taskStore.js';
import { errorOutcome, TaskWork, type TaskRequestOptions, type TaskWorkHost } from './taskWork.js';
import {
  backendHasTasksExtension,
  backendRunsTasks,
  declaredTaskSupport,
  forwardsTasks,
  servedTaskSupport,
  withTaskSupport,
} from './taskSupport.js';

/** Where audit entries go (absent: no audit log). */
export type TaskAuditSink = ((entry: AuditEntry) => void) | undefined;

/** What the task service needs from the core. */
export interface TaskServiceHost extends TaskWorkHost {
  limits(): TaskLimits;
  audit?: TaskAuditSink;
}

export type { TaskDetail } from './proxyTask.js';

/** One tasks/list page: the client's tasks, newest first, and the cursor of the next page. */
export interface TaskPage {
  tasks: ProxyTask[];
  nextCursor?: string;
}

/** Tasks of other replicas followed for a listen: each as kept when the following began, and the stop. */
export interface TaskFollow {
  tasks: ProxyTask[];
  stop(): void;
}

/** The answer to an unknown task id, or one of another profile (never says which). */
function unknownTask(taskId: string): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown task: ${taskId}`);
}

/** Waits `ms`, or rejects with the signal's reason once it aborts. */
function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    if (signal?.aborted) return onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** One audit entry for a step of a task. */
function taskAuditEntry(
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
function auditTaskChange(audit: TaskAuditSink, change: TaskChange, now: number): void {
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

/** The tasks of this instance; see the module comment. */
export class TaskService {
  readonly registry: TaskRegistry;
  private readonly work: TaskWork;
  /** Where tasks are kept beyond this process: nowhere (memory) unless `share` set the replicas' store. */
  private store: TaskStore = memoryTaskStore;
  private storeReady: Promise<void> = Promise.resolve();

  constructor(private readonly host: TaskServiceHost) {
    this.registry = new TaskRegistry({ limits: host.limits });
    this.work = new TaskWork(host, this.registry);
    this.registry.onChange((change) => {
      auditTaskChange(host.audit, change, Date.now());
      if (change.kind === 'dropped') {
        this.work.runs.get(change.task.taskId)?.abort?.abort(new Error('task expired'));
        this.work.runs.delete(change.task.taskId);
        this.store.dropped(change.task);
      } else if (change.kind === 'status') this.store.changed(change.task);
    });
  }

  /**
   * Shares tasks with the other replicas through `loading` (the Redis store,
   * imported lazily): this replica then answers their calls for its tasks,
   * and asks them for theirs.
   */
  share(loading: Promise<TaskStore>): void {
    this.storeReady = loading.then((store) => {
      store.attach(this.ownerOps(), () => this.registry.list());
      this.store = store;
    });
  }

  /**
   * A task-augmented tools/call: answers `CreateTaskResult` at once. Throws
   * -32602 for an unknown or denied tool, -32601 for one whose task support
   * is `forbidden`, and the retryable task-limit error beyond the cap.
   */
  async create(params: CallToolRequestParams, ttl: unknown, options: TaskRequestOptions): Promise<CreateTaskResult> {
    const opened = await this.open(params, ttl, options);
    if ('result' in opened) throw new ProtocolError(ProtocolErrorCode.InternalError, 'a 2025 task call got no task');
    return { task: wireTask(opened) };
  }

  /**
   * A task call in either era: our task, or (a 2026-07-28 frontend only) the
   * 2026 backend's own answer when it chose not to make a task (a result, or
   * input_required for the client's next round). A 2026 frontend's task of a
   * 2025 backend has its result fetched at once in the background, its
   * questions kept for tasks/get and answered by tasks/update.
   */
  async open(
    params: CallToolRequestParams,
    ttl: unknown,
    options: TaskRequestOptions,
  ): Promise<ProxyTask | { result: CallToolResult | InputRequiredResult }> {
    await this.storeReady;
    const opened = await this.openHere(params, ttl, options);
    if ('result' in opened || !this.store.shared) return opened;
    // With replicas a task is acknowledged once kept where all of them see it.
    try {
      await this.store.keep(opened);
    } catch (error) {
      await this.cancelTask(opened, 'not kept in the shared state');
      this.registry.drop(opened.taskId);
      throw error;
    }
    return opened;
  }

  private async openHere(
    params: CallToolRequestParams,
    ttl: unknown,
    options: TaskRequestOptions,
  ): Promise<ProxyTask | { result: CallToolResult | InputRequiredResult }> {
    const call = await this.host.router.resolveToolCall(params, options);
    const support = declaredTaskSupport(call.tool);
    // An overridden call (rewritten arguments, a prompt or resource as a tool) runs here, through callTool.
    const forward =
      !call.overridden &&
      call.rule !== 'ask' &&
      forwardsTasks(call.tool, call.connection.capabilities, call.connection.era);
    if (
      support === 'forbidden' ||
      (!forward && support === undefined && backendRunsTasks(call.connection.capabilities, call.connection.era))
    ) {
      // 2026-07-28: the server decides per request, so such a tool simply answers without a task.
      if (options.frontend?.era === 'modern') return { result: await this.host.router.callTool(params, options) };
      throw new ProtocolError(ProtocolErrorCode.MethodNotFound, `Tool ${params.name} does not support tasks`);
    }
    const owner = {
      client: call.client,
      backendId: call.origin.backendId,
      tool: params.name,
      original: call.origin.original,
    };
    if (forward && backendHasTasksExtension(call.connection.capabilities, call.connection.era))
      return this.work.openModern(call, owner, params, ttl, options);
    let task: ProxyTask;
    try {
      task = this.registry.create(owner, ttl, forward ? 'backend' : 'switchboard');
    } catch (error) {
      // A 2026 client at its cap still gets its call answered, as an ordinary one (no task).
      if (!forward && options.frontend?.era === 'modern')
        return { result: await this.host.router.callTool(params, options) };
      throw toProtocolError(error);
    }
    this.work.runs.set(task.taskId, { connection: call.connection });
    if (forward) {
      try {
        const forwarded = { ...withForwardedMeta(params), name: call.origin.original };
        const created = await createBackendTask(call.connection, forwarded, task.ttlMs, options.signal);
        task.backendTaskId = created.taskId;
        // A 2026 owner's task shows input_required or its end only through the background fetch below.
        if (options.frontend?.era !== 'modern' || created.status === 'working')
          this.work.mirror(task, created.status, created.statusMessage);
      } catch (error) {
        this.registry.drop(task.taskId);
        throw toProtocolError(error);
      }
      if (options.frontend?.era === 'modern') this.work.fetchInBackground(task, call.connection, options);
    } else {
      this.work.runHere(task, params, options);
      if (options.frontend?.era === 'modern') return this.work.quickOrTask(task);
    }
    return task;
  }

  /**
   * A plain tools/call (no task asked for): routed as it is, except a
   * 2026-07-28 client's call of a tool its 2025 server runs only as a task,
   * which we run as that task and answer with its result (plainTaskCall.ts).
   */
  async callPlainly(
    params: CallToolRequestParams,
    options: TaskRequestOptions,
  ): Promise<CallToolResult | InputRequiredResult> {
    if (options.frontend?.era === 'modern') {
      const call = await this.host.router.resolveToolCall(params, options);
      if (!call.overridden && runsOnlyAsBackendTask(call, options.frontend)) {
        const ttlMs = grantedTtl(undefined, this.host.limits());
        return callAsBackendTask(this.host, call, params, ttlMs, options);
      }
    }
    return this.host.router.callTool(params, options);
  }

  /** tasks/get: the task as it stands (a backend's task asked again, unless it ended). */
  async get(taskId: string, client: string, signal?: AbortSignal): Promise<Task> {
    if (this.heldElsewhere(taskId, client)) return wireTask((await this.remoteDetail(taskId, client, signal)).task);
    return wireTask((await this.refresh(this.owned(taskId, client), signal)).task);
  }

  /**
   * 2026-07-28 tasks/get: the task, its open input requests, and (policy
   * permitting) its outcome once done.
   */
  async detail(taskId: string, client: string, signal?: AbortSignal): Promise<TaskDetail> {
    const detail = this.heldElsewhere(taskId, client)
      ? await this.remoteDetail(taskId, client, signal)
      : await this.refresh(this.owned(taskId, client), signal);
    const { task } = detail;
    if (task.outcome && 'result' in task.outcome && !this.host.router.mayCallTool(client, task.tool))
      throw unknownItem('tool', task.tool);
    return detail.inputRequests ? detail : { task, inputRequests: this.work.runs.get(taskId)?.inputs?.requests() };
  }

  /** 2026-07-28 tasks/update: input responses for the task's open requests (keys not open are ignored). */
  async update(taskId: string, client: string, responses: Record<string, unknown>, signal?: AbortSignal) {
    if (this.heldElsewhere(taskId, client)) {
      const shared = await this.sharedTask(taskId, client);
      if (!isTerminal(shared.status))
        await this.store.forward(shared, { op: 'update', taskId, client, responses }, signal);
      return;
    }
    const task = this.owned(taskId, client);
    const run = this.work.runs.get(taskId);
    if (isTerminal(task.status)) return;
    if (run?.modern && task.backendTaskId)
      await updateModernTask(run.connection, task.backendTaskId, responses, signal);
    else run?.inputs?.respond(responses);
  }

  /** Asks the backend how its task stands (unless it ended, or our background fetch follows it). */
  private async refresh(task: ProxyTask, signal?: AbortSignal): Promise<TaskDetail> {
    const run = this.work.runs.get(task.taskId);
    if (task.runsOn !== 'backend' || !task.backendTaskId || !run || run.inputs || isTerminal(task.status))
      return { task };
    try {
      if (!run.modern) {
        const remote = await getBackendTask(run.connection, task.backendTaskId, signal);
        this.work.mirror(task, remote.status, remote.statusMessage);
        return { task };
      }
      const remote = await getModernTask(run.connection, task.backendTaskId, signal);
      this.work.mirrorModern(task, remote);
      return remote.status === 'input_required' ? { task, inputRequests: remote.inputRequests } : { task };
    } catch (error) {
      if (signal?.aborted) throw error;
      this.registry.finish(task.taskId, 'failed', errorOutcome(error), `server ${task.backendId} lost the task`);
      return { task };
    }
  }

  /**
   * tasks/result: waits for the end, relaying an `input_required` task's
   * questions to this request's frontend, and answers what the call
   * answered (with the related-task `_meta`), or its error. A tool the
   * policy denies meanwhile yields no result.
   */
  async result(taskId: string, options: TaskRequestOptions): Promise<CallToolResult> {
    if (this.heldElsewhere(taskId, options.client)) return this.remoteResult(taskId, options);
    const task = this.owned(taskId, options.client);
    // The policy guards what the tool yields (its result, its questions); a failure carries neither.
    const allowed = (): void => {
      if (task.outcome && 'error' in task.outcome) return;
      if (!this.host.router.mayCallTool(options.client, task.tool)) throw unknownItem('tool', task.tool);
    };
    allowed();
    const run = this.work.runs.get(taskId);
    if (!task.outcome && task.runsOn === 'switchboard' && run?.inputs)
      await this.work.answerInputs(task, run.inputs, options);
    else if (!task.outcome && task.backendTaskId && run?.modern)
      await this.work.awaitModern(task, run.connection, options);
    else if (!task.outcome && task.backendTaskId && run && !run.inputs) {
      // An end already seen has its result fetched (or being fetched) with it; else wait for the end here.
      await this.work.outcomeOf(task, options.signal);
      if (!isTerminal(task.status)) await this.work.fetchBackendResult(task, run.connection, options);
    }
    await this.registry.settled(taskId);
    allowed();
    const outcome = task.outcome;
    if (!outcome) throw unknownTask(taskId);
    if ('error' in outcome) throw new ProtocolError(outcome.error.code, outcome.error.message, outcome.error.data);
    return { ...outcome.result, _meta: { ...outcome.result._meta, [RELATED_TASK_META_KEY]: { taskId } } };
  }

  /**
   * Tools as listed to a client, each with the task support we serve
   * (`execution.taskSupport`; see taskSupport.ts). Tools not in the catalog
   * (the search meta-tools) are left as they are.
   */
  listed(tools: Tool[]): Tool[] {
    const catalog = this.host.catalog();
    return tools.map((tool) => {
      const origin = catalog.toolIndex.get(tool.name);
      if (!origin) return tool;
      const connection = this.host.pool.liveConnection(origin.backendId);
      const { capabilities, era } = connection ?? {};
      const runs = capabilities ? backendRunsTasks(capabilities, era) : undefined;
      return withTaskSupport(tool, servedTaskSupport(tool, runs, backendHasTasksExtension(capabilities, era)));
    });
  }

  /**
   * tasks/list: the client's own tasks, newest first. One process holds
   * them all (bounded per client: one page). With replicas the shared
   * index pages through the client's tasks on every replica; a task held
   * here is shown as it stands here (its record may lag a change by a write).
   */
  async list(client: string, cursor?: string): Promise<TaskPage> {
    await this.storeReady;
    if (!this.store.shared) return { tasks: this.registry.list(client) };
    const page = await this.store.page(client, cursor);
    const tasks = page.tasks.map((task) => this.registry.get(task.taskId, client) ?? task);
    return page.nextCursor === undefined ? { tasks } : { tasks, nextCursor: page.nextCursor };
  }

  /**
   * Replicas: follows `client`'s tasks among `taskIds` that another replica
   * runs: each is subscribed to first, then looked up (so no change falls
   * between), and kept only when it is the client's.
   */
  async followElsewhere(taskIds: string[], client: string, listener: (task: ProxyTask) => void): Promise<TaskFollow> {
    await this.storeReady;
    const store = this.store;
    const stops = new Map<string, () => void>();
    const followed: ProxyTask[] = [];
    if (store.shared) {
      const others = taskIds.filter((id) => this.registry.get(id, client) === undefined);
      await Promise.all(
        others.map(async (taskId) => {
          const stop = store.follow(taskId, (task) => {
            if (task.client === client && task.taskId === taskId) listener(task);
          });
          const shared = await store.elsewhere(taskId, client).catch(() => undefined);
          if (!shared) return stop();
          stops.set(taskId, stop);
          followed.push(shared);
        }),
      );
    }
    return { tasks: followed, stop: () => stops.forEach((stop) => stop()) };
  }

  /** tasks/cancel: ends a live task as cancelled (the backend's asked to cancel too); -32602 once terminal. */
  async cancel(taskId: string, client: string): Promise<Task> {
    if (this.heldElsewhere(taskId, client)) {
      const shared = await this.sharedTask(taskId, client);
      if (isTerminal(shared.status))
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Cannot cancel task: already ${shared.status}`);
      return (await this.store.forward(shared, { op: 'cancel', taskId, client })) as Task;
    }
    const task = this.owned(taskId, client);
    if (isTerminal(task.status))
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Cannot cancel task: already ${task.status}`);
    await this.cancelTask(task, 'cancelled by the client');
    return wireTask(task);
  }

  /** Cancels any task by id (the host's own user; no owner check). Returns false when unknown or ended. */
  async cancelById(taskId: string): Promise<boolean> {
    const task = this.registry.find(taskId);
    if (!task || isTerminal(task.status)) return false;
    await this.cancelTask(task, 'cancelled in Switchboard');
    return true;
  }

  /**
   * A backend's health changed: open tasks whose connection is no longer
   * its live one, nor a caller's own it still holds (it crashed, restarted,
   * stopped or was removed) fail now,
   * saying so, instead of waiting for a result that cannot come.
   */
  backendChanged(backendId: string): void {
    // A per-caller server's task runs on its caller's own connection: gone only once that one is.
    const gone = (task: ProxyTask): boolean => {
      const run = this.work.runs.get(task.taskId);
      return run !== undefined && !this.host.pool.holds(backendId, run.connection);
    };
    const message = `server ${backendId} stopped, restarted or was removed while the task ran: its work is lost`;
    for (const task of this.registry.failBackend(backendId, message, gone)) {
      this.work.runs.get(task.taskId)?.abort?.abort(new Error(message));
    }
  }

  /** A backend pushed its task's status (2025-11-25 `notifications/tasks/status`); see TaskWork.pushed. */
  backendPushed(backendId: string, remote: Parameters<TaskWork['pushed']>[1]): void {
    this.work.pushed(backendId, remote);
  }

  /** Drops every task (the core is closing): tasks do not survive a restart. */
  dispose(): void {
    // First: the tasks dropped below stay in the shared records, failed by the others once this replica is gone.
    this.store.close();
    for (const run of this.work.runs.values()) run.abort?.abort(new Error('Switchboard is closing'));
    this.registry.dispose();
  }

  /** Whether a task is not here but may be another replica's (only with replicas). */
  private heldElsewhere(taskId: string, client: string): boolean {
    return this.store.shared && typeof taskId === 'string' && this.registry.get(taskId, client) === undefined;
  }

  /** Another replica's task as kept (failed when its replica is gone); -32602 when unknown or another client's. */
  private async sharedTask(taskId: string, client: string): Promise<SharedTask> {
    const shared = await this.store.elsewhere(taskId, client);
    if (!shared) throw unknownTask(taskId);
    return shared;
  }

  /**
   * Another replica's task as tasks/get shows it: from its record once it
   * ended (a result too large for the record fetched from the owner), from
   * the owner while it runs (its state, its open questions).
   */
  private async remoteDetail(taskId: string, client: string, signal?: AbortSignal): Promise<TaskDetail> {
    const shared = await this.sharedTask(taskId, client);
    if (isTerminal(shared.status)) return { task: await this.withOutcome(shared, signal) };
    try {
      return (await this.store.forward(shared, { op: 'detail', taskId, client }, signal)) as TaskDetail;
    } catch (error) {
      // The owner may have gone meanwhile: its record then says so.
      const again = await this.store.elsewhere(taskId, client).catch(() => undefined);
      if (again && isTerminal(again.status)) return { task: await this.withOutcome(again, signal) };
      throw error;
    }
  }

  /**
   * A record's outcome, fetched from the owner when it was above the record's
   * bound, or when a server's task ended without it (its fetch failed then).
   */
  private async withOutcome(shared: SharedTask, signal?: AbortSignal): Promise<ProxyTask> {
    if (shared.outcome || (shared.outcomeBytes === undefined && shared.runsOn !== 'backend')) return shared;
    const { taskId, client } = shared;
    try {
      const outcome = (await this.store.forward(
        shared,
        { op: 'outcome', taskId, client },
        signal,
      )) as ProxyTask['outcome'];
      return { ...shared, outcome };
    } catch (error) {
      throw new ProtocolError(
        ProtocolErrorCode.InternalError,
        `the task's result (${
          shared.outcomeBytes === undefined
            ? 'not fetched from its server yet'
            : `${shared.outcomeBytes} bytes, above what the shared state keeps`
        }) stays with replica ${shared.replica}, which could not give it: ${(error as Error).message}`,
        { code: 'backend_unavailable', replica: shared.replica },
      );
    }
  }

  /**
   * 2025-11-25 tasks/result of another replica's task: waits for its end
   * (polling its record), then answers as the owner would. Its questions
   * are put only through the owning replica (or answered with 2026 tasks/update).
   */
  private async remoteResult(taskId: string, options: TaskRequestOptions): Promise<CallToolResult> {
    const { client, signal } = options;
    let { task } = await this.remoteDetail(taskId, client, signal);
    while (!isTerminal(task.status)) {
      await pause(Math.min(task.pollIntervalMs, 500), signal);
      ({ task } = await this.remoteDetail(taskId, client, signal));
    }
    const outcome = task.outcome;
    if (!outcome) throw unknownTask(taskId);
    if ('error' in outcome) throw new ProtocolError(outcome.error.code, outcome.error.message, outcome.error.data);
    if (!this.host.router.mayCallTool(client, task.tool)) throw unknownItem('tool', task.tool);
    return { ...outcome.result, _meta: { ...outcome.result._meta, [RELATED_TASK_META_KEY]: { taskId } } };
  }

  /** What this replica does for the others' requests for its tasks (each as a local request of the client). */
  private ownerOps(): OwnerTaskOps {
    const here = (taskId: string, client: string): ProxyTask => {
      const task = this.registry.get(taskId, client);
      if (!task) throw unknownTask(taskId);
      return task;
    };
    return {
      detail: async (taskId, client, signal) => {
        here(taskId, client);
        return this.detail(taskId, client, signal);
      },
      update: async (taskId, client, responses, signal) => {
        here(taskId, client);
        return this.update(taskId, client, responses, signal);
      },
      cancel: async (taskId, client) => {
        here(taskId, client);
        return this.cancel(taskId, client);
      },
      outcome: async (taskId, client, signal) => this.work.outcomeOf(here(taskId, client), signal),
    };
  }

  private owned(taskId: string, client: string): ProxyTask {
    const task = typeof taskId === 'string' ? this.registry.get(taskId, client) : undefined;
    if (!task) throw unknownTask(String(taskId));
    return task;
  }

  private async cancelTask(task: ProxyTask, statusMessage: string): Promise<void> {
    const run = this.work.runs.get(task.taskId);
    this.registry.finish(task.taskId, 'cancelled', CANCELLED_OUTCOME, statusMessage);
    run?.abort?.abort(new Error('task cancelled'));
    if (task.runsOn === 'backend' && task.backendTaskId && run) {
      const cancelling = run.modern ? cancelModernTask : cancelBackendTask;
      await cancelling(run.connection, task.backendTaskId).catch(() => undefined);
    }
  }
}
