/**
 * Live backends: runtime add/remove/restart/refresh, crashes and reconnects,
 * health states, and list changes reaching connected clients of each era.
 */
import { describe, expect, it } from 'vitest';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { firstText, fixture, nodeServer, startProxy, type Harness } from '../../helpers/harness.js';
import { isAlive, waitUntil } from '../../helpers/processes.js';

const healthOf = (proxy: Harness, id: string) => proxy.core.health().find((backend) => backend.id === id);
const toolNames = async (client: { listTools(): Promise<{ tools: { name: string }[] }> }) =>
  (await client.listTools()).tools.map((tool) => tool.name);

describe('runtime changes', () => {
  it('adds a backend at runtime and tells connected clients of both eras', async () => {
    const proxy = await startProxy({ mcpServers: { one: nodeServer(fixture('configurable.mjs')) } });
    try {
      const v1 = await proxy.connectV1();
      let v1Notified = 0;
      v1.setNotificationHandler(ToolListChangedNotificationSchema, () => {
        v1Notified++;
      });
      let modernNotified = 0;
      const modern = await proxy.connect('modern', undefined, {
        listChanged: { tools: { autoRefresh: false, debounceMs: 0, onChanged: () => modernNotified++ } },
      });
      await modern.listen({ toolsListChanged: true });

      const health = await proxy.core.addBackend(
        'two',
        nodeServer(fixture('configurable.mjs'), [], { env: { FIXTURE_TOOLS: 'hello' } }),
      );
      expect(health).toMatchObject({ id: 'two', status: 'up', counts: { tools: 1 } });
      await waitUntil(() => v1Notified > 0 && modernNotified > 0, { description: 'list_changed on both eras' });
      expect(await toolNames(v1)).toContain('two__hello');
      expect(await toolNames(modern)).toContain('two__hello');
    } finally {
      await proxy.close();
    }
  });

  it('refuses to add a backend that cannot connect, saying why, and keeps nothing of it', async () => {
    const proxy = await startProxy({ mcpServers: {} });
    try {
      await expect(
        proxy.core.addBackend('bad', nodeServer(fixture('faulty.mjs'), ['exit-at-start'])),
      ).rejects.toMatchObject({
        code: 'connect_failed',
        message: expect.stringContaining('fatal: cannot start'),
      });
      await expect(proxy.core.addBackend('9x', { command: 'x' })).rejects.toMatchObject({ code: 'config_invalid' });
      expect(proxy.core.health()).toEqual([]);
    } finally {
      await proxy.close();
    }
  });

  it('removes a backend: in-flight calls fail clearly, its tools are gone, its process is reaped', async () => {
    const proxy = await startProxy({
      mcpServers: { slow: nodeServer(fixture('slow.mjs')), keep: nodeServer(fixture('configurable.mjs')) },
    });
    try {
      const client = await proxy.connect();
      const pid = healthOf(proxy, 'slow')?.pid;
      expect(pid).toBeGreaterThan(0);
      const inFlight = client.callTool({ name: 'slow__hang', arguments: {} }).then(
        () => undefined,
        (error: unknown) => error,
      );
      await waitUntil(() => healthOf(proxy, 'slow')?.outstandingRequests === 1);
      await proxy.core.removeBackend('slow');
      expect(await inFlight).toMatchObject({
        code: -32000,
        message: expect.stringContaining('backend "slow" was removed while the request was in flight'),
      });
      await expect(client.callTool({ name: 'slow__echo', arguments: { text: 'x' } })).rejects.toMatchObject({
        code: -32602,
      });
      expect(await toolNames(client)).toEqual(['keep__echo']);
      await waitUntil(() => !isAlive(pid!), { description: 'the removed backend to exit' });
      expect(proxy.core.health().map((backend) => backend.id)).toEqual(['keep']);
    } finally {
      await proxy.close();
    }
  });

  it('restarts a backend on request with a new process', async () => {
    const proxy = await startProxy({ mcpServers: { one: nodeServer(fixture('configurable.mjs')) } });
    try {
      const before = healthOf(proxy, 'one')?.pid;
      const after = await proxy.core.restartBackend('one');
      expect(after).toMatchObject({ status: 'up', restarts: 1 });
      expect(after.pid).not.toBe(before);
      await waitUntil(() => !isAlive(before!));
    } finally {
      await proxy.close();
    }
  });
});

