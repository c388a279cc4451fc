/**
 * The WebSocket CoreClient against a real `ws` server speaking the bridge
 * frames: answers, errors as data, pushed events, and reconnecting.
 */
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket as NodeWebSocket, WebSocketServer } from 'ws';
import type { ConnectionState } from '../../../../renderer/src/bridge/connection.js';
import { bridgeUrlFor, createWsClient } from '../../../../renderer/src/bridge/wsClient.js';
import type { BridgeClient } from '../../../../renderer/src/bridge/connection.js';

type Frame = { id: number; method: string; params?: unknown };

/**
 * A bridge server answering `app.info`, failing `backends.remove`, answering `backends.refresh`
 * after `slowMs`, and holding `backends.restart` forever.
 */
async function startServer(
  port = 0,
  slowMs = 0,
): Promise<{ server: WebSocketServer; port: number; received: Frame[] }> {
  const server = new WebSocketServer({ host: '127.0.0.1', port, path: '/bridge' });
  await once(server, 'listening');
  const received: Frame[] = [];
  server.on('connection', (socket) => {
    socket.on('message', (data: Buffer) => {
      const frame = JSON.parse(data.toString()) as Frame;
      received.push(frame);
      if (frame.method === 'app.info')
        socket.send(JSON.stringify({ id: frame.id, ok: true, result: { version: '9' } }));
      if (frame.method === 'backends.refresh')
        setTimeout(() => socket.send(JSON.stringify({ id: frame.id, ok: true, result: { slow: true } })), slowMs);
      if (frame.method === 'backends.remove')
        socket.send(
          JSON.stringify({
            id: frame.id,
            ok: false,
            error: { code: 'unknown_backend', message: 'no such backend', data: { id: 'x' } },
          }),
        );
    });
  });
  return { server, port: (server.address() as AddressInfo).port, received };
}

const closeServer = async (server: WebSocketServer) => {
  for (const socket of server.clients) socket.terminate();
  await new Promise<void>((resolve) => server.close(() => resolve()));
};

const waitFor = async (check: () => boolean, ms = 5000) => {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

describe('WebSocket CoreClient', () => {
  let client: BridgeClient | undefined;
  const servers: WebSocketServer[] = [];
  afterEach(async () => {
    client?.close();
    for (const server of servers.splice(0)) await closeServer(server);
  });

  const connect = (port: number) =>
    createWsClient(`ws://127.0.0.1:${port}/bridge`, {
      WebSocketImpl: NodeWebSocket as unknown as typeof WebSocket,
      initialDelayMs: 20,
      maxDelayMs: 100,
      callTimeoutMs: 3000,
    });

  it('derives ws:// or wss:// from the page location', () => {
    expect(bridgeUrlFor({ protocol: 'http:', host: '127.0.0.1:47100' })).toBe('ws://127.0.0.1:47100/bridge');
    expect(bridgeUrlFor({ protocol: 'https:', host: 'example.test' })).toBe('wss://example.test/bridge');
  });

  it('sends {id, method, params} and settles with the answer or the error as data', async () => {
    const { server, port, received } = await startServer();
    servers.push(server);
    client = connect(port);
    await expect(client.call('app.info')).resolves.toEqual({ ok: true, result: { version: '9' } });
    await expect(client.call('backends.remove', { id: 'x' })).resolves.toEqual({
      ok: false,
      error: { code: 'unknown_backend', message: 'no such backend', data: { id: 'x' } },
    });
    expect(received[1]).toMatchObject({ method: 'backends.remove', params: { id: 'x' } });
    expect(received[0]).not.toHaveProperty('params');
    expect(client.connectionState()).toBe('open');
  });

  it('delivers pushed {event, payload} frames to listeners until unsubscribed', async () => {
    const { server, port } = await startServer();
    servers.push(server);
    client = connect(port);
    await client.call('app.info');
    const seen: unknown[] = [];
    const off = client.on('backendsChanged', (payload) => seen.push(payload));
    for (const socket of server.clients)
      socket.send(JSON.stringify({ event: 'backendsChanged', payload: { backendId: 'a' } }));
    await waitFor(() => seen.length === 1);
    off();
    for (const socket of server.clients) socket.send(JSON.stringify({ event: 'backendsChanged', payload: {} }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(seen).toEqual([{ backendId: 'a' }]);
  });

  it('fails calls in flight when the connection drops, reconnects with backoff, and sends waiting calls', async () => {
    const first = await startServer();
    client = connect(first.port);
    const states: ConnectionState[] = [];
    client.onConnectionChange((state) => states.push(state));
    await client.call('app.info');
    const hanging = client.call('backends.restart', { id: 'a' });
    await waitFor(() => first.received.some((f) => f.method === 'backends.restart'));
    await closeServer(first.server);
    await expect(hanging).resolves.toMatchObject({ ok: false, error: { code: 'disconnected' } });
    await waitFor(() => client?.connectionState() === 'reconnecting');

    const waiting = client.call('app.info'); // made while disconnected: waits for the next connection
    const second = await startServer(first.port);
    servers.push(second.server);
    await expect(waiting).resolves.toEqual({ ok: true, result: { version: '9' } });
    expect(states).toEqual(['open', 'reconnecting', 'open']);
  });

  it('once a waiting call is sent, lets it take longer than callTimeoutMs (the timeout is for the connection)', async () => {
    const first = await startServer();
    await closeServer(first.server);
    client = createWsClient(`ws://127.0.0.1:${first.port}/bridge`, {
      WebSocketImpl: NodeWebSocket as unknown as typeof WebSocket,
      initialDelayMs: 20,
      maxDelayMs: 40,
      callTimeoutMs: 400,
    });
    const slow = client.call('backends.refresh', { id: 'a' }); // made while disconnected
    const second = await startServer(first.port, 900); // answers well after callTimeoutMs
    servers.push(second.server);
    await waitFor(() => second.received.some((f) => f.method === 'backends.refresh'));
    await expect(slow).resolves.toEqual({ ok: true, result: { slow: true } });
  });

  it('gives up on a call that waits longer than callTimeoutMs for a connection', async () => {
    const { server, port } = await startServer();
    await closeServer(server);
    client = createWsClient(`ws://127.0.0.1:${port}/bridge`, {
      WebSocketImpl: NodeWebSocket as unknown as typeof WebSocket,
      initialDelayMs: 20,
      callTimeoutMs: 100,
    });
    await expect(client.call('app.info')).resolves.toMatchObject({ ok: false, error: { code: 'disconnected' } });
  });
});
