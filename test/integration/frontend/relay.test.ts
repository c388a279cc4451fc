/**
 * What flows back from backends to clients: progress under the client's own
 * token, cancellation reaching the backend, and backend log messages naming the
 * backend.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { EVERYTHING, firstText, fixture, nodeServer, startProxy, type Harness } from '../../helpers/harness.js';
import { waitUntil } from '../../helpers/processes.js';

describe('relays', () => {
  let proxy: Harness;

  beforeAll(async () => {
    proxy = await startProxy({
      mcpServers: { everything: nodeServer(EVERYTHING, ['stdio']), slow: nodeServer(fixture('slow.mjs')) },
    });
  });
  afterAll(() => proxy.close());

  it.each(['legacy', 'modern'] as const)(
    're-sends backend progress to a %s client under its own token, in order',
    async (era) => {
      const client = await proxy.connect(era);
      const seen: number[] = [];
      const result = await client.callTool(
        { name: 'everything__trigger-long-running-operation', arguments: { duration: 1, steps: 4 } },
        { onprogress: (progress) => seen.push(progress.progress) },
      );
      expect(firstText(result as { content?: unknown })).toMatch(/completed/i);
      // The SDK client only delivers progress carrying the token it sent, so any
      // delivery proves the token was kept. Over stdio the last one may be lost.
      expect(seen.length).toBeGreaterThanOrEqual(2);
      expect(seen).toEqual([...seen].sort((a, b) => a - b));
    },
  );

  it('v1 clients get progress too', async () => {
    const client = await proxy.connectV1();
    const seen: number[] = [];
    await client.callTool({ name: 'slow__sleep', arguments: { ms: 200, steps: 4 } }, undefined, {
      onprogress: (progress) => seen.push(progress.progress),
    });
    expect(seen.length).toBeGreaterThanOrEqual(2);
  });

  it.each(['legacy', 'modern'] as const)('cancels the backend request when a %s client cancels', async (era) => {
    const client = await proxy.connect(era);
    const count = async () =>
      Number(
        firstText((await client.callTool({ name: 'slow__cancelled_count', arguments: {} })) as { content?: unknown }),
      );
    const before = await count();
    const controller = new AbortController();
    const call = client
      .callTool({ name: 'slow__hang', arguments: {} }, { signal: controller.signal })
      .catch((error: unknown) => error);
    await waitUntil(() => proxy.core.health().find((backend) => backend.id === 'slow')?.outstandingRequests === 1);
    controller.abort(new Error('user pressed stop'));
    await call;
    await waitUntil(async () => (await count()) === before + 1, { description: 'the backend to see the cancellation' });
    expect(proxy.core.health().find((backend) => backend.id === 'slow')?.outstandingRequests).toBe(0);
  });

  it('forwards backend log messages to 2025-era clients, naming the backend', async () => {
    const client = await proxy.connectV1();
    const logs: { logger?: string; level: string }[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
      logs.push(notification.params);
    });
    await client.callTool({ name: 'everything__toggle-simulated-logging', arguments: {} });
    await waitUntil(() => logs.some((log) => log.logger?.startsWith('everything')), { description: 'a log message' });
    await client.callTool({ name: 'everything__toggle-simulated-logging', arguments: {} });
  });
});
