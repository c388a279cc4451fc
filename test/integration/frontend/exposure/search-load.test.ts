/**
 * `search+load` through the real endpoint and real SDK clients of both eras:
 * a search adds what it found to that session's own tools/list and says
 * list_changed, the found tools are then called natively, at most 32 stay
 * (least recently used dropped), and one session's tools never reach another's
 * list; over HTTP and over stdio. Also a backend tool named like a meta-tool
 * (empty prefix): listed in `all`, found and called through call_tool in the
 * search modes.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as V1StdioTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { ClientTokens } from '../../../../electron/core/catalog/index.js';
import { serveStdio } from '../../../helpers/cli.js';
import { firstText, fixture, nodeServer, startProxy, tempDir, type Harness } from '../../../helpers/harness.js';
import { waitUntil } from '../../../helpers/processes.js';

const ANIMALS = (
  'aardvark badger camel dingo eagle ferret gibbon heron iguana jackal koala lemur marmot narwhal ocelot ' +
  'pelican quokka raccoon salmon tapir urchin vulture walrus yak zebra alpaca bison cobra donkey egret ' +
  'falcon gecko hamster ibis jaguar kiwi llama moose newt otter'
).split(' ');
const META = ['search_tools', 'call_tool', 'describe_tools'];

type Found = { name: string; server: string };
const names = async (client: Client): Promise<string[]> =>
  (await client.listTools(undefined, { cacheMode: 'bypass' })).tools.map((t) => t.name);
const search = async (client: Client, query: string, limit?: number): Promise<Found[]> => {
  const result = await client.callTool({ name: 'search_tools', arguments: { query, ...(limit ? { limit } : {}) } });
  return (result.structuredContent as { tools: Found[] }).tools;
};
const text = (result: unknown): string => firstText(result as { content?: unknown });

/** A 2025-era session or a 2026-07-28 client listening for tool changes, counting its list_changed. */
async function relister(proxy: Harness, era: 'legacy' | 'modern', token: string) {
  const seen = { changed: 0 };
  if (era === 'legacy') {
    const client = await proxy.connect('legacy', token);
    client.setNotificationHandler('notifications/tools/list_changed', () => void seen.changed++);
    return { client, seen };
  }
  // With `listChanged`, the client opens its listen stream (toolsListChanged) as it connects.
  const client = await proxy.connect('modern', token, {
    listChanged: { tools: { autoRefresh: false, debounceMs: 0, onChanged: () => void seen.changed++ } },
  });
  return { client, seen };
}

