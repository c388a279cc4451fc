/**
 * tools/list is the same on every replica: two `serve` processes of one
 * config, each running its own copies of two backends that list their tools
 * out of name order, answer SDK clients of both eras with the same list in the
 * same order (servers in config order, each server's tools by name), so a
 * client balanced from one replica to another keeps its prompt cache.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture, nodeServer } from '../../helpers/harness.js';
import { startServeHttp, type ServedHttp } from '../../helpers/serveHttp.js';

const CONFIG = {
  mcpServers: {
    zed: nodeServer(fixture('configurable.mjs'), [], { env: { FIXTURE_TOOLS: 'delta,alpha,charlie' } }),
    abe: nodeServer(fixture('configurable.mjs'), [], { env: { FIXTURE_TOOLS: 'y,x' } }),
  },
  proxy: { quarantine: false },
};

/** A 2026-07-28 SDK client of a replica. */
async function modernClient(replica: ServedHttp): Promise<Client> {
  const client = new Client(
    { name: 'order-modern', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  const requestInit = { headers: { Authorization: `Bearer ${replica.token}` } };
  await client.connect(new StreamableHTTPClientTransport(new URL(replica.url), { requestInit }));
  return client;
}

describe('tools/list order across replicas', () => {
  let replicas: ServedHttp[] = [];
  const modern: Client[] = [];

  beforeAll(async () => {
    replicas = await Promise.all([startServeHttp(CONFIG), startServeHttp(CONFIG)]);
  }, 60_000);
  afterAll(async () => {
    await Promise.allSettled(modern.map((client) => client.close()));
    await Promise.allSettled(replicas.map((replica) => replica.stop()));
  });

  it('is the same list in the same order on both replicas, in both eras', async () => {
    const lists: { legacy: unknown[]; modern: unknown[] }[] = [];
    for (const replica of replicas) {
      const legacy = await replica.connect();
      const client = await modernClient(replica);
      modern.push(client);
      lists.push({ legacy: (await legacy.listTools()).tools, modern: (await client.listTools()).tools });
    }
    const expected = ['zed__alpha', 'zed__charlie', 'zed__delta', 'abe__x', 'abe__y'];
    for (const { legacy, modern } of lists)
      for (const list of [legacy, modern])
        expect((list as { name: string }[]).map((tool) => tool.name)).toEqual(expected);
    // Whole definitions, byte for byte, era by era (2025 lists carry task support, 2026 ones do not): what a prompt cache keys on.
    expect(JSON.stringify(lists[1]!.legacy)).toBe(JSON.stringify(lists[0]!.legacy));
    expect(JSON.stringify(lists[1]!.modern)).toBe(JSON.stringify(lists[0]!.modern));
  });
});
