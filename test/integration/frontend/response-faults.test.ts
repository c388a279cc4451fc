/**
 * The response path of our fault server (test/fixtures/servers/fault-server.mjs),
 * over stdio and Streamable HTTP backends, through the real core and endpoint
 * with SDK clients of both eras: an answer that cannot be relayed comes back as
 * a JSON-RPC error (and a log line), never as silence.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { Logger } from '../../../electron/core/api/index.js';
import { serveStdio } from '../../helpers/cli.js';
import { firstText, fixture, nodeServer, startProxy, tempDir, type Harness } from '../../helpers/harness.js';
import { waitUntil } from '../../helpers/processes.js';
import { spawnServer, type SpawnedServer } from '../../helpers/spawnServer.js';

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

describe('response path faults through serve --stdio', () => {
  it('answers a 5000-deep result with -32603 to clients of both eras, and says so on stderr', async () => {
    const dir = await tempDir();
    const configPath = join(dir.path, 'config.json');
    await writeFile(configPath, JSON.stringify({ mcpServers: { f: nodeServer(FAULT, ['stdio']) } }));
    try {
      for (const era of ['legacy', 'modern'] as const) {
        const client = new Client(
          { name: `stdio-${era}`, version: '1' },
          era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
        );
        const transport = new StdioClientTransport(serveStdio(configPath, dir.path));
        let stderr = '';
        transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        await client.connect(transport);
        try {
          await waitUntil(async () => (await client.listTools()).tools.some((tool) => tool.name === 'f__deep'), {
            timeoutMs: 15_000,
          });
          await expect(client.callTool({ name: 'f__deep', arguments: { depth: 5000 } })).rejects.toMatchObject({
            code: -32603,
            message: expect.stringContaining('cannot be relayed: it is nested too deeply'),
          });
          expect(stderr).toContain('the answer to tools/call f__deep cannot be relayed');
        } finally {
          await client.close();
        }
      }
    } finally {
      await dir.cleanup();
    }
  }, 60_000);
});
