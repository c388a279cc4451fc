/**
 * The merged catalog through the proxy, with real servers (server-everything,
 * server-memory) and our fixtures, read by a real SDK client.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { EVERYTHING, MEMORY, firstText, fixture, nodeServer, startProxy, type Harness } from '../../helpers/harness.js';

describe('catalog through the proxy', () => {
  let proxy: Harness;
  let client: Client;

  beforeAll(async () => {
    proxy = await startProxy({
      mcpServers: {
        everything: nodeServer(EVERYTHING, ['stdio']),
        memory: nodeServer(MEMORY, [], { prefix: 'mem' }),
        odd: nodeServer(fixture('odd-names.mjs')),
        pages: nodeServer(fixture('paginated.mjs'), [], { env: { COUNT: '25', PAGE_SIZE: '10' } }),
        bare: nodeServer(fixture('configurable.mjs'), [], { prefix: '', env: { FIXTURE_TOOLS: 'standalone_tool' } }),
      },
    });
    client = await proxy.connect();
  });
  afterAll(() => proxy.close());

  it('merges every backend under prefixed names, with an unprefixed backend as-is', async () => {
    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names).toContain('everything__echo');
    expect(names).toContain('everything__get-sum');
    expect(names).toContain('mem__create_entities');
    expect(names).toContain('pages__tool_000');
    expect(names).toContain('standalone_tool');
    for (const name of names) expect(name).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
  });

  it('follows list cursors to the last page of every list', async () => {
    const [{ tools }, { resources }, { resourceTemplates }, { prompts }] = await Promise.all([
      client.listTools(),
      client.listResources(),
      client.listResourceTemplates(),
      client.listPrompts(),
    ]);
    expect(tools.filter((tool) => tool.name.startsWith('pages__'))).toHaveLength(25);
    expect(prompts.filter((prompt) => prompt.name.startsWith('pages__'))).toHaveLength(25);
    expect(resources.filter((resource) => resource.uri.startsWith('mcp-proxy://pages/'))).toHaveLength(25);
    expect(resourceTemplates.filter((template) => template.uriTemplate.startsWith('mcp-proxy://pages/'))).toHaveLength(
      25,
    );
    expect(tools.map((tool) => tool.name)).toContain('pages__tool_024');
  });

  it('calls tools on real servers with their original names', async () => {
    const echo = await client.callTool({ name: 'everything__echo', arguments: { message: 'hi there' } });
    expect(firstText(echo)).toContain('hi there');
    const sum = await client.callTool({ name: 'everything__get-sum', arguments: { a: 2, b: 40 } });
    expect(firstText(sum)).toContain('42');
    await client.callTool({
      name: 'mem__create_entities',
      arguments: { entities: [{ name: 'Ada', entityType: 'person', observations: ['wrote the first program'] }] },
    });
    const graph = await client.callTool({ name: 'mem__read_graph', arguments: {} });
    expect(firstText(graph)).toContain('Ada');
    const paged = await client.callTool({ name: 'pages__tool_024', arguments: { x: 1 } });
    expect(firstText(paged)).toBe('called tool_024 with {"x":1}');
    const bare = await client.callTool({ name: 'standalone_tool', arguments: {} });
    expect(firstText(bare)).toBe('standalone_tool:{}');
  });

  it('sanitises names clients would reject and shortens long ones with a stable hash', async () => {
    const { tools } = await client.listTools();
    const odd = tools.filter((tool) => tool.name.startsWith('odd__'));
    const names = odd.map((tool) => tool.name);
    expect(names).toEqual(
      expect.arrayContaining(['odd__read_file', 'odd__ns_tool', 'odd__with_slash', 'odd__ok_name']),
    );
    const long = names.find((name) => name.startsWith('odd__very_long_tool_name_'));
    expect(long).toHaveLength(64);
    expect(long).toMatch(/_[0-9a-f]{8}$/);
    // Routing goes through the lookup table: the backend sees its own names.
    expect(firstText(await client.callTool({ name: 'odd__read_file', arguments: {} }))).toBe(
      'called read.file with {}',
    );
    expect(firstText(await client.callTool({ name: 'odd__ns_tool', arguments: {} }))).toBe('called ns:tool with {}');
    expect(firstText(await client.callTool({ name: long!, arguments: {} }))).toMatch(/^called very_long_tool_name_/);
  });

  it('exposes resources and templates as mcp-proxy://<id>/<original> and reads through them', async () => {
    const { resources } = await client.listResources();
    expect(resources.map((resource) => resource.uri)).toEqual(
      expect.arrayContaining(['mcp-proxy://odd/note://a', 'mcp-proxy://odd/note://b']),
    );
    const read = await client.readResource({ uri: 'mcp-proxy://odd/note://a' });
    expect(read.contents[0]).toMatchObject({ uri: 'mcp-proxy://odd/note://a', text: 'read note://a' });
    const { resourceTemplates } = await client.listResourceTemplates();
    const templates = resourceTemplates.map((template) => template.uriTemplate);
    expect(templates).toContain('mcp-proxy://odd/note://tpl/{id}');
    const instance = await client.readResource({ uri: 'mcp-proxy://odd/note://tpl/7' });
    expect(instance.contents[0]).toMatchObject({ uri: 'mcp-proxy://odd/note://tpl/7', text: 'read note://tpl/7' });
    const dynamic = await client.readResource({ uri: 'mcp-proxy://everything/demo://resource/dynamic/text/3' });
    expect(dynamic.contents[0]?.uri).toBe('mcp-proxy://everything/demo://resource/dynamic/text/3');
  });

  it('refuses unsupported templates with the reason, and keeps the rest of the backend', () => {
    const odd = proxy.core.health().find((backend) => backend.id === 'odd');
    expect(odd?.status).toBe('up');
    expect(odd?.warnings).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/bad:\/\/\{;param\}.*path-style parameter operator/),
        expect.stringMatching(/bad2:\/\/\{id:3\}.*prefix modifier/),
      ]),
    );
  });

  it('answers an ambiguous template instance with invalid params', async () => {
    await expect(client.readResource({ uri: 'mcp-proxy://odd/amb://x/y' })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringMatching(/Ambiguous resource.*2 templates/),
    });
    const single = await client.readResource({ uri: 'mcp-proxy://odd/amb://x/zzz' });
    expect(single.contents[0]).toMatchObject({ text: 'read amb://x/zzz' });
  });

  it('rewrites resource links in tool and prompt results when the target is in the catalog', async () => {
    const result = await client.callTool({ name: 'odd__links', arguments: {} });
    const content = result.content as { type: string; uri?: string; resource?: { uri: string } }[];
    const links = content.filter((block) => block.type === 'resource_link').map((block) => block.uri);
    expect(links).toEqual(['mcp-proxy://odd/note://a', 'http://example.com/not-ours', 'mcp-proxy://odd/note://tpl/42']);
    const embedded = content.find((block) => block.type === 'resource');
    expect(embedded?.resource?.uri).toBe('mcp-proxy://odd/note://b');
    const prompt = await client.getPrompt({ name: 'odd__summarize', arguments: { topic: 'x' } });
    const promptLinks = prompt.messages
      .map((message) => message.content)
      .filter((block) => block.type === 'resource_link');
    expect(promptLinks).toEqual([expect.objectContaining({ uri: 'mcp-proxy://odd/note://a' })]);
  });

  it('gets prompts and completes prompt arguments and template variables', async () => {
    const prompt = await client.getPrompt({ name: 'everything__args-prompt', arguments: { city: 'Lyon' } });
    expect(JSON.stringify(prompt.messages)).toContain('Lyon');
    const topic = await client.complete({
      ref: { type: 'ref/prompt', name: 'odd__summarize' },
      argument: { name: 'topic', value: 'al' },
    });
    expect(topic.completion.values).toEqual(['alpha']);
    const id = await client.complete({
      ref: { type: 'ref/resource', uri: 'mcp-proxy://odd/note://tpl/{id}' },
      argument: { name: 'id', value: '4' },
    });
    expect(id.completion.values).toEqual(['42']);
  });

  it('answers unknown tools, prompts and resources with invalid params naming the item', async () => {
    await expect(client.callTool({ name: 'nope__tool', arguments: {} })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('Unknown tool: nope__tool'),
    });
    await expect(client.getPrompt({ name: 'odd__missing' })).rejects.toMatchObject({ code: -32602 });
    await expect(client.readResource({ uri: 'mcp-proxy://odd/note://zzz' })).rejects.toMatchObject({ code: -32602 });
    await expect(client.readResource({ uri: 'note://a' })).rejects.toMatchObject({ code: -32602 });
    await expect(
      client.complete({ ref: { type: 'ref/prompt', name: 'ghost' }, argument: { name: 'x', value: '' } }),
    ).rejects.toMatchObject({ code: -32602 });
  });
});
