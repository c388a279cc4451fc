/**
 * Cancelling a call of the WebSocket CoreClient: it settles at once as
 * `cancelled`, the server gets `{cancel: id}` for a call it was sent, and a
 * call still waiting for a connection is dropped without reaching the server.
 */
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket as NodeWebSocket, WebSocketServer } from 'ws';
import { createWsClient } from '../../../../renderer/src/bridge/wsClient.js';
import type { BridgeClient } from '../../../../renderer/src/bridge/connection.js';

let server: WebSocketServer | undefined;
let client: BridgeClient | undefined;

afterEach(async () => {
  client?.close();
  for (const socket of server?.clients ?? []) socket.terminate();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

/** A bridge server that never answers, recording every frame. */
async function silentServer(): Promise<{ url: string; received: Record<string, unknown>[] }> {
  server = new WebSocketServer({ host: '127.0.0.1', port: 0, path: '/bridge' });
  await once(server, 'listening');
  const received: Record<string, unknown>[] = [];
  server.on('connection', (socket) => socket.on('message', (data: Buffer) => received.push(JSON.parse(String(data)))));
  return { url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}/bridge`, received };
}

const waitFor = async (check: () => boolean) => {
  for (let i = 0; i < 500 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(check()).toBe(true);
};

describe('cancelling a WebSocket call', () => {
  it('settles as cancelled and tells the server which call', async () => {
    const { url, received } = await silentServer();
    client = createWsClient(url, { WebSocketImpl: NodeWebSocket as unknown as typeof WebSocket });
    await waitFor(() => client!.connectionState() === 'open');
    const controller = new AbortController();
    const pending = client.call('catalog.callTool', { name: 'a__b', arguments: {} }, { signal: controller.signal });
    await waitFor(() => received.length === 1);
    controller.abort();
    expect(await pending).toEqual({ ok: false, error: { code: 'cancelled', message: 'catalog.callTool: cancelled' } });
    await waitFor(() => received.length === 2);
    expect(received[1]).toEqual({ cancel: received[0]!['id'] });
  });

  it('drops a call still waiting for a connection, and refuses one whose signal is already aborted', async () => {
    client = createWsClient('ws://127.0.0.1:9/bridge', {
      WebSocketImpl: NodeWebSocket as unknown as typeof WebSocket,
      initialDelayMs: 50_000,
    });
    const controller = new AbortController();
    const pending = client.call('backends.check', { id: 'x', entry: {} }, { signal: controller.signal });
    controller.abort();
    expect(await pending).toMatchObject({ ok: false, error: { code: 'cancelled' } });
    expect(await client.call('backends.list', undefined, { signal: controller.signal })).toMatchObject({
      ok: false,
      error: { code: 'cancelled' },
    });
  });
});
