/**
 * The catalog cache shared by replicas in a real Redis: replica A lists an
 * on-demand stdio server (starting it once, to learn its catalog); replica
 * B, started afterwards with its own empty state dir, lists that server's
 * tools at once from Redis without ever starting it (the server's own
 * trace file records every start); the first call on B starts it there.
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

  const starts = async () =>
    (await readFile(trace, 'utf8').catch(() => '')).split('\n').filter((line) => line.startsWith('start'));

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sb-catalogs-'));
    trace = join(dir, 'trace.log');
    redis = await startRedis();
    probe = new Redis(redis.url, { maxRetriesPerRequest: 1 });
    config = {
      cluster: { redis: { url: redis.url, keyPrefix: 'sb-cat:', connectTimeoutMs: 1_000, commandTimeoutMs: 500 } },
      mcpServers: {
        lazy: {
          command: process.execPath,
          args: [FIXTURE],
          env: { FIXTURE_TOOLS: 'echo,other', FIXTURE_TRACE_FILE: trace },
          start: 'on-demand',
        },
      },
    };
    a = await startServeHttp(config);
  }, 30_000);

  afterAll(async () => {
    probe?.disconnect();
    await Promise.allSettled([a?.stop(), b?.stop()]);
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

    b = await startServeHttp(config);
    const clientB = await b.connect();
    const names = (await clientB.listTools()).tools.map((tool) => tool.name).sort();
    expect(names).toEqual(['lazy__echo', 'lazy__other']);
    // Listed on B from Redis: the server never ran there (and A kept no catalog file of its own).
    expect(await starts()).toHaveLength(1);
    expect(existsSync(join(a.home, 'state', 'mcp-switchboard', 'catalogs', 'lazy.json'))).toBe(false);

    // The first call on B starts it there.
    const result = await clientB.callTool({ name: 'lazy__echo', arguments: { x: 1 } });
    expect((result.content as { text: string }[])[0]?.text).toBe('echo:{"x":1}');
    expect(await starts()).toHaveLength(2);
  }, 30_000);
});
