/**
 * Quarantine shared by real `serve` replicas through one real Redis: a
 * server added through A is quarantined on both; approving it through A's
 * UI contract serves its tools on B within a second, and quarantining it
 * again through B withholds them on A within a second. A replica started
 * afterwards with an empty state dir approves nothing of its own (it
 * withholds the quarantined server too). A tool whose definition changed is
 * withheld on both, and approving the change through A serves it on B.
 * Approvals and pins are in Redis, not only in each replica's files; while
 * Redis is away a quarantine is refused, nothing changed.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectBridge, type BridgeClient } from '../../helpers/bridgeClient.js';
import { waitUntil } from '../../helpers/processes.js';
import { redisMissing, startRedis, type RedisServer } from '../../helpers/redisServer.js';
import { startServeHttp, type ServedHttp } from '../../helpers/serveHttp.js';

const missing = redisMissing();
if (missing && process.env['CI']) throw new Error(missing);

const FIXTURE = join(import.meta.dirname, '../../fixtures/servers/configurable.mjs');

describe.skipIf(missing !== undefined)('quarantine shared by replicas in Redis', () => {
  let redis: RedisServer;
  let probe: Redis;
  let dir: string;
  let toolsFile: string;
  let config: Record<string, unknown>;
  let a: ServedHttp;
  let b: ServedHttp;
  let c: ServedHttp | undefined;
  let clientA: Client;
  let clientB: Client;
  let bridgeA: BridgeClient;
  let bridgeB: BridgeClient;

  const origin = (served: ServedHttp) => new URL(served.url).origin;
  const sharedState = async (served: ServedHttp): Promise<string | undefined> => {
    const response = await fetch(`${origin(served)}/readyz`, { signal: AbortSignal.timeout(5_000) });
    return ((await response.json()) as { sharedState?: { status: string } }).sharedState?.status;
  };
  const names = async (client: Client) => (await client.listTools()).tools.map((tool) => tool.name);
  /** Waits until `client` lists (or no longer lists) `tool`; resolves with how long that took. */
  const until = async (client: Client, tool: string, listed: boolean, description: string): Promise<number> => {
    const started = Date.now();
    await waitUntil(async () => (await names(client)).includes(tool) === listed, {
      timeoutMs: 10_000,
      intervalMs: 25,
      description,
    });
    return Date.now() - started;
  };
  const tools = (description: string) =>
    writeFile(toolsFile, JSON.stringify([{ name: 'look', description }, { name: 'keep' }]));

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sb-quarantine-'));
    toolsFile = join(dir, 'tools.json');
    await tools('Looks at a thing.');
    redis = await startRedis();
    probe = new Redis(redis.url, { maxRetriesPerRequest: 1 });
    probe.on('error', () => undefined); // away while Redis is paused; reconnects by itself
    config = {
      cluster: { redis: { url: redis.url, keyPrefix: 'sb-q:', connectTimeoutMs: 1_000, commandTimeoutMs: 500 } },
      mcpServers: {
        base: { command: process.execPath, args: [FIXTURE], env: { FIXTURE_TOOLS_FILE: toolsFile } },
      },
      proxy: { startupGraceMs: 2_000 },
    };
    // One after the other: the cluster's first start seeds the approvals (base, in its config).
    a = await startServeHttp(config);
    b = await startServeHttp(config);
    [clientA, clientB] = await Promise.all([a.connect(), b.connect()]);
    [bridgeA, bridgeB] = await Promise.all([
      connectBridge({ origin: origin(a), token: a.token }),
      connectBridge({ origin: origin(b), token: b.token }),
    ]);
    await until(clientA, 'base__look', true, 'A lists base');
    await until(clientB, 'base__look', true, 'B lists base');
  }, 60_000);

  afterAll(async () => {
    probe?.disconnect();
    await Promise.allSettled([bridgeA?.close(), bridgeB?.close()]);
    await Promise.allSettled([a?.stop(), b?.stop(), c?.stop()]);
    await redis?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('approvals and pins are in Redis', async () => {
    expect(Object.keys(await probe.hgetall('sb-q:reviews:approvals'))).toEqual(['base']);
    expect(Object.keys(await probe.hgetall('sb-q:reviews:pins:base')).sort()).toEqual(['keep', 'look']);
  });

  it('approved through A, served on B within a second; quarantined again through B, withheld on A within a second', async () => {
    const added = await bridgeA.call('backends.add', {
      id: 'extra',
      entry: { command: process.execPath, args: [FIXTURE], env: { FIXTURE_TOOLS: 'hello' } },
    });
    expect(added).toMatchObject({ ok: true });
    // The added server reaches B through the shared config, quarantined there too.
    await waitUntil(
      async () => {
        const review = await bridgeB.call('reviews.get', { id: 'extra' });
        return review.ok && review.result.quarantined && review.result.items.length > 0;
      },
      { timeoutMs: 15_000, description: 'B lists extra, quarantined' },
    );
    expect(await names(clientA)).not.toContain('extra__hello');
    expect(await names(clientB)).not.toContain('extra__hello');

    expect(await bridgeA.call('reviews.approveServer', { id: 'extra' })).toMatchObject({ ok: true });
    expect(await until(clientB, 'extra__hello', true, 'B serves extra once A approved it')).toBeLessThan(1_000);
    const called = await clientB.callTool({ name: 'extra__hello', arguments: {} });
    expect(called.isError).toBeFalsy();

    expect(await bridgeB.call('reviews.quarantine', { id: 'extra' })).toMatchObject({ ok: true });
    expect(await until(clientA, 'extra__hello', false, 'A withholds extra once B quarantined it')).toBeLessThan(1_000);
    // Quarantined (or, while it starts again under the strict sandbox and lists nothing yet, unknown): never served.
    await expect(clientA.callTool({ name: 'extra__hello', arguments: {} })).rejects.toThrow(
      /extra__hello is quarantined|Unknown tool: extra__hello/,
    );
  }, 60_000);

  it('a replica started with an empty state dir approves nothing of its own', async () => {
    c = await startServeHttp(config);
    const clientC = await c.connect();
    await until(clientC, 'base__look', true, 'C lists base');
    const bridgeC = await connectBridge({ origin: origin(c), token: c.token });
    try {
      await waitUntil(
        async () => {
          const review = await bridgeC.call('reviews.get', { id: 'extra' });
          return review.ok && review.result.items.length > 0;
        },
        { timeoutMs: 15_000, description: 'C lists extra' },
      );
      const review = await bridgeC.call('reviews.get', { id: 'extra' });
      expect(review).toMatchObject({ ok: true, result: { quarantined: true, reason: 'requested' } });
      expect(await names(clientC)).not.toContain('extra__hello');
    } finally {
      await bridgeC.close();
      await c.stop();
      c = undefined;
    }
  }, 60_000);

  it('a changed definition is withheld on both; approving the change through A serves it on B', async () => {
    await tools('Looks at a thing, and at every file it can reach.');
    await Promise.all([
      bridgeA.call('backends.restart', { id: 'base' }),
      bridgeB.call('backends.restart', { id: 'base' }),
    ]);
    await until(clientA, 'base__look', false, 'A withholds the changed look');
    await until(clientB, 'base__look', false, 'B withholds the changed look');
    expect(await names(clientB)).toContain('base__keep');

    expect(await bridgeA.call('reviews.approveChange', { id: 'base', tool: 'look' })).toMatchObject({ ok: true });
    expect(await until(clientB, 'base__look', true, 'B serves the approved change')).toBeLessThan(1_000);
    const pinned = JSON.parse((await probe.hget('sb-q:reviews:pins:base', 'look'))!) as {
      definition: { description: string };
    };
    expect(pinned.definition.description).toContain('every file');
  }, 60_000);

  it('while Redis is away a quarantine is refused, nothing changed; base is served throughout', async () => {
    await redis.pause();
    try {
      await waitUntil(async () => (await sharedState(a)) === 'down', {
        timeoutMs: 10_000,
        description: 'A sees Redis down',
      });
      const refused = await bridgeA.call('reviews.quarantine', { id: 'base' });
      expect(refused).toMatchObject({ ok: false, error: { code: 'config_unreadable' } });
      expect(await names(clientA)).toContain('base__look');
    } finally {
      await redis.start();
    }
    await waitUntil(async () => (await sharedState(a)) === 'up', {
      timeoutMs: 10_000,
      description: 'A sees Redis up',
    });
    expect(await probe.hexists('sb-q:reviews:approvals', 'base')).toBe(1);
    expect(JSON.parse((await probe.hget('sb-q:reviews:approvals', 'base'))!)).not.toHaveProperty('held');
    expect(await names(clientB)).toContain('base__look');
  }, 60_000);
});
