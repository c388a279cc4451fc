/**
 * Pending `ask` approvals shared by replicas through Redis (the `cluster`
 * section; loaded only then). A call waits on the replica that took it; its
 * request is kept in one hash (`approvals:pending`, field: the request's id,
 * value: the holding replica and the request), so every replica's UI lists
 * it, and a notice on `approvals-changed` tells the other replicas' UIs to
 * look again. An answer given through another replica is sent to the
 * holder over replicaCalls.ts, whose broker takes it once (a second answer
 * finds nothing pending). Liveness: a replica holding requests, or with an
 * approver (a UI) attached, keeps its expiry time in a sorted set
 * (`approvals:holders`, `approvals:approvers`), refreshed every second and
 * lasting three: a dead replica's requests drop out of every list, and its
 * approvers stop counting. A replica with a UI attached removes the dead
 * ones it finds on its heartbeat and tells every UI to look again. Writes
 * lost while Redis is away are made again when it returns.
 */
import type { Cluster } from '../../platform/cluster/cluster.js';
import type { ApprovalDecision, ApprovalRequest, SharedApprovals } from '../../catalog/policy/approvals.js';
import { ReplicaCalls } from './replicaCalls.js';

/** Timings, overridable for tests. */
export interface ReplicaApprovalsOptions {
  /** How often a replica's liveness is refreshed (default 1 s). */
  heartbeatMs?: number;
  /** How long it lasts unrefreshed: a replica silent this long is gone (default 3 s). */
  heartbeatTtlMs?: number;
  /** How long the holder may take to take an answer (default 5 s). */
  answerTimeoutMs?: number;
}

/** What this replica's broker does for the others. */
export interface ApprovalHolder {
  /** Answers a request held here; false if it is no longer pending. */
  resolve(id: string, decision: ApprovalDecision): boolean;
  /** Another replica's pending approvals changed (the UI looks again). */
  changed(): void;
}

/** One pending request as the hash keeps it. */
interface Entry {
  replica: string;
  request: ApprovalRequest;
}

/** An answer sent to the holder. */
interface AnswerCall {
  id: string;
  decision: ApprovalDecision;
}

/** The shared approvals of one replica; see the module comment. */
export class ReplicaApprovals implements SharedApprovals {
  private readonly calls: ReplicaCalls;
  private readonly own = new Map<string, ApprovalRequest>();
  private attached = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly stop: (() => void)[] = [];
  private readonly heartbeatMs: number;
  private readonly heartbeatTtlMs: number;
  private readonly keys: { pending: string; holders: string; approvers: string; channel: string };

  constructor(
    private readonly cluster: Cluster,
    private readonly holder: ApprovalHolder,
    options: ReplicaApprovalsOptions = {},
  ) {
    this.heartbeatMs = options.heartbeatMs ?? 1_000;
    this.heartbeatTtlMs = options.heartbeatTtlMs ?? 3_000;
    this.keys = {
      pending: cluster.key('approvals', 'pending'),
      holders: cluster.key('approvals', 'holders'),
      approvers: cluster.key('approvals', 'approvers'),
      channel: cluster.key('approvals-changed'),
    };
    this.calls = new ReplicaCalls(cluster, options.answerTimeoutMs ?? 5_000, 'approvals', 'holds this approval');
    this.calls.serve(async (payload) => {
      const { id, decision } = payload as AnswerCall;
      return holder.resolve(id, decision);
    });
    this.stop.push(
      cluster.subscribe(this.keys.channel, (from) => {
        if (from !== cluster.replicaId) holder.changed();
      }),
      cluster.onStatus((status) => {
        if (status === 'up') this.resync();
      }),
    );
  }

  held(request: ApprovalRequest): void {
    this.own.set(request.id, request);
    this.schedule();
    const entry: Entry = { replica: this.cluster.replicaId, request };
    void this.cluster.redis
      .multi()
      .zadd(this.keys.holders, this.expiry(), this.cluster.replicaId)
      .hset(this.keys.pending, request.id, JSON.stringify(entry))
      .publish(this.keys.channel, this.cluster.replicaId)
      .exec()
      .catch(() => undefined);
  }