describe('search+load', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let proxy: Harness;
  const warnings: string[] = [];
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    dir = await tempDir();
    const toolsFile = join(dir.path, 'zoo.json');
    await writeFile(
      toolsFile,
      JSON.stringify(ANIMALS.map((animal) => ({ name: `groom_${animal}`, description: `Grooms the ${animal} pen` }))),
    );
    proxy = await startProxy(
      {
        mcpServers: {
          zoo: nodeServer(fixture('configurable.mjs'), [], { env: { FIXTURE_TOOLS_FILE: toolsFile } }),
          bare: nodeServer(fixture('configurable.mjs'), [], {
            prefix: '',
            env: { FIXTURE_TOOLS: 'search_tools,call_tool' },
          }),
        },
        // Pinned to always show: in a search-mode list it would sit beside the meta-tool of its name.
        policy: { backends: { bare: { alwaysShow: ['search_tools'] } } },
      },
      {
        tokens: new ClientTokens(join(dir.path, 'client-tokens.json')),
        deps: { logger: { info: () => undefined, warn: (m: string) => void warnings.push(m), error: () => undefined } },
      },
    );
    const clients = proxy.core.profiles;
    for (const era of ['legacy', 'modern']) {
      tokens[era] = await clients.createProfile(`loader-${era}`, { name: `Loader ${era}`, exposure: 'search+load' });
    }
    tokens['other'] = await clients.createProfile('other', { name: 'Other', exposure: 'search+load' });
    tokens['plain'] = await clients.createProfile('plain', { name: 'Plain', exposure: 'search' });
  });
  afterAll(async () => {
    await proxy?.close();
    await dir?.cleanup();
  });

  it.each(['legacy', 'modern'] as const)(
    'adds found tools to the list, says list_changed, and they are called natively (%s)',
    async (era) => {
      const { client, seen } = await relister(proxy, era, tokens[era]!);
      expect(await names(client)).toEqual(META);
      const found = await search(client, 'groom the koala', 3);
      expect(found[0]).toMatchObject({ name: 'zoo__groom_koala', server: 'zoo' });
      await waitUntil(() => seen.changed === 1, { description: 'list_changed after the search' });
      const listed = await names(client);
      expect(listed.slice(0, META.length)).toEqual(META);
      expect(listed.slice(META.length).sort()).toEqual(found.map((t) => t.name).sort());
      expect(text(await client.callTool({ name: 'zoo__groom_koala', arguments: { n: 1 } }))).toBe(
        'groom_koala:{"n":1}',
      );
      // Finding the same tools again changes nothing: no second list_changed.
      await search(client, 'groom the koala', 3);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(seen.changed).toBe(1);
    },
  );

  it('keeps at most 32 per session, dropping the least recently used', async () => {
    const { client, seen } = await relister(proxy, 'legacy', tokens['other']!);
    const found = (await search(client, 'grooms the pen', 50)).map((t) => t.name);
    expect(found).toHaveLength(ANIMALS.length);
    await waitUntil(() => seen.changed === 1, { description: 'list_changed after the search' });
    const loaded = (await names(client)).slice(META.length);
    // The best 32 of the 40 found.
    expect(loaded.sort()).toEqual(found.slice(0, 32).sort());
    // found[31] was loaded first (least recently used); a native call makes it recent.
    await client.callTool({ name: found[31]!, arguments: {} });
    const [extra] = await search(client, found[35]!.replace('zoo__groom_', ''), 1);
    expect(extra!.name).toBe(found[35]);
    await waitUntil(() => seen.changed === 2, { description: 'list_changed after the second search' });
    const after = await names(client);
    expect(after).toHaveLength(META.length + 32);
    expect(after).toContain(found[31]);
    expect(after).toContain(found[35]);
    expect(after).not.toContain(found[30]);
  });

  it("never puts one session's tools in another session's list", async () => {
    const first = await relister(proxy, 'legacy', tokens['legacy']!);
    const second = await relister(proxy, 'legacy', tokens['legacy']!);
    const elsewhere = await relister(proxy, 'modern', tokens['modern']!);
    await search(first.client, 'groom the walrus', 1);
    await waitUntil(() => first.seen.changed === 1, { description: 'list_changed for the searching session' });
    expect(await names(first.client)).toContain('zoo__groom_walrus');
    expect(await names(second.client)).toEqual(META);
    expect(await names(elsewhere.client)).not.toContain('zoo__groom_walrus');
    expect(second.seen.changed).toBe(0);
  });

  it('gives plain search to a 2026-07-28 client that does not listen, and to search mode', async () => {
    const quiet = await proxy.connect('modern', tokens['other']);
    const before = await names(quiet);
    const found = await search(quiet, 'groom the yak', 1);
    expect(found[0]!.name).toBe('zoo__groom_yak');
    expect(await names(quiet)).toEqual(before);
    const plain = await relister(proxy, 'legacy', tokens['plain']!);
    await search(plain.client, 'groom the yak', 1);
    expect(await names(plain.client)).toEqual(META);
    expect(plain.seen.changed).toBe(0);
  });

  it('lists a backend tool named like a meta-tool in all mode, and reaches it through call_tool in search modes', async () => {
    const all = await proxy.connect('legacy');
    expect(await names(all)).toEqual(expect.arrayContaining(['search_tools', 'call_tool']));
    expect(text(await all.callTool({ name: 'search_tools', arguments: { q: 1 } }))).toBe('search_tools:{"q":1}');

    for (const token of [tokens['plain']!, tokens['legacy']!]) {
      const { client } = await relister(proxy, 'legacy', token);
      const found = await search(client, 'search tools from configurable fixture', 5);
      expect(found).toEqual(
        expect.arrayContaining([expect.objectContaining({ name: 'search_tools', server: 'bare' })]),
      );
      // One tool of that name in the list, and it is the meta-tool.
      const listed = (await client.listTools(undefined, { cacheMode: 'bypass' })).tools;
      const named = listed.filter((tool) => tool.name === 'search_tools');
      expect(named).toHaveLength(1);
      expect(named[0]!.inputSchema.required).toEqual(['query']);
      const called = await client.callTool({
        name: 'call_tool',
        arguments: { name: 'search_tools', arguments: { q: 2 } },
      });
      expect(text(called)).toBe('search_tools:{"q":2}');
      const viaCall = await client.callTool({ name: 'call_tool', arguments: { name: 'call_tool' } });
      expect(text(viaCall)).toBe('call_tool:{}');
    }
    expect(warnings.filter((m) => m.includes('"search_tools"') && m.includes('call_tool'))).not.toHaveLength(0);
  });
});

describe('search+load over stdio', () => {
  it('loads found tools into the connection a v1 SDK client launched, and says list_changed', async () => {
    const dir = await tempDir();
    const configPath = join(dir.path, 'config.json');
    await writeFile(
      configPath,
      JSON.stringify({
        mcpServers: {
          zoo: nodeServer(fixture('configurable.mjs'), [], { env: { FIXTURE_TOOLS: 'groom_koala,groom_yak' } }),
        },
        policy: { exposure: 'search+load' },
      }),
    );
    const client = new V1Client({ name: 'stdio-v1', version: '1' });
    let changed = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void changed++);
    await client.connect(
      new V1StdioTransport(
        serveStdio(configPath, undefined, { XDG_CONFIG_HOME: join(dir.path, 'xdg'), SWITCHBOARD_TOKEN: '' }),
      ),
    );
    try {
      const listed = async () => (await client.listTools()).tools.map((t) => t.name);
      expect(await listed()).toEqual(META);
      await waitUntil(
        async () => {
          const result = await client.callTool({ name: 'search_tools', arguments: { query: 'groom koala', limit: 1 } });
          return (result.structuredContent as { tools: Found[] }).tools[0]?.name === 'zoo__groom_koala';
        },
        { timeoutMs: 15_000, description: 'the backend to be searchable' },
      );
      await waitUntil(() => changed > 0, { description: 'list_changed over stdio' });
      expect(await listed()).toEqual([...META, 'zoo__groom_koala']);
      expect(text(await client.callTool({ name: 'zoo__groom_koala', arguments: {} }))).toBe('groom_koala:{}');
    } finally {
      await client.close();
      await dir.cleanup();
    }
  });
});
