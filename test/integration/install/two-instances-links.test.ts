/**
 * Two server-everything instances side by side: the resource links each one's
 * `get-resource-links` tool returns are rewritten to `mcp-proxy://<id>/...`,
 * and reading such a link reaches the instance that produced it (once that
 * instance is gone, its links fail while the other's still read).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVERYTHING, nodeServer, startProxy, type Harness } from '../../helpers/harness.js';

type Block = { type: string; uri?: string; resource?: { uri: string } };

describe('resource links from two instances of one server', () => {
  let proxy: Harness;

  beforeAll(async () => {
    proxy = await startProxy({ mcpServers: { one: nodeServer(EVERYTHING), two: nodeServer(EVERYTHING) } });
  });
  afterAll(() => proxy?.close());

  it('rewrites each instance’s links to itself, and a read reaches the producer', async () => {
    const client = await proxy.connectV1();
    const tools = (await client.listTools()).tools.map((tool) => tool.name);
    const linksOf = async (backend: string): Promise<string[]> => {
      const name = tools.find((tool) => tool.startsWith(`${backend}__`) && tool.endsWith('resource-links'));
      expect(name).toBeDefined();
      const result = await client.callTool({ name: name!, arguments: { count: 2 } });
      return (result.content as Block[]).filter((block) => block.type === 'resource_link').map((b) => b.uri!);
    };
    const one = await linksOf('one');
    const two = await linksOf('two');
    expect(one.length).toBe(2);
    expect(one.every((uri) => uri.startsWith('mcp-proxy://one/'))).toBe(true);
    expect(two.every((uri) => uri.startsWith('mcp-proxy://two/'))).toBe(true);
    // Same original URIs under two instance prefixes.
    expect(one.map((uri) => uri.slice('mcp-proxy://one/'.length))).toEqual(
      two.map((uri) => uri.slice('mcp-proxy://two/'.length)),
    );

    for (const uri of [...one, ...two]) {
      const read = await client.readResource({ uri });
      expect(read.contents[0]?.uri).toBe(uri);
    }

    // With `one` gone, its links no longer read (they were never served by `two`); `two`'s still do.
    await proxy.core.removeBackend('one', { persist: false });
    await expect(client.readResource({ uri: one[0]! })).rejects.toThrow();
    expect((await client.readResource({ uri: two[0]! })).contents[0]?.uri).toBe(two[0]);
  });
});
