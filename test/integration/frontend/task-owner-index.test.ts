/**
 * The per-client index of tasks across replicas, against a real Redis: pages
 * come newest first, a page's cursor continues exactly where it ended (tasks
 * created in the same millisecond included, none twice, none skipped), any
 * reader (replica) takes it, and a cursor not handed out is refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCluster, type Cluster } from '../../../electron/core/platform/index.js';
import { ownerIndexKey, readOwnerPage } from '../../../electron/core/frontend/tasks/taskOwnerIndex.js';
import { redisMissing, startRedis, type RedisServer } from '../../helpers/redisServer.js';

const missing = redisMissing();
if (missing && process.env['CI']) throw new Error(missing);

describe.skipIf(missing !== undefined)('the owner index of shared tasks', () => {
  let redis: RedisServer;
  let a: Cluster;
  let b: Cluster;

  beforeAll(async () => {
    redis = await startRedis();
    const open = (replicaId: string) =>
      openCluster(
        {
          redis: { url: '${TEST_REDIS_URL}', keyPrefix: 'index-test:', connectTimeoutMs: 1_000, commandTimeoutMs: 500 },
          replicaId,
        },
        { environment: { TEST_REDIS_URL: redis.url }, warn: () => undefined, secret: () => undefined },
      );
    [a, b] = await Promise.all([open('a'), open('b')]);
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    await redis?.stop();
  });

  it('pages newest first, cursors taken by any reader, ties at one millisecond neither lost nor repeated', async () => {
    // Seven tasks, three of them created in the same millisecond; another client's beside them.
    const created: [string, number][] = [
      ['t1', 1000],
      ['t2', 2000],
      ['t3', 3000],
      ['t4b', 3000],
      ['t4a', 3000],
      ['t5', 4000],
      ['t6', 5000],
    ];
    for (const [id, at] of created) await a.redis.zadd(ownerIndexKey(a, 'alice'), at, id);
    await a.redis.zadd(ownerIndexKey(a, 'bob'), 6000, 'bobs');

    const all = await readOwnerPage(a, 'alice', undefined);
    expect(all.nextCursor).toBeUndefined();
    const newestFirst = all.entries.map((entry) => entry.taskId);
    expect(newestFirst).toEqual(['t6', 't5', 't4b', 't4a', 't3', 't2', 't1']);

    for (const size of [1, 2, 3]) {
      const paged: string[] = [];
      let cursor: string | undefined;
      let reader = 0;
      do {
        // Each page through the other replica: a cursor is valid on any.
        const page = await readOwnerPage(reader++ % 2 === 0 ? a : b, 'alice', cursor, size);
        expect(page.entries.length).toBeLessThanOrEqual(size);
        paged.push(...page.entries.map((entry) => entry.taskId));
        cursor = page.nextCursor;
      } while (cursor !== undefined && reader < 20);
      expect(paged).toEqual(newestFirst);
    }
  });

  it('refuses a cursor it did not hand out', async () => {
    for (const cursor of ['nonsense', Buffer.from('{"c":"x"}').toString('base64url')]) {
      await expect(readOwnerPage(a, 'alice', cursor)).rejects.toMatchObject({ code: -32602 });
    }
  });
});
