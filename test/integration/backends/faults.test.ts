/**
 * Faults and limits: a broken backend never takes the others down, slow and
 * hung backends time out without blocking later requests, queues are bounded,
 * collisions and limits are refused with errors that say why, and no child
 * process outlives the proxy.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { descendantPids, isAlive, waitUntil } from '../../helpers/processes.js';
import { firstText, fixture, nodeServer, startProxy } from '../../helpers/harness.js';

const statusOf = (proxy: Awaited<ReturnType<typeof startProxy>>, id: string) =>
  proxy.core.health().find((backend) => backend.id === id);

describe('faults', () => {
  it('keeps serving the working backends when others fail to start, and says why', async () => {
    const proxy = await startProxy({
      // No automatic retry during the test: the failed ones must stay visibly down.
      proxy: { reconnectInitialMs: 600_000 },
      mcpServers: {
        good: nodeServer(fixture('configurable.mjs')),
        crashes: nodeServer(fixture('faulty.mjs'), ['exit-at-start']),
        missing: { command: '/nonexistent/definitely-not-a-command' },
        garbage: nodeServer(fixture('faulty.mjs'), ['garbage']),
      },
    });
    try {
      const client = await proxy.connect();
      expect(firstText(await client.callTool({ name: 'good__echo', arguments: { a: 1 } }))).toBe('echo:{"a":1}');
      // Non-JSON lines on stdout are noise the SDK skips; the backend still works.
      expect(firstText(await client.callTool({ name: 'garbage__echo', arguments: { text: 'ok' } }))).toBe('ok');
      expect(statusOf(proxy, 'crashes')).toMatchObject({
        status: 'down',
        lastError: { code: 'connect_failed', message: expect.stringContaining('fatal: cannot start') },
      });
      expect(statusOf(proxy, 'crashes')?.stderrTail).toContain('fatal: cannot start');
      expect(statusOf(proxy, 'missing')).toMatchObject({ status: 'down', lastError: { code: 'connect_failed' } });
      expect(statusOf(proxy, 'missing')?.lastError?.message).toMatch(/ENOENT|not found|spawn/i);
      expect(proxy.core.readiness()).toMatchObject({ ready: true, counts: { up: 2, down: 2 } });
    } finally {
      await proxy.close();
    }
  });

  it('times out a request the backend never answers, without blocking later requests', async () => {
    const proxy = await startProxy({
      proxy: { requestTimeoutMs: 800 },
      mcpServers: { slow: nodeServer(fixture('slow.mjs'), [], { serialize: true }) },
    });
    try {
      const client = await proxy.connect();
      const hung = client.callTool({ name: 'slow__hang', arguments: {} });
      const later = client.callTool({ name: 'slow__echo', arguments: { text: 'after' } });
      await expect(hung).rejects.toMatchObject({
        code: -32001,
        message: expect.stringMatching(/tools\/call hang on backend "slow" timed out after 800 ms/),
      });
      // Serialized, the echo waited behind the hung call; it still gets its own answer.
      await expect(later).resolves.toMatchObject({ content: [{ type: 'text', text: 'after' }] });
      // The timed-out call was cancelled upstream, so the backend stopped working on it.
      await waitUntil(
        async () => firstText(await client.callTool({ name: 'slow__cancelled_count', arguments: {} })) === '1',
      );
    } finally {
      await proxy.close();
    }
  });

  it('serializes requests for a backend marked serialize', async () => {
    const proxy = await startProxy({ mcpServers: { slow: nodeServer(fixture('slow.mjs'), [], { serialize: true }) } });
    try {
      const client = await proxy.connect();
      const sleeps = [120, 10, 60, 5];
      const started = Date.now();
      await Promise.all(sleeps.map((ms) => client.callTool({ name: 'slow__sleep', arguments: { ms } })));
      // One at a time: the whole batch cannot take less than the sum of its parts.
      // (Arrival order over HTTP is the client's business; the queue's own order is a unit test.)
      expect(Date.now() - started).toBeGreaterThanOrEqual(sleeps.reduce((sum, ms) => sum + ms, 0));
      expect(firstText(await client.callTool({ name: 'slow__max_concurrency', arguments: {} }))).toBe('1');
    } finally {
      await proxy.close();
    }
  });

  it('lets an unserialized backend run requests concurrently', async () => {
    const proxy = await startProxy({ mcpServers: { slow: nodeServer(fixture('slow.mjs')) } });
    try {
      const client = await proxy.connect();
      await Promise.all([1, 2, 3].map(() => client.callTool({ name: 'slow__sleep', arguments: { ms: 200 } })));
      expect(
        Number(firstText(await client.callTool({ name: 'slow__max_concurrency', arguments: {} }))),
      ).toBeGreaterThan(1);
    } finally {
      await proxy.close();
    }
  });

  it('refuses requests beyond maxQueue with a queue-full error', async () => {
    const proxy = await startProxy({ mcpServers: { slow: nodeServer(fixture('slow.mjs'), [], { maxQueue: 2 }) } });
    try {
      const client = await proxy.connect();
      const first = client.callTool({ name: 'slow__sleep', arguments: { ms: 500 } });
      const second = client.callTool({ name: 'slow__sleep', arguments: { ms: 500 } });
      await waitUntil(() => statusOf(proxy, 'slow')?.outstandingRequests === 2);
      await expect(client.callTool({ name: 'slow__echo', arguments: { text: 'x' } })).rejects.toMatchObject({
        code: -32000,
        message: expect.stringMatching(/backend "slow" has 2 requests outstanding \(maxQueue 2\)/),
        data: expect.objectContaining({ code: 'queue_full' }),
      });
      await Promise.all([first, second]);
      expect(firstText(await client.callTool({ name: 'slow__echo', arguments: { text: 'x' } }))).toBe('x');
    } finally {
      await proxy.close();
    }
  });

  it('reaps the whole process tree of stdio backends on shutdown', async () => {
    const proxy = await startProxy({
      mcpServers: {
        tree: nodeServer(fixture('faulty.mjs'), ['spawn-grandchild']),
        slow: nodeServer(fixture('slow.mjs')),
      },
    });
    const client = await proxy.connect();
    const grandchild = Number(firstText(await client.callTool({ name: 'tree__grandchild_pid', arguments: {} })));
    const children = (await descendantPids(process.pid)).filter((pid) => pid !== grandchild);
    expect(isAlive(grandchild)).toBe(true);
    expect(children.length).toBeGreaterThanOrEqual(2);
    await proxy.close();
    await waitUntil(() => !isAlive(grandchild) && children.every((pid) => !isAlive(pid)), {
      timeoutMs: 5000,
      description: 'every backend process and the grandchild to exit',
    });
    const left = await descendantPids(process.pid);
    expect(left.map((pid) => `${pid}: ${commandOf(pid)}`)).toEqual([]);
  });
});

function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '(gone)';
  }
}
