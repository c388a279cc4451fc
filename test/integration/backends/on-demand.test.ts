/**
 * On-demand servers and bounded start-up (issue 14), and the startup grace of
 * a fresh serve (issue 18): an on-demand server learns its catalog once, is
 * stopped (process tree reaped) after its idle timeout and shown as idle,
 * started again by the first request; a restart does not start it at all; a
 * subscription keeps it running; never more than the bound start at once
 * (busy: a server waiting while it starts gives its place to the next); a
 * list right after start waits for backends on their first attempt.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CatalogCache } from '../../../electron/core/catalog/index.js';
import { silentLogger } from '../../../electron/core/api/index.js';
import { firstText, fixture, nodeServer, startProxy, tempDir } from '../../helpers/harness.js';
import { isAlive, waitUntil } from '../../helpers/processes.js';

/** Lines `start|listed <pid> <ms>` the configurable fixture appended. */
async function traceOf(file: string): Promise<{ event: string; pid: number; at: number }[]> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [event, pid, at] = line.split(' ');
      return { event: event!, pid: Number(pid), at: Number(at) };
    });
}

describe('on-demand servers', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let cache: CatalogCache;
  let trace: string;

  beforeEach(async () => {
    dir = await tempDir();
    cache = new CatalogCache(join(dir.path, 'catalogs'), { logger: silentLogger });
    trace = join(dir.path, 'trace.log');
  });
  afterEach(() => dir.cleanup());

  const lazy = (idleTimeoutMs: number) =>
    nodeServer(fixture('configurable.mjs'), [], {
      env: { FIXTURE_TOOLS: 'echo,other', FIXTURE_TRACE_FILE: trace },
      start: 'on-demand',
      idleTimeoutMs,
    });

  /** A core started once to cache the servers' catalogs, then started again with that cache. */
  async function restartedWithCache(servers: Record<string, unknown>) {
    const warm = await startProxy({ mcpServers: servers }, { catalogCache: cache });
    for (const backend of warm.core.backendConfigs())
      await waitUntil(async () => (await cache.load(backend)) !== undefined, { description: `cache of ${backend.id}` });
    await warm.close();
    return startProxy({ mcpServers: servers }, { catalogCache: cache });
  }

  it('learns its catalog once, is reaped after the idle timeout, and starts again on the first call', async () => {
    const proxy = await startProxy({ mcpServers: { lazy: lazy(1000) } }, { catalogCache: cache });
    try {
      const first = proxy.core.health()[0]!;
      expect(first).toMatchObject({ status: 'up', start: 'on-demand' });
      const firstPid = first.pid!;
      await waitUntil(() => proxy.core.health()[0]!.status === 'idle', { description: 'idle', timeoutMs: 5000 });
      await waitUntil(() => !isAlive(firstPid), { description: 'child reaped' });
      expect(proxy.core.health()[0]!.pid).toBeUndefined();
      // Idle is not down: its items stay listed.
      const client = await proxy.connect('legacy');
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['lazy__echo', 'lazy__other']);
      const result = await client.callTool({ name: 'lazy__echo', arguments: { n: 1 } });
      expect(firstText(result)).toBe('echo:{"n":1}');
      const woken = proxy.core.health()[0]!;
      expect(woken.status).toBe('up');
      expect(woken.pid).not.toBe(firstPid);
      expect(isAlive(woken.pid!)).toBe(true);
      expect(woken.restarts).toBe(0);
      await waitUntil(() => proxy.core.health()[0]!.status === 'idle', { description: 'idle again', timeoutMs: 5000 });
      await waitUntil(() => !isAlive(woken.pid!), { description: 'second child reaped' });
    } finally {
      await proxy.close();
    }
  });

  it('is not started at launch once its catalog is cached; the first request starts it and waits', async () => {
    const warm = await startProxy({ mcpServers: { lazy: lazy(60_000) } }, { catalogCache: cache });
    await waitUntil(async () => (await cache.load(warm.core.backendConfigs()[0]!)) !== undefined);
    await warm.close();
    const spawnedBefore = (await traceOf(trace)).filter((line) => line.event === 'start').length;
    const proxy = await startProxy({ mcpServers: { lazy: lazy(60_000) } }, { catalogCache: cache });
    try {
      expect(proxy.core.health()[0]).toMatchObject({ status: 'idle', cached: true });
      expect(proxy.core.readiness().ready).toBe(true);
      const modern = await proxy.connect('modern');
      expect((await modern.listTools()).tools).toHaveLength(2);
      expect((await traceOf(trace)).filter((line) => line.event === 'start')).toHaveLength(spawnedBefore);
      const result = await modern.callTool({ name: 'lazy__other', arguments: {} });
      expect(firstText(result)).toBe('other:{}');
      expect(proxy.core.health()[0]).toMatchObject({ status: 'up' });
      expect((await traceOf(trace)).filter((line) => line.event === 'start')).toHaveLength(spawnedBefore + 1);
    } finally {
      await proxy.close();
    }
  });

  it('a resource subscription starts it and keeps it running; unsubscribing lets it go idle', async () => {
    const proxy = await restartedWithCache({
      notes: nodeServer(fixture('updates.mjs'), [], { start: 'on-demand', idleTimeoutMs: 800 }),
    });
    try {
      expect(proxy.core.health()[0]!.status).toBe('idle');
      const client = await proxy.connect('legacy');
      await client.subscribeResource({ uri: 'mcp-proxy://notes/note://a' });
      const { pid } = proxy.core.health()[0]!;
      expect(proxy.core.health()[0]!.status).toBe('up');
      // Three idle timeouts later it still runs: the subscription holds it.
      await new Promise((resolve) => setTimeout(resolve, 2500));
      expect(proxy.core.health()[0]).toMatchObject({ status: 'up', pid });
      await client.unsubscribeResource({ uri: 'mcp-proxy://notes/note://a' });
      await waitUntil(() => proxy.core.health()[0]!.status === 'idle', { description: 'idle', timeoutMs: 10_000 });
      await waitUntil(() => !isAlive(pid!), { description: 'child reaped' });
    } finally {
      await proxy.close();
    }
  }, 30_000);

  it('a 2026-07-28 listen stream on its resources starts it and keeps it running while it lasts', async () => {
    const proxy = await restartedWithCache({
      notes: nodeServer(fixture('updates.mjs'), [], { start: 'on-demand', idleTimeoutMs: 800 }),
    });
    try {
      expect(proxy.core.health()[0]!.status).toBe('idle');
      const client = await proxy.connect('modern');
      const stream = await client.listen({ resourceSubscriptions: ['mcp-proxy://notes/note://a'] });
      await waitUntil(() => proxy.core.health()[0]!.status === 'up', { description: 'woken by the listen' });
      const { pid } = proxy.core.health()[0]!;
      // Three idle timeouts later it still runs: the open stream holds it.
      await new Promise((resolve) => setTimeout(resolve, 2500));
      expect(proxy.core.health()[0]).toMatchObject({ status: 'up', pid });
      await stream.close();
      await waitUntil(() => proxy.core.health()[0]!.status === 'idle', { description: 'idle', timeoutMs: 10_000 });
      await waitUntil(() => !isAlive(pid!), { description: 'child reaped' });
    } finally {
      await proxy.close();
    }
  }, 30_000);
});

