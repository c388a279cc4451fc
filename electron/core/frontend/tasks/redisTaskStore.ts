/**
 * Tasks shared by replicas through Redis (the `cluster` section; loaded only
 * then). Each task's record is one key holding its JSON (id, owning client,
 * owning replica, status, and the outcome up to MAX_SHARED_OUTCOME_BYTES),
 * expiring with the task's TTL. The work runs on the replica that created
 * the task; another replica answers from the record once the task ended, and
 * hands everything else (tasks/get of a running task, tasks/update,
 * tasks/cancel, a result too large for the record) to the owner over
 * replicaCalls.ts. Each replica keeps a heartbeat key alive (refreshed every
 * second, expiring after three): a running task whose replica has no
 * heartbeat is failed, saying which replica went away, instead of hanging.
 * Writes lost while Redis is away are made again when it returns.
 *
 * Each client's tasks are also indexed (taskOwnerIndex.ts), so tasks/list
 * through any replica pages through them all, and each status change is
 * published on the task's channel (`tasks:status:<id>`, in the same script
 * as the record's write: no extra round trip) for the listens of other
 * replicas that follow it.
 */
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { Cluster } from '../../platform/cluster/cluster.js';
import { isTerminal, type ProxyTask } from './proxyTask.js';
import { ReplicaCalls } from './replicaCalls.js';
import { forgetIndexed, ownerIndexKey, readOwnerPage } from './taskOwnerIndex.js';
import type { OwnerCall, OwnerTaskOps, SharedTask, SharedTaskPage, TaskStore } from './taskStore.js';

/** The largest outcome (JSON bytes) a record keeps; a larger one stays with the owner, fetched on demand. */
export const MAX_SHARED_OUTCOME_BYTES = 256 * 1024;

/** Timings, overridable for tests and the bench. */
export interface RedisTaskStoreOptions {
  /** How often the heartbeat is refreshed (default 1 s). */
  heartbeatMs?: number;
  /** How long a heartbeat lasts unrefreshed: a replica silent this long is gone (default 3 s). */
  heartbeatTtlMs?: number;
  /** How long a call to the owning replica may take (default 5 s). */
  ownerTimeoutMs?: number;
}

/**
 * Keeps a task's record (KEYS[1]) and its entry in the owner's index
 * (KEYS[2], expiring with its longest-lived task), then publishes the change
 * on the task's channel when one is given (ARGV[5], the record without its
 * outcome in ARGV[6]). ARGV: record JSON, TTL ms, creation time, task id.
 */
const WRITE = `
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[4])
if redis.call('PTTL', KEYS[2]) < tonumber(ARGV[2]) then redis.call('PEXPIRE', KEYS[2], ARGV[2]) end
if ARGV[5] ~= '' then redis.call('PUBLISH', ARGV[5], ARGV[6]) end
return 1`;

/** The error while Redis does not answer (retryable: the replica reconnects by itself). */
function unavailable(what: string, error: unknown): ProtocolError {
  return new ProtocolError(
    ProtocolErrorCode.InternalError,
    `shared state (Redis) unavailable: ${what} (${(error as Error)?.message ?? String(error)}); retry`,
    { code: 'disconnected', retryable: true },
  );
}

/** The key a replica's heartbeat is kept under (present while the replica runs). */
function heartbeatKey(cluster: Cluster, replica: string): string {
  return cluster.key('tasks', 'alive', replica);
}

/** Whether `replica` has a heartbeat now (a Redis failure rejects). */
export async function replicaAlive(cluster: Cluster, replica: string): Promise<boolean> {
  return (await cluster.redis.exists(heartbeatKey(cluster, replica))) === 1;
}

/** The store of replicas; see the module comment. */
export class RedisTaskStore implements TaskStore {
  readonly shared = true;
  private readonly calls: ReplicaCalls;
  private readonly heartbeat: NodeJS.Timeout;
  /** The owner watches of followed tasks (follow): each stops once, and all at close. */
  private readonly watching = new Set<NodeJS.Timeout>();
  private readonly stopStatus: () => void;
  private local: () => ProxyTask[] = () => [];
  private closed = false;
  private readonly heartbeatTtlMs: number;

  constructor(
    private readonly cluster: Cluster,
    options: RedisTaskStoreOptions = {},
  ) {
    this.heartbeatTtlMs = options.heartbeatTtlMs ?? 3_000;
    this.calls = new ReplicaCalls(cluster, options.ownerTimeoutMs ?? 5_000);
    this.beat();
    this.heartbeat = setInterval(() => this.beat(), options.heartbeatMs ?? 1_000);
    this.heartbeat.unref();
    this.stopStatus = cluster.onStatus((status) => {
      if (status === 'up') this.resync();
    });
  }

