/**
 * Pending approvals shared by two replicas' brokers through a real Redis,
 * with a short heartbeat: an approver attached to one counts on the other; a
 * request held by one is announced to, listed by and answered through the
 * other, once; a replica that stops beating (as a killed one does: its
 * entries stay in Redis) has its requests dropped from the list, and its
 * approver stops counting.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApprovalBroker } from '../../../electron/core/catalog/index.js';
import { ReplicaApprovals } from '../../../electron/core/frontend/tasks/replicaApprovals.js';
import { openCluster, type Cluster } from '../../../electron/core/platform/index.js';
import { waitUntil } from '../../helpers/processes.js';
import { redisMissing, startRedis, type RedisServer } from '../../helpers/redisServer.js';

const missing = redisMissing();
if (missing && process.env['CI']) throw new Error(missing);

/** One replica: its link to Redis, its broker, the shared approvals, and how often the others' changed. */
interface Replica {
  cluster: Cluster;
  broker: ApprovalBroker;
  shared: ReplicaApprovals;
  changes: number;
}

const details = { client: 'local', backend: 'notes', tool: 'read', exposed: 'notes__read', arguments: { path: 'x' } };

describe.skipIf(missing !== undefined)('pending approvals across replicas', () => {
  let redis: RedisServer;
  const replicas: Replica[] = [];

  const replica = async (replicaId: string): Promise<Replica> => {
    const cluster = await openCluster(
      { redis: { url: redis.url, keyPrefix: 'approvals:', connectTimeoutMs: 1_000, commandTimeoutMs: 500 }, replicaId },
      { environment: {}, warn: () => undefined, secret: () => undefined },
    );
    const broker = new ApprovalBroker(30_000);
    const made: Replica = { cluster, broker, shared: undefined as unknown as ReplicaApprovals, changes: 0 };
    made.shared = new ReplicaApprovals(
      cluster,
      { resolve: (id, decision) => broker.resolve(id, decision), changed: () => made.changes++ },
      { heartbeatMs: 100, heartbeatTtlMs: 1_000 },
    );
    broker.shareApprovals(made.shared);
    replicas.push(made);
    return made;
  };

  beforeAll(async () => {
    redis = await startRedis();
  });

  afterAll(async () => {
    for (const { shared, cluster } of replicas) {
      shared.close();
      await cluster.close();
    }
    await redis?.stop();
  });

  it("is listed and answered through the other replica, once; the other's approver counts", async () => {
    const [a, b] = await Promise.all([replica('a'), replica('b')]);
    expect(await a.broker.approverPresent()).toBe(false);
    const detach = b.broker.attach();
    await waitUntil(() => a.broker.approverPresent(), {
      timeoutMs: 5_000,
      intervalMs: 20,
      description: "B's approver",
    });
    const decision = a.broker.request(details);
    await waitUntil(async () => b.changes > 0, { timeoutMs: 5_000, intervalMs: 10, description: 'the notice' });
    const listed = await b.broker.list();
    expect(listed.map((request) => request.exposed)).toEqual(['notes__read']);
    expect(await b.broker.answer(listed[0]!.id, 'deny')).toBe(true);
    expect(await decision).toBe('deny');
    expect(await b.broker.answer(listed[0]!.id, 'once')).toBe(false);
    expect(await b.broker.list()).toEqual([]);
    detach();
    await waitUntil(async () => !(await a.broker.approverPresent()), {
      timeoutMs: 5_000,
      intervalMs: 20,
      description: "B's approver gone",
    });
  });

  it("drops a silent replica's requests and approver within the heartbeat's lifetime, telling the UIs", async () => {
    const [c, d] = await Promise.all([replica('c'), replica('d')]);
    c.broker.attach();
    void c.broker.request(details);
    await waitUntil(async () => (await d.broker.list()).length === 1, {
      timeoutMs: 5_000,
      intervalMs: 20,
      description: "C's request listed by D",
    });
    expect(await d.broker.approverPresent()).toBe(true);
    // D's UI is attached: its heartbeat finds C dead and tells it, without anyone listing.
    const detach = d.broker.attach();
    await waitUntil(async () => d.changes >= 1, { timeoutMs: 5_000, intervalMs: 10, description: "C's notice" });
    const seen = d.changes;
    // C stops as a killed replica would: no release, no more heartbeats.
    c.shared.close();
    await waitUntil(async () => d.changes > seen, { timeoutMs: 5_000, intervalMs: 20, description: 'the notice' });
    expect(await d.cluster.redis.hlen(d.cluster.key('approvals', 'pending'))).toBe(0);
    expect(await d.broker.list()).toEqual([]);
    detach();
    expect(await d.broker.approverPresent()).toBe(false);
  });
});
