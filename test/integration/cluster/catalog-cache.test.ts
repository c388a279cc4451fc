/**
 * The catalog cache shared by replicas in a real Redis: replica A lists an
 * on-demand stdio server (starting it once, to learn its catalog); replica
 * B, started afterwards with its own empty state dir, lists that server's
 * tools at once from Redis without ever starting it (the server's own
 * trace file records every start); the first call on B starts it there.
 * Replica C, started while Redis is down, writes what it listed and shows
 * the shared entry of a server still starting there once Redis returns.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitUntil } from '../../helpers/processes.js';
import { redisMissing, startRedis, type RedisServer } from '../../helpers/redisServer.js';
import { startServeHttp, type ServedHttp } from '../../helpers/serveHttp.js';

const missing = redisMissing();
if (missing && process.env['CI']) throw new Error(missing);

const FIXTURE = join(import.meta.dirname, '../../fixtures/servers/configurable.mjs');

describe.skipIf(missing !== undefined)('the catalog cache shared in Redis', () => {
  let redis: RedisServer;
  let probe: Redis;
  let dir: string;
  let trace: string;
  let config: Record<string, unknown>;
  let a: ServedHttp;
  let b: ServedHttp | undefined;
  let c: ServedHttp | undefined;

  const starts = async () =>
    (await readFile(trace, 'utf8').catch(() => '')).split('\n').filter((line) => line.startsWith('start'));

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sb-catalogs-'));
    trace = join(dir, 'trace.log');
    redis = await startRedis();
    probe = new Redis(redis.url, { maxRetriesPerRequest: 1 });
    probe.on('error', () => undefined); // away while Redis is paused; reconnects by itself
    config = {
      cluster: { redis: { url: redis.url, keyPrefix: 'sb-cat:', connectTimeoutMs: 1_000, commandTimeoutMs: 500 } },
      mcpServers: {
        lazy: {
          command: process.execPath,
          args: [FIXTURE],
          // Each replica's own start delay (values are not in the cache's key: names only).
          env: { FIXTURE_TOOLS: 'echo,other', FIXTURE_TRACE_FILE: trace, FIXTURE_START_DELAY_MS: '${LAZY_DELAY}' },
          start: 'on-demand',
        },
        quick: { command: process.execPath, args: [FIXTURE], env: { FIXTURE_TOOLS: 'q' } },
      },
      proxy: { startupGraceMs: 2_000 },
    };
    a = await startServeHttp(config, { env: { LAZY_DELAY: '0' } });
  }, 30_000);

  afterAll(async () => {
    probe?.disconnect();
    await Promise.allSettled([a?.stop(), b?.stop(), c?.stop()]);
    await redis?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('a replica started later lists an on-demand server another replica listed, without starting it', async () => {
    const clientA = await a.connect();
    await waitUntil(async () => (await clientA.listTools()).tools.some((tool) => tool.name === 'lazy__echo'), {
      timeoutMs: 15_000,
      description: 'A lists lazy',
    });
    await waitUntil(async () => (await probe.exists('sb-cat:catalog:lazy')) === 1, {
      timeoutMs: 5_000,
      description: 'the entry in Redis',
    });
    expect(await starts()).toHaveLength(1);
    // Kept a generous while (30 days), refreshed on each write.
    expect(await probe.ttl('sb-cat:catalog:lazy')).toBeGreaterThan(29 * 24 * 3600);

    b = await startServeHttp(config, { env: { LAZY_DELAY: '0' } });
    const clientB = await b.connect();
    const names = (await clientB.listTools()).tools.map((tool) => tool.name).sort();
    expect(names).toEqual(['lazy__echo', 'lazy__other', 'quick__q']);
    // Listed on B from Redis: the server never ran there (and A kept no catalog file of its own).
    expect(await starts()).toHaveLength(1);
    expect(existsSync(join(a.home, 'state', 'mcp-switchboard', 'catalogs', 'lazy.json'))).toBe(false);

    // The first call on B starts it there.
    const result = await clientB.callTool({ name: 'lazy__echo', arguments: { x: 1 } });
    expect((result.content as { text: string }[])[0]?.text).toBe('echo:{"x":1}');
    expect(await starts()).toHaveLength(2);
  }, 30_000);

  it('a replica started while Redis is down writes its listings and shows the shared catalogs once it returns', async () => {
    // Redis lost quick's entry (a new Redis, say); then it goes away, and replica C starts.
    await probe.del('sb-cat:catalog:quick');
    await redis.pause();
    const started = (await starts()).length;
    // On C the on-demand server starts at once (no cached catalog could be read) and slowly.
    c = await startServeHttp(config, { env: { LAZY_DELAY: '30000' } });
    const clientC = await c.connect();
    const listed = async () => (await clientC.listTools()).tools.map((tool) => tool.name).sort();
    await waitUntil(async () => (await listed()).includes('quick__q'), {
      timeoutMs: 10_000,
      description: 'C lists quick live',
    });
    expect(await listed()).toEqual(['quick__q']);
    await waitUntil(async () => (await starts()).length > started, { timeoutMs: 5_000, description: 'lazy starting' });

    await redis.start();
    // C's listing of quick is written now, and lazy's shared entry is shown while lazy still starts on C.
    await waitUntil(async () => (await probe.exists('sb-cat:catalog:quick')) === 1, {
      timeoutMs: 5_000,
      description: "quick's entry written by C",
    });
    await waitUntil(async () => (await listed()).includes('lazy__echo'), {
      timeoutMs: 5_000,
      description: "C lists lazy from Redis's entry",
    });
    expect(await listed()).toEqual(['lazy__echo', 'lazy__other', 'quick__q']);
  }, 30_000);
});
