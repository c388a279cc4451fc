/**
 * A replica's link to the shared state, against a real Redis: commands,
 * change notices and a lock across replicas while it is up; while it is
 * down, commands fail at once (never hang a request) and the status says
 * so; when it returns, the link recovers by itself, subscriptions included.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCluster, type Cluster } from '../../../electron/core/platform/index.js';
import { redisMissing, startRedis, type RedisServer } from '../../helpers/redisServer.js';
import { waitUntil } from '../../helpers/processes.js';

const missing = redisMissing();
if (missing && process.env['CI']) throw new Error(missing);

describe.skipIf(missing !== undefined)('cluster: the link to Redis', () => {
  let redis: RedisServer;
  let a: Cluster;
  let b: Cluster;
  const warnings: string[] = [];
  const secrets: string[] = [];

  beforeAll(async () => {
    redis = await startRedis();
    const open = (replicaId: string) =>
      openCluster(
        {
          redis: { url: '${TEST_REDIS_URL}', keyPrefix: 'test:', connectTimeoutMs: 1_000, commandTimeoutMs: 500 },
          replicaId,
        },
        {
          environment: { TEST_REDIS_URL: redis.url },
          warn: (message) => warnings.push(message),
          secret: (value) => secrets.push(value),
        },
      );
    [a, b] = await Promise.all([open('a'), open('b')]);
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    await redis?.stop();
  });

  it('is up, prefixes keys, and carries a change notice from one replica to another', async () => {
    expect(a.status).toBe('up');
    expect(a.key('tasks', 't1')).toBe('test:tasks:t1');
    await a.redis.set(a.key('k'), 'v');
    expect(await b.redis.get(b.key('k'))).toBe('v');
    const heard: string[] = [];
    b.subscribe(b.key('changes'), (message) => heard.push(message));
    await waitUntil(
      async () => {
        await a.publish(a.key('changes'), 'policy');
        return heard.length > 0;
      },
      { timeoutMs: 3_000, intervalMs: 100 },
    );
    expect(heard[0]).toBe('policy');
  });

  it('a lock across replicas: one holder at a time, a bounded wait, work aborted before the lock ends', async () => {
    const name = a.key('lock', 'refresh');
    const order: string[] = [];
    let release!: () => void;
    const releasing = new Promise<void>((resolve) => (release = resolve));
    const first = a.exclusive(name, { ttlMs: 5_000, waitMs: 1_000 }, async () => {
      order.push('a in');
      await releasing;
      order.push('a out');
    });
    await waitUntil(() => order.includes('a in'), { timeoutMs: 2_000, description: 'a holds the lock' });
    await expect(b.exclusive(name, { ttlMs: 5_000, waitMs: 200 }, async () => order.push('b early'))).rejects.toThrow(
      /could not be had/,
    );
    const second = b.exclusive(name, { ttlMs: 5_000, waitMs: 3_000 }, async () => order.push('b in'));
    release();
    await Promise.all([first, second]);
    expect(order).toEqual(['a in', 'a out', 'b in']);
    // Work outliving its lock is aborted before the lock's time is up.
    const started = Date.now();
    const aborted = await a.exclusive(
      name,
      { ttlMs: 800, waitMs: 0 },
      (signal) =>
        new Promise<number>((resolve) => signal.addEventListener('abort', () => resolve(Date.now() - started))),
    );
    expect(aborted).toBeLessThan(800);
  });

  it('while Redis is down, says so and fails commands at once; recovers when it returns', async () => {
    await redis.pause();
    await waitUntil(() => a.status === 'down', { timeoutMs: 3_000, description: 'status down' });
    const started = Date.now();
    await expect(a.redis.get(a.key('k'))).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(600);
    await redis.start();
    await waitUntil(() => a.status === 'up' && b.status === 'up', { timeoutMs: 5_000, description: 'status up again' });
    // Written with append-only persistence before the stop: still there.
    expect(await a.redis.get(a.key('k'))).toBe('v');
    const heard: string[] = [];
    b.subscribe(b.key('after'), (message) => heard.push(message));
    await waitUntil(
      async () => {
        await a.publish(a.key('after'), 'again');
        return heard.includes('again');
      },
      { timeoutMs: 3_000, intervalMs: 100, description: 'a notice after the restart' },
    );
    expect(warnings.some((line) => /Redis is down/.test(line))).toBe(true);
  });

  it('refuses a URL variable that is not set, naming the field', async () => {
    await expect(
      openCluster(
        { redis: { url: '${NOT_SET_ANYWHERE}', keyPrefix: 'x:', connectTimeoutMs: 100, commandTimeoutMs: 100 } },
        { environment: {}, warn: () => undefined, secret: () => undefined },
      ),
    ).rejects.toThrow(/cluster\.redis\.url: environment variable \$\{NOT_SET_ANYWHERE\} is not set/);
  });
});
