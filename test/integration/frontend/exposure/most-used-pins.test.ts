/**
 * `pinMostUsed` on a search-mode profile, through the real endpoint and SDK
 * clients of both eras: the tools that profile calls most join its tools/list
 * beside the meta-tools (marked to always load, like `alwaysShow`), its
 * sessions are told when that set changes, and a profile without the setting
 * keeps the meta-tools only, however much it calls.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { ClientTokens } from '../../../../electron/core/catalog/index.js';
import { fixture, nodeServer, startProxy, tempDir, type Harness } from '../../../helpers/harness.js';
import { waitUntil } from '../../../helpers/processes.js';

const META = ['search_tools', 'call_tool', 'describe_tools'];
const names = async (client: Client): Promise<string[]> => (await client.listTools()).tools.map((t) => t.name);
const callThrough = (client: Client, name: string) =>
  client.callTool({ name: 'call_tool', arguments: { name, arguments: {} } });

describe('pinMostUsed', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let proxy: Harness;
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    dir = await tempDir();
    proxy = await startProxy(
      { mcpServers: { cfg: nodeServer(fixture('configurable.mjs'), [], { env: { FIXTURE_TOOLS: 'a,b,c' } }) } },
      { tokens: new ClientTokens(join(dir.path, 'client-tokens.json')) },
    );
    const profiles = proxy.core.profiles;
    tokens['habits'] = await profiles.createProfile('habits', { name: 'Habits', exposure: 'search', pinMostUsed: 1 });
    tokens['plain'] = await profiles.createProfile('plain', { name: 'Plain', exposure: 'search' });
  });
  afterAll(async () => {
    await proxy?.close();
    await dir?.cleanup();
  });

  it('lists the tool a profile calls most beside the meta-tools and tells its sessions when that changes', async () => {
    const legacy = await proxy.connect('legacy', tokens['habits']);
    let told = 0;
    legacy.setNotificationHandler('notifications/tools/list_changed', () => void told++);
    const modern = await proxy.connect('modern', tokens['habits']);
    expect(await names(legacy)).toEqual(META);

    await callThrough(legacy, 'cfg__b');
    await waitUntil(() => told === 1, { description: 'list_changed for the first most-used tool' });
    const listed = (await legacy.listTools()).tools;
    expect(listed.map((t) => t.name)).toEqual([...META, 'cfg__b']);
    expect(listed[3]?._meta).toMatchObject({ 'anthropic/alwaysLoad': true });
    // A 2026-07-28 client of the profile sees the same list; its calls count too.
    expect(await names(modern)).toEqual([...META, 'cfg__b']);

    // c overtakes b (two calls against one): the one pin moves, and the session is told once more.
    await callThrough(modern, 'cfg__c');
    await callThrough(modern, 'cfg__c');
    await waitUntil(() => told === 2, { description: 'list_changed when the most-used tool changes' });
    expect(await names(legacy)).toEqual([...META, 'cfg__c']);
    // Another call of the tool already pinned changes nothing.
    await callThrough(legacy, 'cfg__c');
    expect(await names(legacy)).toEqual([...META, 'cfg__c']);
    expect(told).toBe(2);
    // Direct calls count too (a 2026-07-28 one takes the plain-call fast path): four of a overtake c's three.
    for (let i = 0; i < 4; i++) await modern.callTool({ name: 'cfg__a', arguments: {} });
    await waitUntil(() => told === 3, { description: 'list_changed when direct calls change the most-used tool' });
    expect(await names(legacy)).toEqual([...META, 'cfg__a']);
  });

  it('pins nothing for a profile without the setting', async () => {
    const client = await proxy.connect('legacy', tokens['plain']);
    for (let i = 0; i < 3; i++) await callThrough(client, 'cfg__a');
    expect(await names(client)).toEqual(META);
  });
});
