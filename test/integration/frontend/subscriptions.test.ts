/**
 * Resource subscriptions through the proxy: one upstream subscription shared by
 * every frontend, updates under the advertised URI, unsubscribe upstream when
 * the last frontend leaves, clear refusals, both frontend eras and a 2026 backend.
 */
import { writeFile } from 'node:fs/promises';
import { request, type IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { serveStdio } from '../../helpers/cli.js';
import { firstText, fixture, nodeServer, startProxy, tempDir, type Harness } from '../../helpers/harness.js';
import { waitUntil } from '../../helpers/processes.js';

const A = 'mcp-proxy://upd/note://a';
const B = 'mcp-proxy://upd/note://b';

describe('resource subscriptions', () => {
  let proxy: Harness;

  beforeAll(async () => {
    proxy = await startProxy({
      mcpServers: {
        upd: nodeServer(fixture('updates.mjs'), [], { protocol: 'legacy' }),
        modern: nodeServer(fixture('updates.mjs'), [], { protocol: '2026-07-28', env: { FIXTURE_SCHEME: 'memo' } }),
        plain: nodeServer(fixture('configurable.mjs'), [], { env: { FIXTURE_RESOURCES: 'file:///x' } }),
      },
    });
  });
  afterAll(() => proxy.close());

  async function backend(tool: string, args: Record<string, unknown> = {}, id = 'upd'): Promise<string> {
    const client = await proxy.connect();
    try {
      return firstText((await client.callTool({ name: `${id}__${tool}`, arguments: args })) as { content?: unknown });
    } finally {
      await client.close();
    }
  }

  it('shares one upstream subscription between two 2025 frontends and forwards updates under the advertised URI', async () => {
    const first = await proxy.connectV1();
    const second = await proxy.connectV1();
    const got: Record<string, string[]> = { first: [], second: [] };
    first.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void got['first']!.push(n.params.uri));
    second.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void got['second']!.push(n.params.uri));
    const callsBefore = Number(await backend('subscribe_calls'));

    await first.subscribeResource({ uri: A });
    await second.subscribeResource({ uri: A });
    expect(await backend('subscribed')).toBe('["note://a"]');
    expect(Number(await backend('subscribe_calls'))).toBe(callsBefore + 1);
    expect(proxy.core.subscriptions.counts()[A]).toBe(2);

    await backend('touch', { uri: 'note://a' });
    await waitUntil(() => got['first']!.length === 1 && got['second']!.length === 1, { description: 'both updates' });
    expect(got['first']).toEqual([A]);

    await first.unsubscribeResource({ uri: A });
    expect(await backend('subscribed')).toBe('["note://a"]');
    await second.unsubscribeResource({ uri: A });
    await waitUntil(async () => (await backend('subscribed')) === '[]', { description: 'the upstream unsubscribe' });

    // After unsubscribing nothing more arrives: an update of B (subscribed now) is the next one seen.
    await first.subscribeResource({ uri: B });
    await backend('touch', { uri: 'note://a' });
    await backend('touch', { uri: 'note://b' });
    await waitUntil(() => got['first']!.length === 2);
    expect(got['first']).toEqual([A, B]);
    await first.unsubscribeResource({ uri: B });
  });

  it('refuses template instances, unknown URIs and backends without subscriptions, acknowledging nothing', async () => {
    const client = await proxy.connectV1();
    await expect(client.subscribeResource({ uri: 'mcp-proxy://upd/note://tpl/7' })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('is an instance of the template mcp-proxy://upd/note://tpl/{id}'),
    });
    await expect(client.subscribeResource({ uri: 'mcp-proxy://upd/note://zzz' })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('Unknown resource: mcp-proxy://upd/note://zzz'),
    });
    await expect(client.subscribeResource({ uri: 'mcp-proxy://plain/file:///x' })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('does not support resource subscriptions'),
    });
    expect(proxy.core.subscriptions.counts()).toEqual({});
  });

  it('serves 2026-07-28 frontends through subscriptions/listen, and releases on close', async () => {
    const client = await proxy.connect('modern');
    const got: string[] = [];
    client.setNotificationHandler('notifications/resources/updated', (n) => void got.push(n.params.uri));
    const subscription = await client.listen({ resourceSubscriptions: [A] });
    expect(subscription.honoredFilter.resourceSubscriptions).toEqual([A]);
    expect(await backend('subscribed')).toBe('["note://a"]');
    await backend('touch', { uri: 'note://a' });
    await waitUntil(() => got.length === 1, { description: 'the update on the listen stream' });
    expect(got).toEqual([A]);
    await subscription.close();
    await waitUntil(async () => (await backend('subscribed')) === '[]', { description: 'release on stream close' });

    await expect(client.listen({ resourceSubscriptions: ['mcp-proxy://upd/note://tpl/1'] })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('instance of the template'),
    });
    expect(proxy.core.subscriptions.counts()).toEqual({});
  });

  it('subscribes upstream on a 2026-07-28 backend through its listen stream', async () => {
    const client = await proxy.connectV1();
    const got: string[] = [];
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void got.push(n.params.uri));
    await client.subscribeResource({ uri: 'mcp-proxy://modern/memo://b' });
    await backend('touch', { uri: 'memo://b' }, 'modern');
    await waitUntil(() => got.length === 1, { description: 'the update from the 2026 backend' });
    expect(got).toEqual(['mcp-proxy://modern/memo://b']);
    await client.unsubscribeResource({ uri: 'mcp-proxy://modern/memo://b' });
    expect(proxy.core.subscriptions.counts()).toEqual({});
  });
});

