/**
 * The backend fetch and a kept-alive socket the backend closes: a request that
 * meets a reused socket closed under it is sent again on a fresh connection
 * (the keep-alive race of Node's `request.reusedSocket`), while a reset on a
 * fresh connection is reported, never resent.
 */
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { nodeFetch } from '../../../../../electron/core/backends/transport/nodeFetch.js';

const ANSWER = '{"jsonrpc":"2.0","id":1,"result":{}}';
let server: Server | undefined;
const open = new Set<Socket>();

/**
 * A raw HTTP server: each connection answers its first `answered` requests
 * with keep-alive and then drops the connection on the next one without a
 * word, as a backend whose idle timeout fired at that moment does.
 */
async function startServer(answered: number): Promise<{ base: string; requests: () => number }> {
  let requests = 0;
  server = createServer((socket: Socket) => {
    open.add(socket);
    let onThis = 0;
    let buffer = '';
    socket.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      while (buffer.includes('\r\n\r\n')) {
        const end = buffer.indexOf('\r\n\r\n');
        const head = buffer.slice(0, end);
        const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? 0);
        if (buffer.length < end + 4 + length) return;
        buffer = buffer.slice(end + 4 + length);
        requests += 1;
        onThis += 1;
        if (onThis > answered) {
          socket.destroy();
          return;
        }
        socket.write(
          `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\nconnection: keep-alive\r\ncontent-length: ${ANSWER.length}\r\n\r\n${ANSWER}`,
        );
      }
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests: () => requests };
}

afterEach(async () => {
  // The client's agent keeps the last socket alive; close() waits for it otherwise.
  for (const socket of open) socket.destroy();
  open.clear();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

const post = (url: string) =>
  nodeFetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0"}' });

describe('nodeFetch on a kept-alive socket the backend closed', () => {
  it('sends the request again on a fresh connection', async () => {
    const { base, requests } = await startServer(1);
    expect(await (await post(`${base}/a`)).text()).toBe(ANSWER);
    // The second request goes out on the kept-alive socket, which the server drops.
    const second = await post(`${base}/b`);
    expect(await second.text()).toBe(ANSWER);
    expect(requests()).toBe(3);
  });

  it('reports a reset on a fresh connection and does not send it twice', async () => {
    const { base, requests } = await startServer(0);
    await expect(post(`${base}/a`)).rejects.toThrow(/socket hang up|ECONNRESET/);
    expect(requests()).toBe(1);
  });
});