/** `count` servers `s0`, `s1`... whose start keeps the CPU busy `busyMs`, each tracing its start to `trace`. */
function busyServers(count: number, busyMs: number, trace: string): Record<string, unknown> {
  return Object.fromEntries(
    Array.from({ length: count }, (_, i) => [
      `s${i}`,
      nodeServer(fixture('configurable.mjs'), [], {
        env: { FIXTURE_TOOLS: `t${i}`, FIXTURE_START_BUSY_MS: String(busyMs), FIXTURE_TRACE_FILE: trace },
      }),
    ]),
  );
}

describe('bounded start-up', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  beforeEach(async () => (dir = await tempDir()));
  afterEach(() => dir.cleanup());

  it('never has more than maxConcurrentStarts servers busy starting at once, and reports each start time', async () => {
    const trace = join(dir.path, 'trace.log');
    // Each start keeps the CPU busy for 500 ms: all of them count against the bound until they are up.
    const servers = busyServers(6, 500, trace);
    const proxy = await startProxy({ proxy: { maxConcurrentStarts: 2 }, mcpServers: servers });
    try {
      const lines = await traceOf(trace);
      const intervals = [...new Set(lines.map((line) => line.pid))].map((pid) => ({
        from: lines.find((line) => line.pid === pid && line.event === 'start')!.at,
        to: lines.find((line) => line.pid === pid && line.event === 'listed')!.at,
      }));
      expect(intervals).toHaveLength(6);
      const overlapAt = (t: number): number => intervals.filter((i) => i.from <= t && t < i.to).length;
      const peak = Math.max(...intervals.map((interval) => overlapAt(interval.from)));
      expect(peak).toBe(2);
      expect(proxy.core.startLimiter.peak).toBe(2);
      for (const backend of proxy.core.health()) expect(backend.startMs).toBeGreaterThanOrEqual(500);
    } finally {
      await proxy.close();
    }
  });

  it('a server stopped while it waits for a place is never started: quitting during start-up leaves no process', async () => {
    const trace = join(dir.path, 'trace.log');
    // One place, held 1.5 s by a busy start; the other two wait for it when the core is stopped.
    const servers = busyServers(3, 1500, trace);
    const proxy = await startProxy({ proxy: { maxConcurrentStarts: 1 }, mcpServers: servers }, { wait: false });
    await waitUntil(async () => (await traceOf(trace)).length === 1, { description: 'the first server spawned' });
    // As serve stops on SIGTERM: without waiting for the start under way.
    await proxy.core.dispose();
    await proxy.close();
    // The place the stopped start held is given to a waiting one after the stop: nothing may start then.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const started = [...new Set((await traceOf(trace)).map((line) => line.pid))];
    expect(started).toHaveLength(1);
    expect(started.filter(isAlive)).toEqual([]);
  });

  it('a server waiting while it starts (no CPU) does not hold a place: the others start meanwhile', async () => {
    const servers = {
      // First in line, with the only place: it sleeps 5 s before it answers.
      sleepy: nodeServer(fixture('configurable.mjs'), [], {
        env: { FIXTURE_TOOLS: 'late', FIXTURE_START_DELAY_MS: '5000' },
      }),
      quick1: nodeServer(fixture('configurable.mjs'), [], { env: { FIXTURE_TOOLS: 'q1' } }),
      quick2: nodeServer(fixture('configurable.mjs'), [], { env: { FIXTURE_TOOLS: 'q2' } }),
    };
    const proxy = await startProxy({ proxy: { maxConcurrentStarts: 1 }, mcpServers: servers }, { wait: false });
    const status = (id: string) => proxy.core.health().find((backend) => backend.id === id)?.status;
    try {
      await waitUntil(() => status('quick1') === 'up' && status('quick2') === 'up', {
        description: 'both quick servers up',
        timeoutMs: 20_000,
      });
      // Counted as starting until it answered, it would have held the one place for 5 s.
      expect(status('sleepy')).toBe('connecting');
      await waitUntil(() => status('sleepy') === 'up', { description: 'sleepy up', timeoutMs: 20_000 });
    } finally {
      await proxy.close();
    }
  }, 30_000);
});

describe('startup grace (fresh serve, no cache)', () => {
  const servers = {
    fast: nodeServer(fixture('configurable.mjs'), [], { env: { FIXTURE_TOOLS: 'quick' } }),
    slow: nodeServer(fixture('configurable.mjs'), [], {
      env: { FIXTURE_TOOLS: 'late', FIXTURE_START_DELAY_MS: '1500' },
    }),
  };

  it('a tools/list right after start waits for backends on their first attempt', async () => {
    const proxy = await startProxy({ mcpServers: servers }, { wait: false });
    try {
      const client = await proxy.connect('legacy');
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual(['fast__quick', 'slow__late']);
    } finally {
      await proxy.close();
    }
  });

  it('answers without them once the grace is over', async () => {
    const proxy = await startProxy({ proxy: { startupGraceMs: 300 }, mcpServers: servers }, { wait: false });
    try {
      const client = await proxy.connect('modern');
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).not.toContain('slow__late');
    } finally {
      await proxy.close();
    }
  });
});
