/**
 * Big answers and cut streams, from our fault server over stdio and
 * Streamable HTTP, through the real core and endpoint with clients of both
 * eras: under `maxMessageBytes` (64 MiB by default) an answer is delivered;
 * over it, that one request fails and the connection stays up; a response
 * stream that ends without its answer fails its request at once, not at
 * `requestTimeoutMs`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstText, fixture, nodeServer, startProxy, type Harness } from '../../helpers/harness.js';
import { spawnServer, type SpawnedServer } from '../../helpers/spawnServer.js';

const FAULT = fixture('fault-server.mjs');
const MiB = 1024 * 1024;

describe('message size limit and cut streams', () => {
  let http: SpawnedServer;
  let proxy: Harness;

  beforeAll(async () => {
    http = await spawnServer([FAULT, 'http'], /LISTENING (\S+)/);
    proxy = await startProxy({
      // Default maxMessageBytes and requestTimeoutMs (60 s): the point is that neither is waited out.
      mcpServers: {
        fs: nodeServer(FAULT, ['stdio']),
        fh: { url: http.match[1] },
        fl: { url: http.match[1], protocol: 'legacy' },
      },
    });
  }, 30_000);
  afterAll(async () => {
    await proxy?.close();
    await http?.stop();
  });

  const health = (id: string) => proxy.core.health().find((backend) => backend.id === id);

  it('delivers a 20 MiB stdio result (past the SDK reader’s 10 MiB) to a 2025-era client', async () => {
    const client = await proxy.connect('legacy');
    const text = firstText(await client.callTool({ name: 'fs__big', arguments: { bytes: 20 * MiB } }));
    expect(text.length).toBe(20 * MiB);
  }, 30_000);

  for (const [backend, transport] of [
    ['fs', 'stdio'],
    ['fh', 'HTTP (2026-07-28)'],
    ['fl', 'HTTP (2025-era)'],
  ] as const) {
    it(`fails only the request a 70 MiB ${transport} answer belongs to; the backend stays up`, async () => {
      const pid = health(backend)?.pid;
      const client = await proxy.connect('modern');
      await expect(client.callTool({ name: `${backend}__big`, arguments: { bytes: 70 * MiB } })).rejects.toThrow(
        /over maxMessageBytes \(67108864\)/,
      );
      expect(firstText(await client.callTool({ name: `${backend}__echo`, arguments: { text: 'next' } }))).toBe('next');
      expect(health(backend)).toMatchObject({ status: 'up', restarts: 0 });
      expect(health(backend)?.pid).toBe(pid);
    }, 60_000);
  }

  it('delivers a 20 MiB HTTP result', async () => {
    const client = await proxy.connect('legacy');
    expect(firstText(await client.callTool({ name: 'fh__big', arguments: { bytes: 20 * MiB } })).length).toBe(20 * MiB);
  }, 30_000);

  for (const backend of ['fh', 'fl']) {
    for (const how of ['end', 'destroy']) {
      it(`fails a request whose ${backend === 'fh' ? '2026-07-28' : '2025-era'} event stream is cut mid-event (${how}) within a second`, async () => {
        const client = await proxy.connect(how === 'end' ? 'legacy' : 'modern');
        const started = Date.now();
        await expect(client.callTool({ name: `${backend}__cut`, arguments: { how } })).rejects.toThrow(
          new RegExp(`backend "${backend}" did not answer tools/call: the stream ended before the answer`),
        );
        expect(Date.now() - started).toBeLessThan(1000);
        expect(firstText(await client.callTool({ name: `${backend}__echo`, arguments: { text: 'ok' } }))).toBe('ok');
      });
    }
  }
});
