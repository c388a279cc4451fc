/**
 * The work behind our tasks (see taskService.ts): the ordinary call we run as
 * a task, a backend task's result fetched through the input relay, a
 * 2026-07-28 backend's task followed by polling, and each backend state
 * mirrored into ours; and a task call to a 2026-07-28 backend, which decides
 * itself whether to make one. One record per task (`runs`) holds its connection and,
 * where it has them, its abort and its open questions. Also what a task request
 * carries (who asks, and from where) and a failure as a task's outcome.
 */
import type { Principal } from '../../catalog/policy/principal.js';
import type { DetailedTaskV2 } from '@modelcontextprotocol/ext-tasks/core/v2';
import {
  isInputRequiredResult,
  ProtocolError,
  ProtocolErrorCode,
  RELATED_TASK_META_KEY,
  type CallToolRequestParams,
  type CallToolResult,
  type InputRequiredResult,
} from '@modelcontextprotocol/server';
import type { BackendConnection } from '../../backends/connection/backendConnection.js';
import type { BackendPool } from '../../backends/supervisor/backendPool.js';
import type { Catalog } from '../../catalog/catalog.js';
import { rewriteToolResult } from '../../catalog/rewrite.js';
import type { FrontendChannel, InputRequestMessage } from '../relay/frontendChannel.js';
import { SHIM_MAX_ROUNDS, type RelayHost } from '../relay/inputRelay.js';
import { withForwardedMeta, type ProgressUpdate } from '../routing/forwarding.js';
import { toProtocolError } from '../routing/protocolErrors.js';
import type { ResolvedCall, Router } from '../routing/router.js';
import { backendTaskResult, endedBackendTaskResult } from './legacyBackendTasks.js';
import { callModernBackend, cancelModernTask, followModernTask, modernOutcome } from './backendTasks.js';
import { CANCELLED_OUTCOME, isTerminal, type ProxyTask, type TaskOutcome, type TaskOwner } from './proxyTask.js';
import { TaskInputs } from './taskInputs.js';
import type { TaskRegistry } from './taskRegistry.js';

/** What the task work needs from the core (the task service's host, less its limits and audit). */
export interface TaskWorkHost extends RelayHost {
  router: Pick<Router, 'callTool' | 'resolveToolCall' | 'mayCallTool'>;
  catalog(): Catalog;
  /** The backends' connections: a backend's live one now, if any (a new one after a restart). */
  pool: Pick<BackendPool, 'liveConnection' | 'holds'>;
}

/** Who asks, and from where (the frontend request making it). */
export interface TaskRequestOptions {
  client: string;
  /** Gateway mode: the signed-in caller (audit entries name them). */
  principal?: Principal | undefined;
  signal?: AbortSignal | undefined;
  frontend?: FrontendChannel | undefined;
  onProgress?: ((progress: ProgressUpdate) => void) | undefined;
}

/** What we keep per task beside the registry: its connection, and for our own runs the abort and the questions. */
export interface Run {
  connection: BackendConnection;
  abort?: AbortController;
  inputs?: TaskInputs;
  /** The backend's task is a 2026-07-28 one (io.modelcontextprotocol/tasks). */
  modern?: boolean;
}

/** A failure as kept in a task's outcome (a JSON-RPC error). */
export function errorOutcome(error: unknown): TaskOutcome {
  const wire = toProtocolError(error);
  if (wire instanceof ProtocolError) return { error: { code: wire.code, message: wire.message, data: wire.data } };
  return { error: { code: ProtocolErrorCode.InternalError, message: (wire as Error)?.message ?? String(wire) } };
}

/** How long a call we run for a 2026-07-28 client may take before it is answered as a task. */
const TASK_GRACE_MS = 1000;

/** The running side of the task service: one per service, sharing its registry. */
export class TaskWork {
  /** Each live task's connection, abort and open questions, by our task id. */
  readonly runs = new Map<string, Run>();
  /** 2025 backends' tasks that ended, their results being fetched (endWithResult), by our task id. */
  private readonly ending = new Map<string, Promise<void>>();

  constructor(
    private readonly host: TaskWorkHost,
    private readonly registry: TaskRegistry,
  ) {}

