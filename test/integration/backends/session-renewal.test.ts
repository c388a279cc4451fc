/**
 * A 2025-era remote backend that forgot our session (restarted on the same
 * port, or a replica behind a load balancer that lost it) answers 404 to its
 * id: the connection opens a new session (one initialize, whoever meets the
 * 404), renews the upstream subscriptions and sends the request once more; a
 * backend that forgets the new session too fails that request with a clear
 * error instead of looping.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { firstText, fixture, startProxy, type Harness } from '../../helpers/harness.js';
import { freePort, spawnServer, type SpawnedServer } from '../../helpers/spawnServer.js';
import { waitUntil } from '../../helpers/processes.js';

const SERVER = fixture('sessions-http.mjs');
const NOTE = 'mcp-proxy://kept/note://a';

describe('a remote backend that forgot our session', () => {
  let proxy: Harness;
  let upstream: SpawnedServer;
  let port: number;
  /** initialize requests the running upstream process has seen. */
  let initializes = 0;

  /** Starts the upstream (again) on the same port; a restarted one knows no session. */
  const startUpstream = async (): Promise<void> => {
    upstream = await spawnServer([SERVER], /LISTENING (\S+)/, { PORT: String(port) });
    initializes = 0;
    upstream.child.stdout!.on('data', (chunk: Buffer) => {
      initializes += chunk.toString().match(/^INITIALIZE$/gm)?.length ?? 0;
    });
  };
  const restartUpstream = async (): Promise<void> => {
    await upstream.stop();
    await startUpstream();
  };

  beforeAll(async () => {
    port = await freePort();
    await startUpstream();
    proxy = await startProxy({ mcpServers: { kept: { url: upstream.match[1], protocol: 'legacy' } } });
  });
  afterAll(async () => {
    await proxy?.close();
    await upstream?.stop();
  });

  async function call(tool: string, args: Record<string, unknown> = {}): Promise<string> {
    const client = await proxy.connect();
    try {
      const result = await client.callTool({ name: `kept__${tool}`, arguments: args });
      return firstText(result as { content?: unknown });
    } finally {
      await client.close();
    }
  }

  it('opens one new session after a restart, answers every call that met it and keeps subscriptions', async () => {
    const subscriber = await proxy.connectV1();
    const updates: string[] = [];
    subscriber.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updates.push(n.params.uri));
    await subscriber.subscribeResource({ uri: NOTE });
    const client = await proxy.connect();
    const echo = async (text: string): Promise<string> =>
      firstText((await client.callTool({ name: 'kept__echo', arguments: { text } })) as { content?: unknown });
    expect(await echo('before')).toBe('before');

    await restartUpstream();
    expect(await Promise.all(['one', 'two', 'three'].map(echo))).toEqual(['one', 'two', 'three']);
    expect(initializes).toBe(1);

    // The subscription made before the restart was renewed with the session.
    expect(await echo('after')).toBe('after');
    expect(await call('touch', { uri: 'note://a' })).toBe('touched 1');
    await waitUntil(() => updates.length === 1, { description: 'the update after the restart' });
    expect(updates).toEqual([NOTE]);
    expect(initializes).toBe(1);
    expect(proxy.core.health()[0]).toMatchObject({ status: 'up', restarts: 0 });
    await subscriber.unsubscribeResource({ uri: NOTE });
    await subscriber.close();
    await client.close();
  });

  it('opens a new session when the listen stream meets the forgotten one, with no call at all', async () => {
    const subscriber = await proxy.connectV1();
    const updates: string[] = [];
    subscriber.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updates.push(n.params.uri));
    await subscriber.subscribeResource({ uri: NOTE });

    await restartUpstream();
    // Only the listen stream's GET, reopened by the SDK after its stream ended, meets the old session.
    await waitUntil(() => initializes === 1, { description: 'the new session opened by the listen stream' });
    expect(await call('touch', { uri: 'note://a' })).toBe('touched 1');
    await waitUntil(() => updates.length === 1, { description: 'the update after the restart' });
    expect(initializes).toBe(1);
    await subscriber.unsubscribeResource({ uri: NOTE });
    await subscriber.close();
  });

  it('subscribes on a new session when the first request after a restart is a subscription', async () => {
    await restartUpstream();
    const subscriber = await proxy.connectV1();
    const updates: string[] = [];
    subscriber.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updates.push(n.params.uri));
    await subscriber.subscribeResource({ uri: NOTE });
    expect(await call('touch', { uri: 'note://a' })).toBe('touched 1');
    await waitUntil(() => updates.length === 1, { description: 'the update on the new session' });
    expect(initializes).toBe(1);
    await subscriber.unsubscribeResource({ uri: NOTE });
    await subscriber.close();
  });

  it('fails the call with a clear error when the new session is forgotten at once, opening only one', async () => {
    expect(await call('forget', { always: true })).toBe('forgetting');
    const before = initializes;
    await expect(call('echo', { text: 'lost' })).rejects.toThrow(
      /backend "kept" forgot our session \(HTTP 404\), and (again the new one right after|a new one could not be opened)/,
    );
    expect(initializes).toBe(before + 1);

    // Restarted, it serves again on the same connection.
    await restartUpstream();
    expect(await call('echo', { text: 'back' })).toBe('back');
    expect(initializes).toBe(1);
  });
});
