/**
 * The UI's sessions shared in a real Redis (Debian's redis-server), by three
 * replicas' session tables in this process, each on its own connection as
 * three `serve` processes would be: `gateway.ui.maxSessions` bounds the whole
 * cluster, not each replica's copy. Past the bound the oldest session ends on
 * every replica, as a sign-out does (the replica holding it hears so at once);
 * a sign-out frees its place.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCluster, type Cluster } from '../../../electron/core/platform/index.js';
import { redisUiSessions } from '../../../electron/host/redisUiSessions.js';
import { OPERATOR, UiSessions } from '../../../electron/host/uiSessions.js';
import { waitUntil } from '../../helpers/processes.js';
import { redisMissing, startRedis, type RedisServer } from '../../helpers/redisServer.js';

const missing = redisMissing();
if (missing && process.env['CI']) throw new Error(missing);

const MAX = 2;
const HOUR = 3_600_000;

describe.skipIf(missing !== undefined)('UI sessions shared in Redis', () => {
  let redis: RedisServer;
  const clusters: Cluster[] = [];
  const stops: (() => void)[] = [];
  /** Three replicas' tables, each sharing through its own connection. */
  let replicas: UiSessions[] = [];

  beforeAll(async () => {
    redis = await startRedis();
    for (let i = 0; i < 3; i++) {
      const cluster = await openCluster(
        {
          redis: { url: redis.url, keyPrefix: 'ui-test:', connectTimeoutMs: 2_000, commandTimeoutMs: 1_000 },
          replicaId: `r${i}`,
        },
        { environment: process.env, warn: () => undefined, secret: () => undefined },
      );
      clusters.push(cluster);
      const sessions = new UiSessions(MAX);
      stops.push(sessions.share(redisUiSessions(cluster)));
      replicas.push(sessions);
    }
  }, 30_000);

  afterAll(async () => {
    for (const stop of stops) stop();
    await Promise.allSettled(clusters.map((cluster) => cluster.close()));
    await redis?.stop();
  });

  /** Whether replica `on` finds the session of cookie `id`, as a page load there would. */
  const valid = async (on: UiSessions, id: string): Promise<boolean> => {
    await on.refresh(id);
    return on.get(id) !== undefined;
  };

  it('bounds the sessions of every replica together: the oldest ends everywhere, at once where it was held', async () => {
    const [a, b, c] = replicas as [UiSessions, UiSessions, UiSessions];
    const first = await a.open(OPERATOR, HOUR);
    await new Promise((resolve) => setTimeout(resolve, 5)); // a later expiry: the second is younger
    const second = await b.open(OPERATOR, HOUR);
    expect(await valid(c, first)).toBe(true);
    let endedOnA = 0;
    const stop = a.onEndedElsewhere(() => endedOnA++);
    try {
      // Each replica's copy holds one or two: only the cluster's count reaches the bound.
      const third = await c.open(OPERATOR, HOUR);
      await waitUntil(() => endedOnA === 1, { timeoutMs: 2_000, description: 'A hears its session ended' });
      expect(a.get(first)).toBeUndefined();
      for (const replica of replicas) {
        expect(await valid(replica, first)).toBe(false);
        expect(await valid(replica, second)).toBe(true);
        expect(await valid(replica, third)).toBe(true);
      }
      // A sign-out frees its place: the next session ends nobody's.
      expect(await b.close(second)).toBe(true);
      const fourth = await a.open(OPERATOR, HOUR);
      for (const replica of replicas) {
        expect(await valid(replica, third)).toBe(true);
        expect(await valid(replica, fourth)).toBe(true);
      }
    } finally {
      stop();
    }
  });
});