  released(id: string): void {
    this.own.delete(id);
    this.schedule();
    const batch = this.cluster.redis.multi().hdel(this.keys.pending, id);
    // Holding nothing more: out of the holders, not taken for dead when its heartbeat stops.
    if (this.own.size === 0) batch.zrem(this.keys.holders, this.cluster.replicaId);
    void batch
      .publish(this.keys.channel, this.cluster.replicaId)
      .exec()
      .catch(() => undefined);
  }

  approvers(count: number): void {
    this.attached = count;
    this.schedule();
    const { redis, replicaId } = this.cluster;
    const write =
      count > 0
        ? redis.zadd(this.keys.approvers, this.expiry(), replicaId)
        : redis.zrem(this.keys.approvers, replicaId);
    void write.catch(() => undefined);
  }

  async others(): Promise<ApprovalRequest[]> {
    const { redis, replicaId } = this.cluster;
    const [entries, alive] = await Promise.all([
      redis.hgetall(this.keys.pending),
      redis.zrangebyscore(this.keys.holders, Date.now(), '+inf'),
    ]);
    const live = new Set(alive);
    const requests: ApprovalRequest[] = [];
    const gone: string[] = [];
    for (const [id, text] of Object.entries(entries)) {
      const entry = parse(text);
      if (entry?.replica === replicaId) continue;
      if (entry && live.has(entry.replica)) requests.push(entry.request);
      else gone.push(id);
    }
    // A dead replica's requests are removed by whoever sees them first.
    if (gone.length > 0) await redis.hdel(this.keys.pending, ...gone).catch(() => undefined);
    return requests.sort((a, b) => a.requestedAt.localeCompare(b.requestedAt));
  }

  async answer(id: string, decision: ApprovalDecision): Promise<boolean> {
    const { redis, replicaId } = this.cluster;
    const entry = parse((await redis.hget(this.keys.pending, id)) ?? '');
    if (!entry || entry.replica === replicaId) return false;
    const until = await redis.zscore(this.keys.holders, entry.replica);
    if (until === null || Number(until) < Date.now()) return false;
    const call: AnswerCall = { id, decision };
    return (await this.calls.call(entry.replica, call)) === true;
  }

  async approverAnywhere(): Promise<boolean> {
    return (await this.cluster.redis.zcount(this.keys.approvers, Date.now(), '+inf')) > 0;
  }

  /** Stops the heartbeat and the listening (the end of `serve`). */
  close(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    for (const stop of this.stop.splice(0)) stop();
    this.calls.close();
  }

  private expiry(): number {
    return Date.now() + this.heartbeatTtlMs;
  }

  /** The heartbeat runs while this replica holds requests or has approvers, and only then. */
  private schedule(): void {
    const needed = this.own.size > 0 || this.attached > 0;
    if (needed && !this.timer) {
      this.timer = setInterval(() => this.beat(), this.heartbeatMs);
      this.timer.unref();
    } else if (!needed && this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  private beat(): void {
    void this.beatOnce().catch(() => undefined);
  }

  private async beatOnce(): Promise<void> {
    const { redis, replicaId } = this.cluster;
    // Taken for dead meanwhile (a long pause, Redis away): this replica's requests are written again.
    if (this.own.size > 0 && (await redis.zadd(this.keys.holders, this.expiry(), replicaId)) === 1) this.resync();
    if (this.attached > 0) {
      await redis.zadd(this.keys.approvers, this.expiry(), replicaId);
      await this.sweepDead();
    }
  }

  /**
   * A replica with a UI attached looks for holders whose heartbeat ran out:
   * the one that removes them drops their requests and tells every UI.
   */
  private async sweepDead(): Promise<void> {
    const { redis, replicaId } = this.cluster;
    const now = Date.now();
    await redis.zremrangebyscore(this.keys.approvers, '-inf', now);
    const dead = await redis.zrangebyscore(this.keys.holders, '-inf', now);
    if (dead.length === 0 || (await redis.zrem(this.keys.holders, ...dead)) === 0) return;
    await this.others();
    this.holder.changed();
    await this.cluster.publish(this.keys.channel, replicaId);
  }

  /** Makes again what Redis may have missed while it was away. */
  private resync(): void {
    for (const request of this.own.values()) this.held(request);
    this.approvers(this.attached);
  }
}

function parse(text: string): Entry | undefined {
  try {
    const entry = JSON.parse(text) as Entry;
    return typeof entry?.replica === 'string' && typeof entry.request?.id === 'string' ? entry : undefined;
  } catch {
    return undefined;
  }
}