describe('health and reconnects', () => {
  it('marks a crashed backend down, drops its tools, and reconnects it with backoff', async () => {
    const proxy = await startProxy({
      proxy: { reconnectInitialMs: 300, reconnectMaxMs: 2000 },
      mcpServers: { mut: nodeServer(fixture('mutable.mjs')), other: nodeServer(fixture('configurable.mjs')) },
    });
    try {
      const client = await proxy.connect();
      await client.callTool({ name: 'mut__crash', arguments: {} });
      await waitUntil(() => healthOf(proxy, 'mut')?.status === 'down', { description: 'mut to be down' });
      const crashedAt = Date.now();
      const down = healthOf(proxy, 'mut');
      expect(down?.lastError).toMatchObject({
        code: 'backend_unavailable',
        message: expect.stringContaining('disconnected'),
      });
      expect(down?.nextRetryAt).toBeDefined();
      expect(await toolNames(client)).toEqual(['other__echo']);
      await expect(client.callTool({ name: 'mut__echo', arguments: { text: 'x' } })).rejects.toMatchObject({
        code: -32602,
      });

      await waitUntil(() => healthOf(proxy, 'mut')?.status === 'up', {
        timeoutMs: 10_000,
        description: 'mut to come back',
      });
      // The first retry waits reconnectInitialMs (300 ms), not less.
      expect(Date.now() - crashedAt).toBeGreaterThanOrEqual(250);
      expect(healthOf(proxy, 'mut')).toMatchObject({ restarts: 1 });
      expect(firstText(await client.callTool({ name: 'mut__echo', arguments: { text: 'back' } }))).toBe('back');
    } finally {
      await proxy.close();
    }
  });

  it('fails requests in flight when a backend crashes, with an error that says so', async () => {
    const proxy = await startProxy({
      proxy: { reconnectInitialMs: 600_000 },
      mcpServers: { slow: nodeServer(fixture('slow.mjs')) },
    });
    try {
      const client = await proxy.connect();
      const inFlight = client.callTool({ name: 'slow__hang', arguments: {} }).then(
        () => undefined,
        (error: unknown) => error,
      );
      await waitUntil(() => healthOf(proxy, 'slow')?.outstandingRequests === 1);
      process.kill(healthOf(proxy, 'slow')!.pid!, 'SIGKILL');
      expect(await inFlight).toMatchObject({
        code: -32000,
        message: expect.stringContaining('backend "slow" disconnected'),
      });
      expect(healthOf(proxy, 'slow')?.status).toBe('down');
    } finally {
      await proxy.close();
    }
  });

  it('keeps retrying a backend whose command does not exist, without slowing the others', async () => {
    const proxy = await startProxy({
      proxy: { reconnectInitialMs: 100, reconnectMaxMs: 400 },
      mcpServers: { ghost: { command: '/no/such/command' }, fine: nodeServer(fixture('configurable.mjs')) },
    });
    try {
      expect(healthOf(proxy, 'fine')?.status).toBe('up');
      expect(healthOf(proxy, 'ghost')).toMatchObject({ status: 'down', lastError: { code: 'connect_failed' } });
      await waitUntil(() => (healthOf(proxy, 'ghost')?.restarts ?? 0) >= 2, { description: 'two more attempts' });
      expect(healthOf(proxy, 'ghost')?.status).not.toBe('up');
    } finally {
      await proxy.close();
    }
  });

  it('turns a backend degraded after probeFailureThreshold failed probes, and up when it answers again', async () => {
    const proxy = await startProxy({
      proxy: { requestTimeoutMs: 300, probeFailureThreshold: 2, healthIntervalMs: 3_600_000 },
      mcpServers: { sleepy: nodeServer(fixture('configurable.mjs')) },
    });
    const pid = healthOf(proxy, 'sleepy')?.pid;
    try {
      await proxy.core.probeAll();
      expect(healthOf(proxy, 'sleepy')).toMatchObject({ status: 'up', probeFailures: 0 });
      expect(healthOf(proxy, 'sleepy')?.lastProbeAt).toBeDefined();
      // A real fault: the process stops answering (SIGSTOP), like a wedged server.
      process.kill(pid!, 'SIGSTOP');
      await proxy.core.probeAll();
      expect(healthOf(proxy, 'sleepy')).toMatchObject({ status: 'up', probeFailures: 1 });
      await proxy.core.probeAll();
      expect(healthOf(proxy, 'sleepy')).toMatchObject({
        status: 'degraded',
        probeFailures: 2,
        lastError: { code: 'probe_failed', message: expect.stringContaining('2 health probes in a row failed') },
      });
      // Degraded keeps the catalog published.
      expect(proxy.core.catalog().toolIndex.has('sleepy__echo')).toBe(true);
      process.kill(pid!, 'SIGCONT');
      await proxy.core.probeAll();
      expect(healthOf(proxy, 'sleepy')).toMatchObject({ status: 'up', probeFailures: 0 });
    } finally {
      process.kill(pid!, 'SIGCONT');
      await proxy.close();
    }
  });

  it('re-lists a backend on its list_changed, and keeps the last snapshot (degraded) when that fails', async () => {
    const proxy = await startProxy({ mcpServers: { mut: nodeServer(fixture('mutable.mjs')) } });
    try {
      const client = await proxy.connect();
      expect(firstText(await client.callTool({ name: 'mut__grow', arguments: {} }))).toBe('extra_1');
      await waitUntil(async () => (await toolNames(client)).includes('mut__extra_1'), { description: 'the new tool' });
      expect(firstText(await client.callTool({ name: 'mut__extra_1', arguments: {} }))).toBe('called extra_1');

      await client.callTool({ name: 'mut__break_listing', arguments: {} });
      await waitUntil(() => healthOf(proxy, 'mut')?.status === 'degraded', {
        description: 'degraded after a failed refresh',
      });
      expect(healthOf(proxy, 'mut')?.lastError?.message).toContain('listing is broken on purpose');
      expect(await toolNames(client)).toContain('mut__extra_1');
      expect(firstText(await client.callTool({ name: 'mut__echo', arguments: { text: 'still' } }))).toBe('still');

      await client.callTool({ name: 'mut__heal_listing', arguments: {} });
      await waitUntil(() => healthOf(proxy, 'mut')?.status === 'up', { description: 'up after a good refresh' });
    } finally {
      await proxy.close();
    }
  });
});
