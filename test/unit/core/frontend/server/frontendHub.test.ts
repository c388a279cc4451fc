/**
 * What every frontend endpoint shares, on a real core (no backends) and a
 * real SDK client connected to a real frontend server over linked in-memory
 * transports: sessions are listed under the endpoint's transport, list
 * changes and backend logs reach its 2025-era servers (until disposed), and
 * a listen naming an unknown resource is refused as invalid params.
 */
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport, ProtocolErrorCode, type Server } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { silentLogger } from '../../../../../electron/core/platform/deps.js';
import { FrontendHub } from '../../../../../electron/core/frontend/server/frontendHub.js';
import { createFrontendServer } from '../../../../../electron/core/frontend/server/mcpServer.js';
import { SwitchboardCore } from '../../../../../electron/core/switchboard/switchboardCore.js';
import { makeConfig } from '../../../../helpers/basics.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function core(): SwitchboardCore {
  return new SwitchboardCore(makeConfig({}), {
    environment: {},
    logger: silentLogger,
    clientInfo: { name: 'test', version: '0' },
  });
}

/** A frontend server with a connected SDK client that records the notifications it gets. */
async function connected(owner: SwitchboardCore): Promise<{ server: Server; received: string[] }> {
  const server = createFrontendServer(owner);
  const client = new Client({ name: 'hub-test', version: '1.0.0' });
  const received: string[] = [];
  client.fallbackNotificationHandler = async (notification) => {
    received.push(
      notification.method === 'notifications/message'
        ? `log:${String((notification.params as { logger?: string }).logger)}`
        : notification.method,
    );
  };
  const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair();
  await server.connect(serverEnd);
  await client.connect(clientEnd);
  cleanups.push(() => client.close());
  return { server, received };
}

describe('FrontendHub', () => {
  it('lists its sessions under its transport, from open to close', () => {
    const owner = core();
    const hub = new FrontendHub(owner, {
      transport: 'stdio',
      servers: () => [],
      publish: async () => {},
      publisherId: 't',
    });
    cleanups.push(async () => hub.dispose());
    const initialize = { method: 'initialize', params: { clientInfo: { name: 'Cursor', version: '1.2' } } };
    const id = hub.open('local', 'legacy', initialize);
    expect(owner.sessions.list()).toEqual([
      expect.objectContaining({ id, profile: 'local', era: 'legacy', transport: 'stdio', clientName: 'Cursor' }),
    ]);
    hub.close(id);
    hub.seenModern('local', { method: 'tools/list', params: {} });
    expect(owner.sessions.list()).toEqual([expect.objectContaining({ era: 'modern', transport: 'stdio' })]);
    hub.closeModern('local');
    expect(owner.sessions.list()).toEqual([]);
  });

  it("sends list changes and backend logs to the endpoint's servers, and stops once disposed", async () => {
    const owner = core();
    const { server, received } = await connected(owner);
    const catalogChanged = vi.fn();
    const hub = new FrontendHub(owner, {
      transport: 'http',
      servers: () => [[server, undefined]],
      publish: async () => {},
      publisherId: 't',
      catalogChanged,
    });
    owner.events.emit('catalogChanged', { tools: false, prompts: true, resources: true });
    owner.events.emit('backendLog', { backendId: 'gh', params: { level: 'info', logger: 'api', data: 'hi' } });
    await vi.waitFor(() =>
      expect(received).toEqual([
        'notifications/prompts/list_changed',
        'notifications/resources/list_changed',
        'log:gh/api',
      ]),
    );
    expect(catalogChanged).toHaveBeenCalledWith({ tools: false, prompts: true, resources: true });
    hub.dispose();
    owner.events.emit('catalogChanged', { tools: false, prompts: true, resources: false });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(received).toHaveLength(3);
  });

  it('refuses a listen naming an unknown resource with invalid params, and counts no subscription', async () => {
    const owner = core();
    const hub = new FrontendHub(owner, {
      transport: 'http',
      servers: () => [],
      publish: async () => {},
      publisherId: 't',
    });
    cleanups.push(async () => hub.dispose());
    await expect(hub.listen('listen:1', 'local', ['mcp-proxy://nobody/x'])).rejects.toMatchObject({
      code: ProtocolErrorCode.InvalidParams,
    });
    expect(owner.subscriptions.counts()).toEqual({});
    expect(hub.mayListen('local', ['mcp-proxy://nobody/x'])).toBe(false);
    expect(hub.mayListen('local', [])).toBe(true);
  });
});
