/**
 * A replica's link to the shared state, against a real Redis: commands,
 * change notices and a lock across replicas while it is up; while it is
 * down, commands fail at once (never hang a request) and the status says
 * so; when it returns, the link recovers by itself, subscriptions included.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigStore, openCluster, redisConfigDocument, type Cluster } from '../../../electron/core/platform/index.js';
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

  let dir: string;
  const clusters: Cluster[] = [];
  const stores: ConfigStore[] = [];
  const open = async (replicaId: string, keyPrefix = 'test:') => {
    const cluster = await openCluster(
      {
        redis: { url: '${TEST_REDIS_URL}', keyPrefix, connectTimeoutMs: 1_000, commandTimeoutMs: 500 },
        replicaId,
      },
      {
        environment: { TEST_REDIS_URL: redis.url },
        warn: (message) => warnings.push(message),
        secret: (value) => secrets.push(value),
      },
    );
    clusters.push(cluster);
    return cluster;
  };
  /** A replica's config store on `file`, sharing the document as serve does, and the configs it applied since. */
  const replicaConfig = async (file: string, cluster: Cluster) => {
    const store = new ConfigStore(file, undefined, { stateDir: join(dir, 'state') });
    stores.push(store);
    const unreachable: unknown[] = [];
    const first = await store.share(redisConfigDocument(cluster), (error) => unreachable.push(error));
    const applied: Awaited<ReturnType<ConfigStore['read']>>[] = [];
    store.watch(
      (stored) => applied.push(stored),
      () => undefined,
    );
    return { store, first, applied, unreachable, last: () => applied.at(-1)?.config };
  };
  const configText = (proxy: Record<string, unknown> = {}) => JSON.stringify({ mcpServers: {}, proxy }, null, 2);

  beforeAll(async () => {
    redis = await startRedis();
    dir = await mkdtemp(join(tmpdir(), 'sb-cluster-config-'));
    [a, b] = await Promise.all([open('a'), open('b')]);
  });
  afterAll(async () => {
    for (const store of stores) store.unwatch();
    await Promise.all(clusters.map((cluster) => cluster.close()));
    await redis?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
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
    await expect(a.exclusive(a.key('lock', 'x'), { ttlMs: 5_000, waitMs: 5_000 }, async () => 1)).rejects.toThrow(
      /could not be had: Redis is down/,
    );
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

  it("a replica's file edited while it runs is a patch; restarted with that file, it does not seed it again", async () => {
    const fileA = join(dir, 'a.json');
    const fileB = join(dir, 'b.json');
    await Promise.all([writeFile(fileA, configText()), writeFile(fileB, configText())]);
    const replicaA = await replicaConfig(fileA, a);
    const replicaB = await replicaConfig(fileB, b);
    // A change through A (as its UI makes it), then an edit of B's file (by hand, or a CLI command).
    await replicaA.store.updateSection('policy', () => ({ clients: { cursor: { name: 'Cursor' } } }));
    await writeFile(fileB, configText({ startupGraceMs: 1_234 }));
    await waitUntil(() => replicaA.last()?.proxy.startupGraceMs === 1_234, {
      timeoutMs: 3_000,
      description: "A applies the edit of B's file",
    });
    expect(replicaA.last()?.policy.clients['cursor']).toBeDefined();
    // Each replica restarted with its own file: the document, both changes in it, stays.
    for (const [file, cluster] of [
      [fileB, b],
      [fileA, a],
    ] as const) {
      const restarted = await replicaConfig(file, cluster);
      expect(restarted.first.config.proxy.startupGraceMs).toBe(1_234);
      expect(restarted.first.config.policy.clients['cursor']).toBeDefined();
    }
    // A new file (a new ConfigMap) still replaces the document.
    await writeFile(fileA, configText({ startupGraceMs: 4_321 }));
    const updated = await replicaConfig(fileA, a);
    expect(updated.first.config.proxy.startupGraceMs).toBe(4_321);
    expect(updated.first.config.policy.clients['cursor']).toBeUndefined();
    await waitUntil(() => replicaB.last()?.proxy.startupGraceMs === 4_321, {
      timeoutMs: 3_000,
      description: 'B applies the new seed',
    });
  });

  it('a replica started while Redis is down serves its file, then seeds or reads the shared document', async () => {
    // The document holds a change made through a running replica; another deployment's has none yet.
    const file = join(dir, 'a.json');
    const running = await replicaConfig(file, a);
    await running.store.updateSection('policy', () => ({ clients: { zed: { name: 'Zed' } } }));
    await redis.pause();
    await waitUntil(() => a.status === 'down', { timeoutMs: 3_000, description: 'status down' });
    const [c, fresh] = [await open('c'), await open('fresh', 'fresh:')];
    const late = await replicaConfig(file, c);
    const first = await replicaConfig(file, fresh);
    for (const replica of [late, first]) {
      expect(replica.unreachable).toHaveLength(1);
      expect(replica.first.config.proxy.startupGraceMs).toBe(4_321);
      expect(replica.first.config.policy.clients['zed']).toBeUndefined();
    }
    await redis.start();
    // The running document is read (the change made meanwhile applies) ...
    await waitUntil(() => late.last()?.policy.clients['zed'] !== undefined, {
      timeoutMs: 5_000,
      description: 'the late replica reads the shared document',
    });
    // ... and an empty one is seeded from the file.
    await waitUntil(async () => (await fresh.redis.hget('fresh:config', 'text').catch(() => null)) !== null, {
      timeoutMs: 5_000,
      description: 'the document seeded',
    });
    expect(JSON.parse((await fresh.redis.hget('fresh:config', 'text'))!)).toMatchObject({
      proxy: { startupGraceMs: 4_321 },
    });
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