  attach(ops: OwnerTaskOps, local: () => ProxyTask[]): void {
    this.local = local;
    this.calls.serve((payload, call) => serveOwnerCall(ops, payload as OwnerCall, call.signal));
  }

  async keep(task: ProxyTask): Promise<void> {
    try {
      await this.write(task);
    } catch (error) {
      throw unavailable('the task could not be kept', error);
    }
  }

  changed(task: ProxyTask): void {
    // Lost while Redis is away: made again by resync when it returns.
    void this.write(task, true).catch(() => undefined);
  }

  dropped(task: ProxyTask): void {
    if (this.closed) return;
    void this.cluster.redis
      .multi()
      .del(this.recordKey(task.taskId))
      .zrem(ownerIndexKey(this.cluster, task.client), task.taskId)
      .exec()
      .catch(() => undefined);
  }

  async page(client: string, cursor: string | undefined): Promise<SharedTaskPage> {
    try {
      const { entries, nextCursor } = await readOwnerPage(this.cluster, client, cursor);
      if (entries.length === 0) return { tasks: [], ...(nextCursor ? { nextCursor } : {}) };
      const raws = await this.cluster.redis.mget(entries.map((entry) => this.recordKey(entry.taskId)));
      const kept = raws.flatMap((raw) => (raw ? [JSON.parse(raw) as SharedTask] : []));
      forgetIndexed(
        this.cluster,
        client,
        entries.filter((_, i) => !raws[i]).map((entry) => entry.taskId),
      );
      const tasks = await this.withGoneFailed(kept.filter((task) => task.client === client));
      return { tasks, ...(nextCursor ? { nextCursor } : {}) };
    } catch (error) {
      if (error instanceof ProtocolError) throw error;
      throw unavailable(`the tasks of ${client} on every replica cannot be listed`, error);
    }
  }

  follow(taskId: string, listener: (task: SharedTask) => void): () => void {
    const unsubscribe = this.cluster.subscribe(this.statusChannel(taskId), (raw) => {
      try {
        listener(JSON.parse(raw) as SharedTask);
      } catch {
        // not a record: ignored
      }
    });
    // A replica that dies says nothing: while followed, its heartbeat is looked at each time it could have
    // lapsed, and a task whose replica is gone is told failed, once (two reads per task every heartbeatTtlMs).
    const watch = setInterval(() => {
      void this.failedWithItsReplica(taskId).then(
        (failed) => {
          if (!failed || !this.watching.has(watch)) return;
          stopWatching();
          listener(failed);
        },
        () => undefined,
      );
    }, this.heartbeatTtlMs);
    watch.unref();
    this.watching.add(watch);
    const stopWatching = (): void => {
      clearInterval(watch);
      this.watching.delete(watch);
    };
    return () => {
      stopWatching();
      unsubscribe();
    };
  }

  async elsewhere(taskId: string, client: string): Promise<SharedTask | undefined> {
    let raw: string | null;
    try {
      raw = await this.cluster.redis.get(this.recordKey(taskId));
    } catch (error) {
      throw unavailable(`task ${taskId} may be another replica's`, error);
    }
    if (!raw) return undefined;
    const task = JSON.parse(raw) as SharedTask;
    if (task.client !== client) return undefined;
    if (isTerminal(task.status)) return task;
    // Not held here although this replica made it: it restarted (same name) and the work is lost.
    if (task.replica !== this.cluster.replicaId && (await this.alive(task.replica))) return task;
    return this.markGone(task);
  }