describe('resource subscriptions over stdio (serve --stdio)', () => {
  it('serves 2026-07-28 listen streams with the same checks as HTTP', async () => {
    const dir = await tempDir();
    const config = join(dir.path, 'config.json');
    await writeFile(
      config,
      JSON.stringify({ mcpServers: { upd: nodeServer(fixture('updates.mjs'), [], { protocol: 'legacy' }) } }),
    );
    const client = new Client(
      { name: 'stdio-modern', version: '1' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await client.connect(new StdioClientTransport(serveStdio(config, dir.path)));
    try {
      await waitUntil(async () => (await client.listTools()).tools.some((tool) => tool.name === 'upd__touch'), {
        timeoutMs: 15_000,
      });
      const got: string[] = [];
      client.setNotificationHandler('notifications/resources/updated', (n) => void got.push(n.params.uri));
      await expect(client.listen({ resourceSubscriptions: ['mcp-proxy://upd/note://tpl/3'] })).rejects.toMatchObject({
        code: -32602,
        message: expect.stringContaining('instance of the template'),
      });
      const subscription = await client.listen({ resourceSubscriptions: [A] });
      expect(subscription.honoredFilter.resourceSubscriptions).toEqual([A]);
      const subscribed = async () =>
        firstText((await client.callTool({ name: 'upd__subscribed', arguments: {} })) as { content?: unknown });
      expect(await subscribed()).toBe('["note://a"]');
      await client.callTool({ name: 'upd__touch', arguments: { uri: 'note://a' } });
      await waitUntil(() => got.length === 1, { description: 'the update over stdio' });
      expect(got).toEqual([A]);
      await subscription.close();
      await waitUntil(async () => (await subscribed()) === '[]', { description: 'release when the listen ends' });
    } finally {
      await client.close();
      await dir.cleanup();
    }
  });
});

describe('a 2026-07-28 client that stops reading its listen stream', () => {
  it('gets coalesced updates instead of an unbounded queue', async () => {
    const proxy = await startProxy(
      { mcpServers: { upd: nodeServer(fixture('updates.mjs'), [], { protocol: 'legacy' }) } },
      { listenStallMs: 500 },
    );
    try {
      // Capture exactly what a real 2026 client sends for a listen, then replay it from a socket that never reads.
      let captured: { url: string; headers: Record<string, string>; body: string } | undefined;
      const recorder = await proxy.connect('modern', undefined, {});
      const client = new Client(
        { name: 'recorder', version: '1' },
        { versionNegotiation: { mode: { pin: '2026-07-28' } } },
      );
      await client.connect(
        new StreamableHTTPClientTransport(new URL(proxy.url), {
          requestInit: { headers: { Authorization: `Bearer ${proxy.token}` } },
          fetch: async (input, init) => {
            const body = typeof init?.body === 'string' ? init.body : '';
            if (body.includes('"subscriptions/listen"')) {
              const headers: Record<string, string> = {};
              new Headers(init?.headers).forEach((value, name) => (headers[name] = value));
              captured = { url: String(input), headers, body };
            }
            return fetch(input, init);
          },
        }),
      );
      const subscription = await client.listen({ resourceSubscriptions: [A] });
      await subscription.close();
      await client.close();
      expect(captured).toBeDefined();

      const stalled = await new Promise<IncomingMessage>((resolve, reject) => {
        const req = request(captured!.url, { method: 'POST', headers: captured!.headers }, resolve);
        req.on('error', reject);
        req.end(captured!.body);
      });
      stalled.pause(); // never read
      await waitUntil(() => proxy.core.subscriptions.counts()[A] === 1, { description: 'the replayed listen' });

      await recorder.callTool({ name: 'upd__touch', arguments: { uri: 'note://a', count: 3000 } });
      await waitUntil(() => proxy.endpoint.bus.dropped > 0, { description: 'updates merged for the slow stream' });
      stalled.destroy();
      await waitUntil(() => proxy.core.subscriptions.counts()[A] === undefined, { description: 'released on close' });
    } finally {
      await proxy.close();
    }
  });
});
