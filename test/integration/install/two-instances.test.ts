/**
 * Two instances of one server side by side (two memory servers, as with two
 * accounts or two databases): both are admitted although they expose the same
 * original resource URI, both are callable, and each read and subscription
 * reaches the instance that produced the URI.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { MEMORY, firstText, nodeServer, startProxy, tempDir, type Harness } from '../../helpers/harness.js';
import { waitUntil } from '../../helpers/processes.js';

describe('two instances of one server', () => {
  let proxy: Harness;
  let dir: Awaited<ReturnType<typeof tempDir>>;

  beforeAll(async () => {
    dir = await tempDir();
    const memory = (file: string) => nodeServer(MEMORY, [], { env: { MEMORY_FILE_PATH: join(dir.path, file) } });
    proxy = await startProxy({ mcpServers: { work: memory('work.jsonl'), home: memory('home.jsonl') } });
  });
  afterAll(async () => {
    await proxy.close();
    await dir.cleanup();
  });

  it('admits both, lists both, and calls, reads and subscribes each on its own', async () => {
    expect(proxy.core.health().map((backend) => [backend.id, backend.status])).toEqual([
      ['work', 'up'],
      ['home', 'up'],
    ]);
    const client = await proxy.connectV1();
    const { resources } = await client.listResources();
    expect(resources.map((resource) => resource.uri).sort()).toEqual([
      'mcp-proxy://home/memory://knowledge-graph',
      'mcp-proxy://work/memory://knowledge-graph',
    ]);
    const tools = (await client.listTools()).tools.map((tool) => tool.name);
    expect(tools).toEqual(expect.arrayContaining(['work__create_entities', 'home__create_entities']));

    const updates: string[] = [];
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updates.push(n.params.uri));
    await client.subscribeResource({ uri: 'mcp-proxy://work/memory://knowledge-graph' });
    await client.subscribeResource({ uri: 'mcp-proxy://home/memory://knowledge-graph' });

    const create = (backend: string, name: string) =>
      client.callTool({
        name: `${backend}__create_entities`,
        arguments: { entities: [{ name, entityType: 'note', observations: [`kept by ${backend}`] }] },
      });
    await create('work', 'Quarterly report');
    await waitUntil(() => updates.includes('mcp-proxy://work/memory://knowledge-graph'), {
      timeoutMs: 10_000,
      description: "work's update",
    });
    // Only the instance that changed announced it.
    expect(updates).not.toContain('mcp-proxy://home/memory://knowledge-graph');
    await create('home', 'Groceries');
    await waitUntil(() => updates.includes('mcp-proxy://home/memory://knowledge-graph'), {
      timeoutMs: 10_000,
      description: "home's update",
    });

    const read = async (backend: string) => {
      const result = await client.readResource({ uri: `mcp-proxy://${backend}/memory://knowledge-graph` });
      const content = result.contents[0] as { uri: string; text?: string };
      return { uri: content.uri, text: content.text ?? '' };
    };
    const work = await read('work');
    const home = await read('home');
    expect(work.text).toContain('Quarterly report');
    expect(work.text).not.toContain('Groceries');
    expect(home.text).toContain('Groceries');
    expect(home.text).not.toContain('Quarterly report');
    // Each answer names its own advertised URI.
    expect(work.uri).toBe('mcp-proxy://work/memory://knowledge-graph');
    expect(home.uri).toBe('mcp-proxy://home/memory://knowledge-graph');

    // And the graph each tool reads is its own.
    const graph = firstText(
      (await client.callTool({ name: 'home__read_graph', arguments: {} })) as { content?: unknown },
    );
    expect(graph).toContain('Groceries');
    expect(graph).not.toContain('Quarterly report');
    await client.close();
  });
});
