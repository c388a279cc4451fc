/**
 * The response path of our fault server (test/fixtures/servers/fault-server.mjs),
 * over stdio and Streamable HTTP backends, through the real core and endpoint
 * with SDK clients of both eras: an answer that cannot be relayed comes back as
 * a JSON-RPC error (and a log line), never as silence.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Logger } from '../../electron/core/deps.js';
import { firstText, fixture, nodeServer, startProxy, type Harness } from '../helpers/harness.js';
import { spawnServer, type SpawnedServer } from '../helpers/spawnServer.js';

const FAULT = fixture('fault-server.mjs');

describe('response path faults', () => {
  let http: SpawnedServer;
  let proxy: Harness;
  const logged: string[] = [];
  const logger: Logger = {
    info: (line) => logged.push(line),
    warn: (line) => logged.push(line),
    error: (line) => logged.push(line),
  };

  beforeAll(async () => {
    http = await spawnServer([FAULT, 'http'], /LISTENING (\S+)/);
    proxy = await startProxy(
      {
        proxy: { requestTimeoutMs: 20_000 },
        mcpServers: { fs: nodeServer(FAULT, ['stdio']), fh: { url: http.match[1] } },
      },
      { deps: { logger } },
    );
  }, 30_000);
  afterAll(async () => {
    await proxy?.close();
    await http?.stop();
  });

  for (const era of ['legacy', 'modern'] as const) {
    for (const backend of ['fs', 'fh']) {
      it(`answers a 5000-deep ${backend === 'fs' ? 'stdio' : 'HTTP'} result with -32603 to a ${era} client, and logs it`, async () => {
        const client = await proxy.connect(era);
        const started = Date.now();
        await expect(client.callTool({ name: `${backend}__deep`, arguments: { depth: 5000 } })).rejects.toMatchObject({
          code: -32603,
          message: expect.stringContaining(
            `the answer to tools/call ${backend}__deep cannot be relayed: it is nested too deeply`,
          ),
        });
        // Well before any timeout: the error is the answer.
        expect(Date.now() - started).toBeLessThan(5000);
        expect(logged.some((line) => line.includes(`tools/call ${backend}__deep cannot be relayed`))).toBe(true);
        // The same backend keeps answering.
        expect(firstText(await client.callTool({ name: `${backend}__echo`, arguments: { text: 'still here' } }))).toBe(
          'still here',
        );
      });
    }
  }

  it('relays a deep result that still serializes (depth 200) unchanged', async () => {
    const client = await proxy.connect('legacy');
    const result = await client.callTool({ name: 'fs__deep', arguments: { depth: 200 } });
    let node = result.structuredContent as Record<string, unknown>;
    let depth = 0;
    while (node.next) {
      node = node.next as Record<string, unknown>;
      depth += 1;
    }
    expect({ depth, leaf: node.leaf }).toEqual({ depth: 200, leaf: true });
  });

  it('answers a v1 SDK client (2025-era peer) with the error too', async () => {
    const client = await proxy.connectV1();
    await expect(client.callTool({ name: 'fs__deep', arguments: { depth: 5000 } })).rejects.toThrow(
      /cannot be relayed/,
    );
  });
});