  /** A task call to a 2026-07-28 backend: it decides whether to make a task (see taskSupport.ts). */
  async openModern(
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
    const answer = await callModernBackend(this.host, call.connection, forwarded, options, call.tool).catch(
      (error: unknown) => {
        throw toProtocolError(error);
      },
    );
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

  /**
   * A call we run for a 2026-07-28 client: the server decides per request
   * whether to answer with a task (ext-tasks spec), so one that ends within
   * TASK_GRACE_MS answers its result (or error) as is, and the task is dropped unseen;
   * one still running (or asking for input) by then is answered as the task.
   */
  async quickOrTask(task: ProxyTask): Promise<ProxyTask | { result: CallToolResult }> {
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

  /**
   * Takes a backend task's state into ours. A 2025-11-25 backend's task that
   * ended ends ours only once its result is fetched (endWithResult), so the
   * end and the result are kept together: in the shared record too, for every
   * replica, and beyond the death of this one.
   */
  mirror(task: ProxyTask, status: ProxyTask['status'], statusMessage?: string): void {
    if (status === 'working' || status === 'input_required')
      return this.registry.setStatus(task.taskId, status, statusMessage);
    const run = this.runs.get(task.taskId);
    if (status !== 'cancelled' && !task.outcome && task.backendTaskId && run && !run.modern)
      return this.endWithResult(task, run.connection, status, statusMessage);
    this.registry.finish(task.taskId, status, status === 'cancelled' ? CANCELLED_OUTCOME : task.outcome, statusMessage);
  }

  /**
   * Fetches the result of a 2025 backend's task that ended (once per task,
   * bounded by the server's request timeout), then ends ours with it. The
   * task shows `working` meanwhile (a few milliseconds: the backend answers
   * an ended task's tasks/result at once). A fetch that fails ends ours
   * without the result, which outcomeOf fetches again when asked.
   */
  private endWithResult(
    task: ProxyTask,
    connection: BackendConnection,
    status: 'completed' | 'failed',
    statusMessage: string | undefined,
  ): void {
    if (this.ending.has(task.taskId)) return;
    const ending = endedBackendTaskResult(connection, task.backendTaskId!).then(
      (result) => this.registry.finish(task.taskId, status, { result: this.keptResult(task, result) }, statusMessage),
      () => this.registry.finish(task.taskId, status, undefined, statusMessage),
    );
    this.ending.set(
      task.taskId,
      ending.then(
        () => void this.ending.delete(task.taskId),
        () => void this.ending.delete(task.taskId),
      ),
    );
  }

  /**
   * An ended task's outcome for tasks/result (here, or asked by another
   * replica): the fetch under way awaited, and a 2025 backend's result
   * fetched when its end came without it (kept, and shared, once fetched).
   */
  async outcomeOf(task: ProxyTask, signal?: AbortSignal): Promise<TaskOutcome | undefined> {
    await this.ending.get(task.taskId);
    const run = this.runs.get(task.taskId);
    if (task.outcome || !isTerminal(task.status) || !task.backendTaskId || !run || run.modern) return task.outcome;
    try {
      const result = await endedBackendTaskResult(run.connection, task.backendTaskId, signal);
      this.registry.keepOutcome(task.taskId, { result: this.keptResult(task, result) });
    } catch (error) {
      if (signal?.aborted) throw toProtocolError(error);
      this.registry.keepOutcome(task.taskId, errorOutcome(error));
    }
    return task.outcome;
  }

  /** A backend's task result as we keep it: its names rewritten, its related-task `_meta` (the backend's id) dropped. */
  private keptResult(task: ProxyTask, result: CallToolResult): CallToolResult {
    const { [RELATED_TASK_META_KEY]: _theirs, ...meta } = result._meta ?? {};
    const rewritten = rewriteToolResult(this.host.catalog(), task.backendId, { ...result, _meta: meta });
    return Object.keys(meta).length ? rewritten : { ...rewritten, _meta: undefined };
  }

  /**
   * A 2025-11-25 backend pushed its task's status (`notifications/tasks/status`):
   * taken into ours as a poll's answer would be, for our tasks on a connection
   * it still holds, its live one or a caller's own (those of a connection since
   * gone are failed by backendChanged).
   * Under a background fetch only `working` counts: the end comes with the result.
   */
  pushed(backendId: string, remote: { taskId: string; status: ProxyTask['status']; statusMessage?: string }): void {
    for (const [taskId, run] of this.runs) {
      const task = this.registry.find(taskId);
      if (task?.backendId !== backendId || task.backendTaskId !== remote.taskId) continue;
      if (run.modern || (remote.status !== 'working' && run.inputs)) continue;
      if (!this.host.pool.holds(backendId, run.connection)) continue;
      this.mirror(task, remote.status, remote.statusMessage);
    }
  }

  /** Runs the ordinary call as our task; its questions wait for the owner's tasks/result. */
  runHere(task: ProxyTask, params: CallToolRequestParams, options: TaskRequestOptions): void {
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
    const channel = inputs.channel(options.frontend);
    this.callInRounds(task, plain, channel, abort.signal, options.onProgress, options.principal).then(
      (result) => this.registry.finish(task.taskId, result.isError === true ? 'failed' : 'completed', { result }),
      (error: unknown) => {
        if (abort.signal.aborted) return;
        this.registry.finish(task.taskId, 'failed', errorOutcome(error), (error as Error)?.message);
      },
    );
  }

  /**
   * The task's call. A 2026-07-28 backend asks for input in its result
   * (`input_required`): each question waits for the owner like a 2025
   * backend's (the channel's `send`), and the call is made again with the
   * answers and the backend's `requestState`, as a 2026 client would.
   */
  private async callInRounds(
    task: ProxyTask,
    params: CallToolRequestParams,
    channel: FrontendChannel,
    signal: AbortSignal,
    onProgress: TaskRequestOptions['onProgress'],
    principal?: Principal,
  ): Promise<CallToolResult> {
    let frontend = channel;
    for (let round = 0; round <= SHIM_MAX_ROUNDS; round++) {
      const result = await this.host.router.callTool(params, {
        client: task.client,
        principal,
        signal,
        frontend,
        onProgress,
        // Nobody waits on this request any more: the task's lifetime bounds it, not requestTimeoutMs.
        timeoutMs: task.ttlMs,
      });
      if (!isInputRequiredResult(result)) return result;
      const questions = Object.entries(result.inputRequests ?? {});
      const answers = await Promise.all(
        questions.map(([, request]) =>
          channel.send(request as InputRequestMessage, { signal, timeout: this.host.inputTimeoutMs() }),
        ),
      );
      frontend = {
        ...channel,
        inputResponses: Object.fromEntries(questions.map(([key], index) => [key, answers[index]])),
        requestState: result.requestState,
      };
    }
    throw new Error(`the tool asked for input more than ${SHIM_MAX_ROUNDS} times`);
  }

  /** Puts our run's questions to the frontend of this tasks/result until the task ends. */
  async answerInputs(task: ProxyTask, inputs: TaskInputs, options: TaskRequestOptions): Promise<void> {
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
  async fetchBackendResult(task: ProxyTask, connection: BackendConnection, options: TaskRequestOptions): Promise<void> {
    try {
      const result = await backendTaskResult(this.host, connection, task.backendTaskId!, {
        signal: options.signal,
        frontend: options.frontend,
        // The end comes below, with the result. A background fetch shows input_required only once
        // the question is ours to show (tasks/get must never see it without it).
        onStatus: (remote) => {
          if (isTerminal(remote.status)) return;
          if (remote.status === 'working' || !this.runs.get(task.taskId)?.inputs)
            this.mirror(task, remote.status, remote.statusMessage);
        },
      });
      const outcome = { result: this.keptResult(task, result) };
      if (!this.registry.finish(task.taskId, result.isError === true ? 'failed' : 'completed', outcome))
        this.registry.keepOutcome(task.taskId, outcome);
    } catch (error) {
      if (options.signal?.aborted) throw toProtocolError(error);
      const outcome = errorOutcome(error);
      if (!this.registry.finish(task.taskId, 'failed', outcome, (error as Error)?.message))
        this.registry.keepOutcome(task.taskId, outcome);
    }
  }

  /** Takes a 2026 backend task's state into ours; a terminal one brings its outcome (the result inline). */
  mirrorModern(task: ProxyTask, remote: DetailedTaskV2): void {
    if (remote.status === 'working' || remote.status === 'input_required')
      return this.registry.setStatus(task.taskId, remote.status, remote.statusMessage);
    const { status, outcome } = modernOutcome(remote, (result) =>
      rewriteToolResult(this.host.catalog(), task.backendId, result),
    );
    this.registry.finish(task.taskId, status, outcome, remote.statusMessage);
  }

  /** A 2025 client's tasks/result for a 2026 backend's task (see followModernTask). */
  awaitModern(task: ProxyTask, connection: BackendConnection, options: TaskRequestOptions): Promise<void> {
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
  fetchInBackground(task: ProxyTask, connection: BackendConnection, options: TaskRequestOptions): void {
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
}
