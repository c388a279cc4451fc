/**
 * `proxy/health` for frontends that negotiate our extension: an aggregate
 * status with no backend IDs or error details, in both eras.
 */
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXTENSION_ID, HealthResultSchema } from '../../../electron/core/frontend/index.js';
import { fixture, nodeServer, startProxy, type Harness } from '../../helpers/harness.js';

describe('proxy/health', () => {
  let proxy: Harness;

  beforeAll(async () => {
    proxy = await startProxy({
      proxy: { reconnectInitialMs: 600_000 },
      mcpServers: {
        good: nodeServer(fixture('configurable.mjs')),
        secretly_named: nodeServer(fixture('faulty.mjs'), ['exit-at-start']),
      },
    });
  });
  afterAll(() => proxy.close());

  it.each(['legacy', 'modern'] as const)('answers a %s client that declared the extension', async (era) => {
    const client = await proxy.connect(era, undefined, { capabilities: { extensions: { [EXTENSION_ID]: {} } } });
    expect(client.getServerCapabilities()?.extensions?.[EXTENSION_ID]).toEqual({ methods: ['proxy/health'] });
    const health = await client.request({ method: 'proxy/health', params: {} }, HealthResultSchema);
    expect(health).toEqual({
      status: 'degraded',
      ready: true,
      backends: { connecting: 0, up: 1, degraded: 0, down: 1, disabled: 0, 'needs-authorization': 0, idle: 0 },
      sessions: expect.any(Number),
    });
    // No backend IDs or error details.
    expect(JSON.stringify(health)).not.toMatch(/secretly_named|fatal|good/);
  });

  it('counts a live 2025-era HTTP session, and drops it after DELETE', async () => {
    const asker = await proxy.connect('modern', undefined, { capabilities: { extensions: { [EXTENSION_ID]: {} } } });
    const sessions = async () =>
      (await asker.request({ method: 'proxy/health', params: {} }, HealthResultSchema)).sessions;
    const before = await sessions();
    const legacy = await proxy.connect('legacy');
    expect(await sessions()).toBe(before + 1);
    await (legacy.transport as StreamableHTTPClientTransport).terminateSession();
    expect(await sessions()).toBe(before);
  });

  it.each(['legacy', 'modern'] as const)('is method-not-found for a %s client without the extension', async (era) => {
    const client = await proxy.connect(era);
    await expect(client.request({ method: 'proxy/health', params: {} }, HealthResultSchema)).rejects.toMatchObject({
      code: -32601,
    });
  });
});
