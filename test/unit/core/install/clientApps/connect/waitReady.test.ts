/**
 * `connect`'s wait before relaying: done once /readyz says the backends
 * settled, or that a list is already complete from cached catalogs
 * (`listable`); bounded otherwise.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { waitForBackends } from '../../../../../../electron/core/install/clientApps/connect/waitReady.js';

let server: Server | undefined;

/** A /readyz answering `body` (503, as while backends start). */
async function readyz(body: Record<string, unknown>): Promise<string> {
  server = createServer((_req, res) =>
    res.writeHead(503, { 'content-type': 'application/json' }).end(JSON.stringify(body)),
  );
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
}

afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

describe('waitForBackends', () => {
  it('does not wait for backends whose cached catalogs are served', async () => {
    const url = await readyz({ ready: false, settled: false, listable: true });
    expect(await waitForBackends(url, { timeoutMs: 2000 })).toBe(true);
  });

  it('waits, bounded, while a backend without a cached catalog has its first attempt', async () => {
    const url = await readyz({ ready: false, settled: false, listable: false });
    expect(await waitForBackends(url, { timeoutMs: 300, intervalMs: 50 })).toBe(false);
  });
});
