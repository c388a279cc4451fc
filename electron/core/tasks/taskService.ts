/**
 * Tasks through the proxy (MCP 2025-11-25 tasks): a task-augmented tools/call
 * becomes a task of ours. To a backend that runs tasks for the tool it goes
 * out as a task and ours maps to the backend's; to any other backend we run
 * the ordinary call ourselves and keep its result until fetched or expired.
 * tasks/get, tasks/result, tasks/list and tasks/cancel answer through the
 * registry, for the owning client profile only. The policy is asked at
 * creation and again at tasks/result; the audit log records creation and
 * end; a backend that goes away fails its open tasks with a clear message.
 */
import type { DetailedTaskV2 } from '@modelcontextprotocol/ext-tasks/core/v2';
import {
  isInputRequiredResult,
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
import type { BackendConnection } from '../backends/backendConnection.js';
import { rewriteToolResult } from '../catalog/rewrite.js';
import { withForwardedMeta } from '../routing/forwarding.js';
import { toProtocolError, unknownItem } from '../routing/protocolErrors.js';
import type { ResolvedCall } from '../routing/router.js';
import { backendTaskResult, cancelBackendTask, createBackendTask, getBackendTask } from './backendTasks.js';
import {
  errorOutcome,
  unknownTask,
  type Run,
  type TaskDetail,
  type TaskRequestOptions,
  type TaskServiceHost,
} from './taskServiceParts.js';
import {
  callModernBackend,
  cancelModernTask,
  followModernTask,
  getModernTask,
  modernOutcome,
  updateModernTask,
} from './modernBackendTasks.js';
import { CANCELLED_OUTCOME, isTerminal, wireTask, type ProxyTask, type TaskOwner } from './proxyTask.js';
import { auditTaskChange } from './taskAudit.js';
import { TaskInputs } from './taskInputs.js';
import { TaskRegistry } from './taskRegistry.js';
import {
  backendHasTasksExtension,
  backendRunsTasks,
  declaredTaskSupport,
  forwardsTasks,
  servedTaskSupport,
  withTaskSupport,
} from './taskSupport.js';

export type { TaskDetail, TaskRequestOptions, TaskServiceHost } from './taskServiceParts.js';

/** How long a call we run for a 2026-07-28 client may take before it is answered as a task. */
const TASK_GRACE_MS = 1000;

/** The tasks of this instance; see the module comment. */
export class TaskService {
  readonly registry: TaskRegistry;
  private readonly runs = new Map<string, Run>();

  constructor(private readonly host: TaskServiceHost) {
    this.registry = new TaskRegistry({ limits: host.limits });
    this.registry.onChange((change) => {
      auditTaskChange(host.audit, change, Date.now());
      if (change.kind === 'dropped') {
        this.runs.get(change.task.taskId)?.abort?.abort(new Error('task expired'));
        this.runs.delete(change.task.taskId);
      }
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
    const call = await this.host.router.resolveToolCall(params, options);
    const support = declaredTaskSupport(call.tool);
    const forward = call.rule !== 'ask' && forwardsTasks(call.tool, call.connection.capabilities, call.connection.era);
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
      return this.openModern(call, owner, params, ttl, options);
    let task: ProxyTask;
    try {
      task = this.registry.create(owner, ttl, forward ? 'backend' : 'switchboard');
    } catch (error) {
      // A 2026 client at its cap still gets its call answered, as an ordinary one (no task).
      if (!forward && options.frontend?.era === 'modern')
        return { result: await this.host.router.callTool(params, options) };
      throw toProtocolError(error);
    }
    this.runs.set(task.taskId, { connection: call.connection });
    if (forward) {
      try {
        const forwarded = { ...withForwardedMeta(params), name: call.origin.original };
        const created = await createBackendTask(call.connection, forwarded, task.ttlMs, options.signal);
        task.backendTaskId = created.taskId;
        // A 2026 owner's task shows input_required or its end only through the background fetch below.
        if (options.frontend?.era !== 'modern' || created.status === 'working')
          this.mirror(task, created.status, created.statusMessage);
      } catch (error) {
        this.registry.drop(task.taskId);
        throw toProtocolError(error);
      }
      if (options.frontend?.era === 'modern') this.fetchInBackground(task, call.connection, options);
    } else {
      this.runHere(task, params, options);
      if (options.frontend?.era === 'modern') return this.quickOrTask(task);
    }
    return task;
  }

  /**
   * A call we run for a 2026-07-28 client: the server decides per request
   * whether to answer with a task (ext-tasks spec), so one that ends within
   * TASK_GRACE_MS answers its result (or error) as is, and the task is dropped unseen;
   * one still running (or asking for input) by then is answered as the task.
   */
  private async quickOrTask(task: ProxyTask): Promise<ProxyTask | { result: CallToolResult }> {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, TASK_GRACE_MS);
      const stop = this.registry.onChange((change) => {
        if (change.task === task && (isTerminal(task.status) || task.status === 'input_required')) done();
      });
      function done(): void {
        clearTimeout(timer);
        stop();
        resolve();
      }
    });
    const outcome = task.outcome;
    if (!isTerminal(task.status) || !outcome) return task;
    this.registry.drop(task.taskId);
    if ('error' in outcome) throw new ProtocolError(outcome.error.code, outcome.error.message, outcome.error.data);
    return { result: outcome.result };
  }

  /** A task call to a 2026-07-28 backend: it decides whether to make a task (see taskSupport.ts). */
  private async openModern(
    call: ResolvedCall,
    owner: TaskOwner,
    params: CallToolRequestParams,
    ttl: unknown,
    options: TaskRequestOptions,
  ): Promise<ProxyTask | { result: CallToolResult | InputRequiredResult }> {
    try {
      this.registry.assertRoom(owner.client);
    } catch (error) {
      throw toProtocolError(error);
    }
    const forwarded = { ...withForwardedMeta(params), name: call.origin.original };
    const answer = await callModernBackend(this.host, call.connection, forwarded, options).catch((error: unknown) => {
      throw toProtocolError(error);
    });
    if (answer.kind === 'result') {
      const { result } = answer;
      if (isInputRequiredResult(result)) {
        if (options.frontend?.era === 'modern') return { result };
        throw new ProtocolError(ProtocolErrorCode.InternalError, `server ${owner.backendId} asked for input first`);
      }
      const rewritten = rewriteToolResult(this.host.catalog(), owner.backendId, result);
      if (options.frontend?.era === 'modern') return { result: rewritten };
      // A 2025 client asked for a task: ours, finished at once with the backend's answer.
      const task = this.registry.create(owner, ttl, 'switchboard');
      this.registry.finish(task.taskId, result.isError === true ? 'failed' : 'completed', { result: rewritten });
      return task;
    }
    let task: ProxyTask;
    try {
      task = this.registry.create(owner, ttl, 'backend');
    } catch (error) {
      await cancelModernTask(call.connection, answer.taskId).catch(() => undefined);
      throw toProtocolError(error);
    }
    task.backendTaskId = answer.taskId;
    this.runs.set(task.taskId, { connection: call.connection, modern: true });
    this.mirror(task, answer.status, answer.statusMessage);
    return task;
  }

  /** tasks/get: the task as it stands (a backend's task asked again, unless it ended). */
  async get(taskId: string, client: string, signal?: AbortSignal): Promise<Task> {
    return wireTask((await this.refresh(this.owned(taskId, client), signal)).task);
  }

  /**
   * 2026-07-28 tasks/get: the task, its open input requests, and (policy
   * permitting) its outcome once done.
   */
  async detail(taskId: string, client: string, signal?: AbortSignal): Promise<TaskDetail> {
    const detail = await this.refresh(this.owned(taskId, client), signal);
    const { task } = detail;
    if (task.outcome && 'result' in task.outcome && !this.host.router.mayCallTool(client, task.tool))
      throw unknownItem('tool', task.tool);
    return detail.inputRequests ? detail : { task, inputRequests: this.runs.get(taskId)?.inputs?.requests() };
  }

  /** 2026-07-28 tasks/update: input responses for the task's open requests (keys not open are ignored). */
  async update(taskId: string, client: string, responses: Record<string, unknown>, signal?: AbortSignal) {
    const task = this.owned(taskId, client);
    const run = this.runs.get(taskId);
    if (isTerminal(task.status)) return;
    if (run?.modern && task.backendTaskId)
      await updateModernTask(run.connection, task.backendTaskId, responses, signal);
    else run?.inputs?.respond(responses);
  }

  /** Asks the backend how its task stands (unless it ended, or our background fetch follows it). */
  private async refresh(task: ProxyTask, signal?: AbortSignal): Promise<TaskDetail> {
    const run = this.runs.get(task.taskId);
    if (task.runsOn !== 'backend' || !task.backendTaskId || !run || run.inputs || isTerminal(task.status))
      return { task };
    try {
      if (!run.modern) {
        const remote = await getBackendTask(run.connection, task.backendTaskId, signal);
        this.mirror(task, remote.status, remote.statusMessage);
        return { task };
      }
      const remote = await getModernTask(run.connection, task.backendTaskId, signal);
      this.mirrorModern(task, remote);
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
    const task = this.owned(taskId, options.client);
    // The policy guards what the tool yields (its result, its questions); a failure carries neither.
    const allowed = (): void => {
      if (task.outcome && 'error' in task.outcome) return;
      if (!this.host.router.mayCallTool(options.client, task.tool)) throw unknownItem('tool', task.tool);
    };
    allowed();
    const run = this.runs.get(taskId);
    if (!task.outcome && task.runsOn === 'switchboard' && run?.inputs)
      await this.answerInputs(task, run.inputs, options);
    else if (!task.outcome && task.backendTaskId && run?.modern) await this.awaitModern(task, run.connection, options);
    else if (!task.outcome && task.backendTaskId && run && !run.inputs)
      await this.fetchBackendResult(task, run.connection, options);
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
      const connection = this.host.connection(origin.backendId);
      const { capabilities, era } = connection ?? {};
      const runs = capabilities ? backendRunsTasks(capabilities, era) : undefined;
      return withTaskSupport(tool, servedTaskSupport(tool, runs, backendHasTasksExtension(capabilities, era)));
    });
  }

  /** tasks/list: the client's own tasks, newest first. */
  list(client: string): Task[] {
    return this.registry.list(client).map(wireTask);
  }

  /** tasks/cancel: ends a live task as cancelled (the backend's asked to cancel too); -32602 once terminal. */
  async cancel(taskId: string, client: string): Promise<Task> {
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
   * its live one (it crashed, restarted, stopped or was removed) fail now,
   * saying so, instead of waiting for a result that cannot come.
   */
  backendChanged(backendId: string): void {
    const live = this.host.connection(backendId);
    const gone = (task: ProxyTask): boolean => {
      const run = this.runs.get(task.taskId);
      return run !== undefined && run.connection !== live;
    };
    const message = `server ${backendId} stopped, restarted or was removed while the task ran: its work is lost`;
    for (const task of this.registry.failBackend(backendId, message, gone)) {
      this.runs.get(task.taskId)?.abort?.abort(new Error(message));
    }
  }

  /** Drops every task (the core is closing): tasks do not survive a restart. */
  dispose(): void {
    for (const run of this.runs.values()) run.abort?.abort(new Error('Switchboard is closing'));
    this.registry.dispose();
  }

  private owned(taskId: string, client: string): ProxyTask {
    const task = typeof taskId === 'string' ? this.registry.get(taskId, client) : undefined;
    if (!task) throw unknownTask(String(taskId));
    return task;
  }

  /** Takes a backend task's state into ours; a terminal one ends ours (its result stays with the backend). */
  private mirror(task: ProxyTask, status: ProxyTask['status'], statusMessage?: string): void {
    if (status === 'working' || status === 'input_required')
      this.registry.setStatus(task.taskId, status, statusMessage);
    else this.registry.finish(task.taskId, status, undefined, statusMessage);
  }

  /** Runs the ordinary call as our task; its questions wait for the owner's tasks/result. */
  private runHere(task: ProxyTask, params: CallToolRequestParams, options: TaskRequestOptions): void {
    const abort = new AbortController();
    const inputs = new TaskInputs((waiting) =>
      this.registry.setStatus(task.taskId, waiting ? 'input_required' : 'working'),
    );
    this.runs.set(task.taskId, { ...this.runs.get(task.taskId)!, abort, inputs });
    const plain = {
      name: params.name,
      ...(params.arguments ? { arguments: params.arguments } : {}),
      ...(params._meta ? { _meta: params._meta } : {}),
    };
    this.host.router
      .callTool(plain, {
        client: task.client,
        signal: abort.signal,
        frontend: inputs.channel(options.frontend),
        onProgress: options.onProgress,
        // Nobody waits on this request any more: the task's lifetime bounds it, not requestTimeoutMs.
        timeoutMs: task.ttlMs,
      })
      .then(
        (result) => {
          if (isInputRequiredResult(result)) throw new Error('the tool asked for input a task cannot relay');
          this.registry.finish(task.taskId, result.isError === true ? 'failed' : 'completed', { result });
        },
        (error: unknown) => {
          if (abort.signal.aborted) return;
          this.registry.finish(task.taskId, 'failed', errorOutcome(error), (error as Error)?.message);
        },
      )
      .catch((error: unknown) =>
        this.registry.finish(task.taskId, 'failed', errorOutcome(error), (error as Error)?.message),
      );
  }

  /** Puts our run's questions to the frontend of this tasks/result until the task ends. */
  private async answerInputs(task: ProxyTask, inputs: TaskInputs, options: TaskRequestOptions): Promise<void> {
    const ended = this.registry.settled(task.taskId);
    const stop = options.signal
      ? new Promise<void>((resolve) => options.signal!.addEventListener('abort', () => resolve(), { once: true }))
      : undefined;
    const until = stop ? Promise.race([ended, stop]) : ended;
    for (let input = await inputs.next(until); input; input = await inputs.next(until)) {
      if (!options.frontend) {
        input.fail(new ProtocolError(ProtocolErrorCode.InvalidRequest, 'no client to answer the task'));
        continue;
      }
      const signal = options.signal ?? new AbortController().signal;
      await TaskInputs.relay(input, options.frontend, task.taskId, { signal, timeout: this.host.inputTimeoutMs() });
    }
    if (options.signal?.aborted) throw options.signal.reason;
  }

  /** Fetches a backend task's result through the input relay, and keeps it as our outcome. */
  private async fetchBackendResult(
    task: ProxyTask,
    connection: BackendConnection,
    options: TaskRequestOptions,
  ): Promise<void> {
    try {
      const result = await backendTaskResult(this.host, connection, task.backendTaskId!, {
        signal: options.signal,
        frontend: options.frontend,
        // A background fetch ends the task itself, with the result, and shows input_required only
        // once the question is ours to show (tasks/get must never see either without it).
        onStatus: (remote) => {
          if (remote.status === 'working' || !this.runs.get(task.taskId)?.inputs)
            this.mirror(task, remote.status, remote.statusMessage);
        },
      });
      const { [RELATED_TASK_META_KEY]: _theirs, ...meta } = result._meta ?? {};
      const rewritten = rewriteToolResult(this.host.catalog(), task.backendId, { ...result, _meta: meta });
      task.outcome = { result: Object.keys(meta).length ? rewritten : { ...rewritten, _meta: undefined } };
      this.registry.finish(task.taskId, result.isError === true ? 'failed' : 'completed', task.outcome);
    } catch (error) {
      if (options.signal?.aborted) throw toProtocolError(error);
      task.outcome ??= errorOutcome(error);
      this.registry.finish(task.taskId, 'failed', task.outcome, (error as Error)?.message);
    }
  }

  /** Takes a 2026 backend task's state into ours; a terminal one brings its outcome (the result inline). */
  private mirrorModern(task: ProxyTask, remote: DetailedTaskV2): void {
    if (remote.status === 'working' || remote.status === 'input_required')
      return this.registry.setStatus(task.taskId, remote.status, remote.statusMessage);
    const { status, outcome } = modernOutcome(remote, (result) =>
      rewriteToolResult(this.host.catalog(), task.backendId, result),
    );
    this.registry.finish(task.taskId, status, outcome, remote.statusMessage);
  }

  /** A 2025 client's tasks/result for a 2026 backend's task (see followModernTask). */
  private awaitModern(task: ProxyTask, connection: BackendConnection, options: TaskRequestOptions): Promise<void> {
    return followModernTask(connection, task.backendTaskId!, {
      taskId: task.taskId,
      signal: options.signal ?? new AbortController().signal,
      frontend: options.frontend,
      inputTimeoutMs: this.host.inputTimeoutMs(),
      seen: (remote) => this.mirrorModern(task, remote),
      ended: () => isTerminal(task.status),
    });
  }

  /** A 2026 frontend's task of a 2025 backend: fetch its result now, its questions waiting for tasks/update. */
  private fetchInBackground(task: ProxyTask, connection: BackendConnection, options: TaskRequestOptions): void {
    const abort = new AbortController();
    const inputs = new TaskInputs((waiting) =>
      this.registry.setStatus(task.taskId, waiting ? 'input_required' : 'working'),
    );
    this.runs.set(task.taskId, { connection, abort, inputs });
    const frontend = inputs.channel(options.frontend);
    void this.fetchBackendResult(task, connection, { client: task.client, signal: abort.signal, frontend }).catch(
      () => undefined,
    );
  }

  private async cancelTask(task: ProxyTask, statusMessage: string): Promise<void> {
    const run = this.runs.get(task.taskId);
    this.registry.finish(task.taskId, 'cancelled', CANCELLED_OUTCOME, statusMessage);
    run?.abort?.abort(new Error('task cancelled'));
    if (task.runsOn === 'backend' && task.backendTaskId && run) {
      const cancelling = run.modern ? cancelModernTask : cancelBackendTask;
      await cancelling(run.connection, task.backendTaskId).catch(() => undefined);
    }
  }
}
