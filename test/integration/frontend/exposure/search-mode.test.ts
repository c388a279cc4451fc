/**
 * Search mode through the real endpoint and real SDK clients of both eras:
 * each exposure's tools/list, search_tools over exactly what a client may
 * use (compact entries, full ones on request), describe_tools, call_tool's
 * answer to arguments that do not fit, and call_tool on every path a direct call has (deny, ask, pinning,
 * progress, cancellation, elicitation, shortened names); auto switching to
 * search with list_changed when a server pushes a client past its cap.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { ClientTokens, PinStore } from '../../../../electron/core/catalog/index.js';
import { firstText, fixture, MEMORY, nodeServer, startProxy, tempDir, type Harness } from '../../../helpers/harness.js';
import { waitUntil } from '../../../helpers/processes.js';

const LONG = 'a_really_long_tool_name_for_the_name_budget';
type Found = { name: string; server: string; description: string; inputSchema: object };
type Compact = { name: string; server: string; purpose: string; args: string; readOnly?: true; destructive?: true };

const names = async (client: Client): Promise<string[]> => (await client.listTools()).tools.map((t) => t.name);
const text = (result: unknown): string => firstText(result as { content?: unknown });
const search = async (client: Client, query: string, limit?: number): Promise<Compact[]> => {
  const result = await client.callTool({ name: 'search_tools', arguments: { query, ...(limit ? { limit } : {}) } });
  return (result.structuredContent as { tools: Compact[] }).tools;
};
const callThrough = (client: Client, name: string, args?: Record<string, unknown>, options = {}) =>
  client.callTool({ name: 'call_tool', arguments: { name, ...(args ? { arguments: args } : {}) } }, options);

describe('search mode', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let proxy: Harness;
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    dir = await tempDir();
    const pins = new PinStore(join(dir.path, 'pins.json'));
    await pins.load();
    proxy = await startProxy(
      {
        mcpServers: {
          memory: nodeServer(MEMORY, [], { env: { MEMORY_FILE_PATH: join(dir.path, 'memory.jsonl') } }),
          slow: nodeServer(fixture('slow.mjs')),
          asks: nodeServer(fixture('asks.mjs')),
          mut: nodeServer(fixture('mutable.mjs')),
          cfg: nodeServer(fixture('configurable.mjs'), [], { env: { FIXTURE_TOOLS: `${LONG},plain` } }),
        },
        policy: {
          backends: {
            memory: { tools: { read_graph: 'deny' } },
            slow: { tools: { echo: 'ask' } },
            cfg: { alwaysShow: ['plain'] },
          },
        },
      },
      { tokens: new ClientTokens(join(dir.path, 'client-tokens.json')), pins },
    );
    const clients = proxy.core.profiles;
    tokens['searcher'] = await clients.createProfile('searcher', { name: 'Searcher', exposure: 'search' });
    tokens['shorty'] = await clients.createProfile('shorty', { name: 'Shorty', exposure: 'search', maxNameLength: 24 });
    tokens['hidden'] = await clients.createProfile('hidden', {
      name: 'Hidden',
      exposure: 'search',
      backends: ['slow'],
    });
  });
  afterAll(async () => {
    await proxy?.close();
    await dir?.cleanup();
  });

  it.each(['legacy', 'modern'] as const)(
    'lists every tool in all mode and exactly the meta-tools plus pinned ones in search mode (%s)',
    async (era) => {
      const all = await proxy.connect(era);
      const allNames = await names(all);
      expect(allNames).toEqual(expect.arrayContaining(['memory__create_entities', 'slow__sleep', 'cfg__plain']));
      expect(allNames).not.toContain('search_tools');
      const pinned = (await all.listTools()).tools.find((t) => t.name === 'cfg__plain');
      expect(pinned?._meta?.['anthropic/alwaysLoad']).toBe(true);

      const searcher = await proxy.connect(era, tokens['searcher']);
      const listed = (await searcher.listTools()).tools;
      expect(listed.map((t) => t.name)).toEqual(['search_tools', 'call_tool', 'describe_tools', 'cfg__plain']);
      expect(listed[3]?._meta?.['anthropic/alwaysLoad']).toBe(true);
      expect(listed[0]?.description).toMatch(/call_tool/);
    },
  );

  it.each(['legacy', 'modern'] as const)('search_tools finds a tool by a paraphrase (%s)', async (era) => {
    const client = await proxy.connect(era, tokens['searcher']);
    const found = await search(client, 'forget specific observations recorded on an entity', 3);
    expect(found[0]).toMatchObject({
      name: 'memory__delete_observations',
      server: 'memory',
      purpose: expect.stringContaining('observations'),
      args: 'deletions: object[]',
      destructive: true,
    });
    const raw = await client.callTool({ name: 'search_tools', arguments: { query: 'sleep for a while' } });
    expect(text(raw)).toContain('slow__sleep');
    await expect(client.callTool({ name: 'search_tools', arguments: { query: 'x', limit: 51 } })).rejects.toMatchObject(
      { code: -32602 },
    );
  });

  it.each(['legacy', 'modern'] as const)(
    'search_tools answers compactly, in full on request, and describe_tools gives full schemas (%s)',
    async (era) => {
      const client = await proxy.connect(era, tokens['searcher']);
      const query = 'sleep for a while';
      const compact = await client.callTool({ name: 'search_tools', arguments: { query, limit: 5 } });
      const full = await client.callTool({ name: 'search_tools', arguments: { query, limit: 5, detail: 'full' } });
      const compactTools = (compact.structuredContent as { tools: Compact[] }).tools;
      const fullTools = (full.structuredContent as { tools: Found[] }).tools;
      // The same tools in the same order; the compact answer has no schemas and is smaller.
      expect(compactTools.map((t) => t.name)).toEqual(fullTools.map((t) => t.name));
      expect(compactTools.find((t) => t.name === 'slow__sleep')).toEqual({
        name: 'slow__sleep',
        server: 'slow',
        purpose: expect.any(String),
        args: expect.stringMatching(/^ms: (number|integer)/),
      });
      expect(compactTools.every((t) => !('inputSchema' in t))).toBe(true);
      expect(text(compact)).toMatch(/- slow__sleep \(slow\): .* Args: ms: /);
      expect(JSON.stringify(compact).length).toBeLessThan(JSON.stringify(full).length);
      // The read-only hint reaches the model.
      const reads = await search(client, 'open specific nodes in the knowledge graph by name', 3);
      expect(reads.find((t) => t.name === 'memory__open_nodes')).toMatchObject({ readOnly: true });

      const described = await client.callTool({
        name: 'describe_tools',
        arguments: { names: ['slow__sleep', 'memory__read_graph', 'nope__never'] },
      });
      const structured = described.structuredContent as { tools: Found[]; unknown: string[] };
      expect(structured.tools).toEqual([fullTools.find((t) => t.name === 'slow__sleep')]);
      // A denied tool is described like one that does not exist.
      expect(structured.unknown).toEqual(['memory__read_graph', 'nope__never']);
      await expect(client.callTool({ name: 'describe_tools', arguments: { names: [] } })).rejects.toMatchObject({
        code: -32602,
      });
    },
  );

  it.each(['legacy', 'modern'] as const)(
    'call_tool with arguments that do not fit answers with what was wrong and the exact schema (%s)',
    async (era) => {
      const client = await proxy.connect(era, tokens['searcher']);
      const [described] = (
        (await client.callTool({ name: 'describe_tools', arguments: { names: ['memory__create_entities'] } }))
          .structuredContent as { tools: Found[] }
      ).tools;
      const wrong = await callThrough(client, 'memory__create_entities', { entities: 'Alice' });
      expect(wrong.isError).toBe(true);
      expect(text(wrong)).toContain('arguments.entities must be array');
      expect(text(wrong)).toContain(JSON.stringify(described!.inputSchema));
      const missing = await callThrough(client, 'memory__create_entities', {});
      expect(text(missing)).toContain("must have required property 'entities'");
      // Recovered in one step: the same call with arguments that fit works.
      const fixed = await callThrough(client, 'memory__create_entities', {
        entities: [{ name: `Alice-${era}`, entityType: 'person', observations: [] }],
      });
      expect(fixed.isError).toBeFalsy();
      expect(text(fixed)).toContain(`Alice-${era}`);
    },
  );

  it('never finds a denied tool, and call_tool answers it exactly like an unknown one', async () => {
    const client = await proxy.connect('legacy', tokens['searcher']);
    expect((await search(client, 'read the entire knowledge graph', 50)).map((t) => t.name)).not.toContain(
      'memory__read_graph',
    );
    const denied = await callThrough(client, 'memory__read_graph').catch((e: unknown) => e);
    const unknown = await callThrough(client, 'memory__never_existed').catch((e: unknown) => e);
    const direct = await client.callTool({ name: 'memory__read_graph', arguments: {} }).catch((e: unknown) => e);
    expect(denied).toMatchObject({ code: -32602 });
    expect((denied as Error).message).toBe((direct as Error).message);
    expect((denied as Error).message.replace('memory__read_graph', 'X')).toBe(
      (unknown as Error).message.replace('memory__never_existed', 'X'),
    );
  });

  it.each(['legacy', 'modern'] as const)(
    "search_tools's description names the servers the profile may see, with their tools (%s)",
    async (era) => {
      const describe = async (token: string | undefined) =>
        (await (await proxy.connect(era, token)).listTools()).tools.find((t) => t.name === 'search_tools')!
          .description!;
      const searcher = await describe(tokens['searcher']);
      expect(searcher).toContain('- slow (');
      expect(searcher).toMatch(/- memory \(\d+\): .*create_entities/);
      const hidden = await describe(tokens['hidden']);
      expect(hidden).toMatch(/- slow \(\d+\): /);
      expect(hidden).not.toContain('memory');
    },
  );

  it('searches only the servers a profile may see', async () => {
    const client = await proxy.connect('modern', tokens['hidden']);
    expect((await search(client, 'knowledge graph entities', 50)).map((t) => t.server)).not.toContain('memory');
    await expect(callThrough(client, 'memory__create_entities', { entities: [] })).rejects.toMatchObject({
      code: -32602,
    });
  });

  it.each(['legacy', 'modern'] as const)('call_tool waits for an ask approval (%s)', async (era) => {
    const detach = proxy.core.approvals.attach();
    const seen: unknown[] = [];
    const off = proxy.core.events.on('approvalsChanged', () => {
      for (const request of proxy.core.approvals.pending()) {
        seen.push(request);
        proxy.core.approvals.resolve(request.id, 'once');
      }
    });
    try {
      const client = await proxy.connect(era, tokens['searcher']);
      expect(text(await callThrough(client, 'slow__echo', { text: 'approved' }))).toBe('approved');
      expect(seen[0]).toMatchObject({ client: 'searcher', backend: 'slow', tool: 'echo', exposed: 'slow__echo' });
    } finally {
      off();
      detach();
    }
  });

  it.each(['legacy', 'modern'] as const)('call_tool relays progress and cancellation (%s)', async (era) => {
    const client = await proxy.connect(era, tokens['searcher']);
    const seen: number[] = [];
    const result = await callThrough(
      client,
      'slow__sleep',
      { ms: 200, steps: 4 },
      {
        onprogress: (progress: { progress: number }) => seen.push(progress.progress),
      },
    );
    expect(text(result)).toBe('slept 200');
    expect(seen.length).toBeGreaterThanOrEqual(2);

    const count = async () => Number(text(await callThrough(client, 'slow__cancelled_count')));
    const before = await count();
    const controller = new AbortController();
    const call = callThrough(client, 'slow__hang', {}, { signal: controller.signal }).catch((e: unknown) => e);
    await waitUntil(() => proxy.core.health().find((b) => b.id === 'slow')?.outstandingRequests === 1);
    controller.abort(new Error('stop'));
    await call;
    await waitUntil(async () => (await count()) === before + 1, { description: 'the backend to see the cancel' });
  });

  it.each(['legacy', 'modern'] as const)("an elicitation from call_tool's tool reaches the %s client", async (era) => {
    const client = await proxy.connect(era, tokens['searcher'], { capabilities: { elicitation: {} } });
    const asked: string[] = [];
    client.setRequestHandler('elicitation/create', async (request) => {
      asked.push((request.params as { message: string }).message);
      return { action: 'accept', content: { answer: `yes-${era}` } };
    });
    expect(text(await callThrough(client, 'asks__ask', { tag: era }))).toBe(`ask(${era}) -> accept:yes-${era}`);
    expect(asked).toEqual([`question for ${era}?`]);
  });

  it('returns shortened names under a name budget, and call_tool routes them back', async () => {
    const client = await proxy.connect('legacy', tokens['shorty']);
    const [found] = await search(client, 'really long tool name budget', 1);
    expect(found!.name).not.toBe(`cfg__${LONG}`);
    expect(found!.name.length).toBeLessThanOrEqual(24);
    expect(text(await callThrough(client, found!.name, { n: 1 }))).toBe(`${LONG}:{"n":1}`);
  });

  it('never finds a tool withheld by pinning', async () => {
    const client = await proxy.connect('legacy', tokens['searcher']);
    expect((await search(client, 'echo', 50)).map((t) => t.name)).toContain('mut__echo');
    await callThrough(client, 'mut__redescribe');
    await waitUntil(() => proxy.core.policy.pinChanges().length === 1, { description: 'the changed definition' });
    expect((await search(client, 'echo', 50)).map((t) => t.name)).not.toContain('mut__echo');
    await expect(callThrough(client, 'mut__echo', { text: 'x' })).rejects.toMatchObject({ code: -32602 });
  });
});

describe('auto exposure', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let proxy: Harness;

  beforeAll(async () => {
    dir = await tempDir();
    proxy = await startProxy(
      { mcpServers: { one: nodeServer(fixture('configurable.mjs'), [], { env: { FIXTURE_TOOLS: 'a,b,c' } }) } },
      { tokens: new ClientTokens(join(dir.path, 'client-tokens.json')) },
    );
  });
  afterAll(async () => {
    await proxy?.close();
    await dir?.cleanup();
  });

  it('lists all while the view fits maxTools, switches to search past it and says list_changed', async () => {
    const autoToken = await proxy.core.profiles.createProfile('capped', {
      name: 'Capped',
      exposure: 'auto',
      maxTools: 4,
    });
    const searchToken = await proxy.core.profiles.createProfile('searchy', { name: 'Searchy', exposure: 'search' });
    const legacy = await proxy.connect('legacy', autoToken);
    let legacyNotified = 0;
    legacy.setNotificationHandler('notifications/tools/list_changed', () => void legacyNotified++);
    let modernNotified = 0;
    const modern = await proxy.connect('modern', autoToken, {
      listChanged: { tools: { autoRefresh: false, debounceMs: 0, onChanged: () => modernNotified++ } },
    });
    await modern.listen({ toolsListChanged: true });
    const searcher = await proxy.connect('legacy', searchToken);
    let searcherNotified = 0;
    searcher.setNotificationHandler('notifications/tools/list_changed', () => void searcherNotified++);
    await names(searcher);
    expect(await names(legacy)).toEqual(['one__a', 'one__b', 'one__c']);

    await proxy.core.addBackend('two', nodeServer(fixture('configurable.mjs'), [], { env: { FIXTURE_TOOLS: 'd,e' } }));
    await waitUntil(() => legacyNotified > 0 && modernNotified > 0, { description: 'list_changed on both eras' });
    expect(await names(legacy)).toEqual(['search_tools', 'call_tool', 'describe_tools']);
    expect(await names(modern)).toEqual(['search_tools', 'call_tool', 'describe_tools']);
    const found = (await legacy.callTool({ name: 'search_tools', arguments: { query: 'e' } })).structuredContent as {
      tools: Found[];
    };
    expect(found.tools.map((t) => t.name)).toContain('two__e');
    // The search-mode client's list changed too: search_tools names the new server.
    await waitUntil(() => searcherNotified === 1, { description: 'list_changed for the new server' });
    const described = (await searcher.listTools()).tools[0]!.description;
    expect(described).toContain('- two (2): d, e');
    // Pinning a tool to always show changes it again.
    await proxy.core.policy.update((policy) => {
      policy.backends['two'] = { alwaysShow: ['d'] };
    });
    await waitUntil(() => searcherNotified === 2, { description: 'list_changed for the search-mode client' });
    expect(await names(searcher)).toEqual(['search_tools', 'call_tool', 'describe_tools', 'two__d']);
  });
});

describe('tokens', () => {
  it('counts a list past maxToolTokens as not fitting', async () => {
    const dir = await tempDir();
    const proxy = await startProxy(
      { mcpServers: { one: nodeServer(fixture('configurable.mjs'), [], { env: { FIXTURE_TOOLS: 'a,b,c' } }) } },
      { tokens: new ClientTokens(join(dir.path, 'client-tokens.json')) },
    );
    try {
      const token = await proxy.core.profiles.createProfile('tight', {
        name: 'Tight',
        exposure: 'auto',
        maxToolTokens: 40,
      });
      const roomy = await proxy.core.profiles.createProfile('roomy', {
        name: 'Roomy',
        exposure: 'auto',
        maxToolTokens: 4000,
      });
      expect(await names(await proxy.connect('legacy', token))).toEqual([
        'search_tools',
        'call_tool',
        'describe_tools',
      ]);
      expect(await names(await proxy.connect('legacy', roomy))).toEqual(['one__a', 'one__b', 'one__c']);
    } finally {
      await proxy.close();
      await dir.cleanup();
    }
  });
});

describe('list order and caching', () => {
  const start = async (order: string) => {
    const dir = await tempDir();
    const proxy = await startProxy(
      {
        mcpServers: {
          zed: nodeServer(fixture('configurable.mjs'), [], { env: { FIXTURE_TOOLS: order } }),
          abe: nodeServer(fixture('configurable.mjs'), [], { env: { FIXTURE_TOOLS: 'y,x' } }),
        },
      },
      { tokens: new ClientTokens(join(dir.path, 'client-tokens.json')) },
    );
    return {
      proxy,
      close: async () => {
        await proxy.close();
        await dir.cleanup();
      },
    };
  };

  it('lists tools in the same order across restarts whatever order a server lists them in, in both eras', async () => {
    const lists: string[][] = [];
    for (const order of ['delta,alpha,charlie', 'charlie,delta,alpha']) {
      const { proxy, close } = await start(order);
      try {
        for (const era of ['legacy', 'modern'] as const) lists.push(await names(await proxy.connect(era)));
      } finally {
        await close();
      }
    }
    // Config order of the servers, each server's tools by name.
    const expected = ['zed__alpha', 'zed__charlie', 'zed__delta', 'abe__x', 'abe__y'];
    expect(lists).toEqual([expected, expected, expected, expected]);
  });

  it('tells 2026-07-28 clients to keep no list result (ttlMs 0, private), and 2025-era ones nothing', async () => {
    const { proxy, close } = await start('a');
    try {
      const modern = (await (await proxy.connect('modern')).listTools()) as Record<string, unknown>;
      expect(modern).toMatchObject({ ttlMs: 0, cacheScope: 'private' });
      const prompts = (await (await proxy.connect('modern')).listPrompts()) as Record<string, unknown>;
      expect(prompts).toMatchObject({ ttlMs: 0, cacheScope: 'private' });
      const legacy = (await (await proxy.connect('legacy')).listTools()) as Record<string, unknown>;
      expect(legacy).not.toHaveProperty('ttlMs');
      expect(legacy).not.toHaveProperty('cacheScope');
    } finally {
      await close();
    }
  });
});