  forward(task: SharedTask, call: OwnerCall, signal?: AbortSignal): Promise<unknown> {
    return this.calls.call(task.replica, call, signal);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.heartbeat);
    for (const watch of this.watching) clearInterval(watch);
    this.watching.clear();
    this.stopStatus();
    this.calls.close();
    // Gone at once: the other replicas fail this replica's open tasks on their next look.
    void this.cluster.redis.del(this.heartbeatKey(this.cluster.replicaId)).catch(() => undefined);
  }

  private recordKey(taskId: string): string {
    return this.cluster.key('tasks', 'task', taskId);
  }

  private statusChannel(taskId: string): string {
    return this.cluster.key('tasks', 'status', taskId);
  }

  /** Running tasks of other replicas that are gone, failed (one look per replica). */
  private async withGoneFailed(tasks: SharedTask[]): Promise<SharedTask[]> {
    const others = new Set(
      tasks
        .filter((task) => !isTerminal(task.status) && task.replica !== this.cluster.replicaId)
        .map((task) => task.replica),
    );
    const gone = new Set<string>();
    for (const replica of others) if (!(await this.alive(replica))) gone.add(replica);
    if (gone.size === 0) return tasks;
    return Promise.all(
      tasks.map((task) => (!isTerminal(task.status) && gone.has(task.replica) ? this.markGone(task) : task)),
    );
  }

  private heartbeatKey(replica: string): string {
    return heartbeatKey(this.cluster, replica);
  }

  private beat(): void {
    const key = this.heartbeatKey(this.cluster.replicaId);
    void this.cluster.redis.set(key, String(Date.now()), 'PX', this.heartbeatTtlMs).catch(() => undefined);
  }

  private async alive(replica: string): Promise<boolean> {
    try {
      return await replicaAlive(this.cluster, replica);
    } catch (error) {
      throw unavailable(`whether replica ${replica} is alive is unknown`, error);
    }
  }

  /**
   * Writes a task's record, expiring with its TTL, and its index entry; an
   * outcome above the bound stays here. `publish`: a status change, told on
   * the task's channel.
   */
  private async write(task: ProxyTask, publish = false): Promise<void> {
    const left = task.createdAt + task.ttlMs - Date.now();
    if (left <= 0) return;
    const record: SharedTask = { ...task, replica: this.cluster.replicaId };
    let json = JSON.stringify(record);
    if (task.outcome && Buffer.byteLength(json) > MAX_SHARED_OUTCOME_BYTES) {
      const outcomeBytes = Buffer.byteLength(JSON.stringify(task.outcome));
      json = JSON.stringify({ ...record, outcome: undefined, outcomeBytes });
    }
    const keys = [this.recordKey(task.taskId), ownerIndexKey(this.cluster, task.client)];
    const change = publish
      ? [this.statusChannel(task.taskId), JSON.stringify({ ...record, outcome: undefined })]
      : ['', ''];
    await this.cluster.redis.eval(
      WRITE,
      2,
      ...keys,
      json,
      String(left),
      String(task.createdAt),
      task.taskId,
      ...change,
    );
  }

  /** Fails a running task whose replica is gone, for every replica to see. */
  /** The task as failed when it is still open and its replica has no heartbeat (kept so); otherwise undefined. */
  private async failedWithItsReplica(taskId: string): Promise<SharedTask | undefined> {
    const raw = await this.cluster.redis.get(this.recordKey(taskId));
    if (!raw) return undefined;
    const task = JSON.parse(raw) as SharedTask;
    if (isTerminal(task.status) || (await replicaAlive(this.cluster, task.replica))) return undefined;
    return this.markGone(task);
  }

  private async markGone(task: SharedTask): Promise<SharedTask> {
    const message = `replica ${task.replica}, which ran this task, stopped (no heartbeat for ${this.heartbeatTtlMs} ms): its work is lost`;
    const failed: SharedTask = {
      ...task,
      status: 'failed',
      statusMessage: message,
      lastUpdatedAt: Date.now(),
      outcome: { error: { code: -32603, message, data: { code: 'backend_unavailable', replica: task.replica } } },
    };
    const left = task.createdAt + task.ttlMs - Date.now();
    if (left > 0)
      await this.cluster.redis
        .set(this.recordKey(task.taskId), JSON.stringify(failed), 'PX', left, 'XX')
        .catch(() => undefined);
    return failed;
  }

  /** Redis is back: the heartbeat and every task of this replica written again (what was lost meanwhile). */
  private resync(): void {
    if (this.closed) return;
    this.beat();
    for (const task of this.local()) void this.write(task).catch(() => undefined);
  }
}

/** Runs one call of another replica on this one (the owner), checking the client as a local request would. */
async function serveOwnerCall(ops: OwnerTaskOps, call: OwnerCall, signal: AbortSignal): Promise<unknown> {
  switch (call.op) {
    case 'detail':
      return ops.detail(call.taskId, call.client, signal);
    case 'update':
      return ops.update(call.taskId, call.client, call.responses, signal);
    case 'cancel':
      return ops.cancel(call.taskId, call.client);
    case 'outcome':
      return ops.outcome(call.taskId, call.client, signal);
    default:
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'unknown call between replicas');
  }
}
