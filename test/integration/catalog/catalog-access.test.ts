/**
 * The Catalog screen's view of one client profile, over the real bridge:
 * each item's state for that profile, token costs, `search_tools` run as
 * that profile (compared with what a real SDK client holding its token
 * gets), a denied Try it that says so, bulk rules in one write, and the main
 * token's exposure.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BridgeClient } from '../../helpers/bridgeClient.js';
import { BridgeHarness } from '../../helpers/bridgeHarness.js';
import { waitUntil } from '../../helpers/processes.js';

const harness = await BridgeHarness.create();
let bridge: BridgeClient;
let cursor: Client;

beforeAll(async () => {
  await harness.start();
  bridge = await harness.bridge();
  await waitUntil(async () => {
    const entries = await bridge.call('catalog.list');
    return entries.ok && entries.result.some((entry) => entry.backendId === 'mem');
  });
  const created = await bridge.call('profiles.createToken', { id: 'cursor', name: 'Cursor' });
  if (!created.ok) throw new Error(created.error.message);
  cursor = new Client({ name: 'cursor-like', version: '1' });
  await cursor.connect(
    new StreamableHTTPClientTransport(new URL(harness.headless.url), {
      requestInit: { headers: { Authorization: `Bearer ${created.result.token}` } },
    }),
  );
  harness.mcpClients.push(cursor);
}, 60_000);
afterAll(() => harness.stop());

async function access(profile?: string) {
  const outcome = await bridge.call('catalog.access', profile === undefined ? {} : { profile });
  if (!outcome.ok) throw new Error(outcome.error.message);
  return outcome.result;
}

describe('the catalog as one profile gets it', () => {
  it('gives every item its state and every tool its token cost; totals match the real tools/list', async () => {
    const view = await access();
    expect(view.name).toBe('the main token');
    const tools = view.items.filter((item) => item.kind === 'tools');
    expect(tools.length).toBeGreaterThan(3);
    expect(tools.every((item) => item.state === 'allowed' && item.listed && (item.tokens ?? 0) > 0)).toBe(true);
    const listed = (await cursor.listTools()).tools;
    expect(view.tools.listed).toBe(listed.length);
    expect(view.tools.allTokens).toBe(view.tools.tokens);
    expect(view.tools.searchTokens).toBeLessThan(view.tools.allTokens / 2);
  });

  it('marks a tool denied for one profile, with what it inherits, and Try it says it is denied', async () => {
    const before = await access('cursor');
    const readGraph = before.items.find((item) => item.backendId === 'mem' && item.original === 'read_graph')!;
    expect(
      await bridge.call('policy.setRules', {
        profile: 'cursor',
        rules: [{ backendId: 'mem', kind: 'tools', original: 'read_graph', rule: 'deny' }],
      }),
    ).toMatchObject({ ok: true });
    const after = await access('cursor');
    expect(after.items.find((item) => item.exposed === readGraph.exposed)).toMatchObject({
      state: 'denied',
      rule: 'deny',
      source: 'client',
      own: true,
      inherited: 'allow',
      listed: false,
    });
    expect((await access()).items.find((item) => item.exposed === readGraph.exposed)?.state).toBe('allowed');
    expect((await cursor.listTools()).tools.map((tool) => tool.name)).not.toContain(readGraph.exposed);
    expect(after.tools.listed).toBe(before.tools.listed - 1);

    const tried = await bridge.call('catalog.callTool', { name: readGraph.exposed, arguments: {}, profile: 'cursor' });
    expect(tried).toMatchObject({ ok: false, error: { code: 'policy_denied' } });
    expect(tried.ok ? '' : tried.error.message).toContain('denied by your rule for Cursor');
    // The main token is not denied: its Try it runs.
    expect(await bridge.call('catalog.callTool', { name: readGraph.exposed, arguments: {} })).toMatchObject({
      ok: true,
      result: { isError: false },
    });
  });

  it('runs search_tools as the profile would: the same results as its real meta-tool, never a denied tool', async () => {
    expect(await bridge.call('profiles.setExposure', { id: 'cursor', exposure: 'search' })).toMatchObject({ ok: true });
    const view = await access('cursor');
    expect(view.tools).toMatchObject({ exposure: 'search', inForce: 'search', listed: 3 });
    expect(view.tools.tokens).toBe(view.tools.searchTokens);
    for (const query of ['read the knowledge graph', 'add observations to entities', 'echo']) {
      const found = await bridge.call('catalog.search', { profile: 'cursor', query, limit: 5 });
      const real = (await cursor.callTool({ name: 'search_tools', arguments: { query, limit: 5 } })) as {
        structuredContent: { tools: { name: string }[] };
      };
      expect(found.ok && found.result.map((tool) => tool.name)).toEqual(
        real.structuredContent.tools.map((t) => t.name),
      );
      expect(found.ok && found.result.some((tool) => tool.name === 'mem__read_graph')).toBe(false);
    }
    const asMain = await bridge.call('catalog.search', { query: 'read the knowledge graph', limit: 5 });
    expect(asMain.ok && asMain.result.map((tool) => tool.name)).toContain('mem__read_graph');
    expect(await bridge.call('catalog.search', { profile: 'cursor', query: '  ' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_params' },
    });
  });

  it('sets the main token exposure (the policy default) from the contract', async () => {
    expect(await bridge.call('profiles.setExposure', { id: '*', exposure: 'search' })).toMatchObject({ ok: true });
    expect((await access()).tools).toMatchObject({ exposure: 'search', inForce: 'search' });
    const policy = await bridge.call('policy.get', {});
    expect(policy.ok && policy.result.tools).toMatchObject({ exposure: 'search', inForce: 'search', listed: 3 });
    const main = await harness.mcpClient('legacy');
    expect((await main.listTools()).tools.map((tool) => tool.name)).toEqual([
      'search_tools',
      'call_tool',
      'describe_tools',
    ]);
    expect(await bridge.call('profiles.setExposure', { id: '*', exposure: null })).toMatchObject({ ok: true });
    expect((await access()).tools.inForce).toBe('all');
    expect((await access()).tools.exposure).toBeUndefined();
  });

  it('says why a profile does not get a tool: its tool cap, its server list, a server switched off', async () => {
    expect(await bridge.call('profiles.setExposure', { id: 'cursor', exposure: 'all' })).toMatchObject({ ok: true });
    await harness.headless.core.policy.update((policy) => {
      policy.clients['cursor']!.maxTools = 2;
      policy.clients['cursor']!.maxNameLength = 16;
    });
    const capped = await access('cursor');
    const tools = capped.items.filter((item) => item.kind === 'tools');
    const listed = (await cursor.listTools()).tools;
    expect(listed).toHaveLength(2);
    expect(tools.filter((item) => item.listed).map((item) => item.clientName ?? item.exposed)).toEqual(
      listed.map((tool) => tool.name),
    );
    expect(tools.filter((item) => item.state === 'over-cap').length).toBe(tools.length - 3); // 2 listed, 1 denied
    expect(tools.filter((item) => item.listed).every((item) => (item.clientName ?? item.exposed).length <= 16)).toBe(
      true,
    );
    expect(capped.tools).toMatchObject({ allListed: 2, listed: 2 });
    await harness.headless.core.policy.update((policy) => {
      delete policy.clients['cursor']!.maxTools;
      delete policy.clients['cursor']!.maxNameLength;
    });

    await bridge.call('policy.setBackend', { backendId: 'remote', profile: 'cursor', visible: false });
    const hidden = await access('cursor');
    expect(new Set(hidden.items.filter((i) => i.backendId === 'remote').map((i) => i.state))).toEqual(
      new Set(['server-hidden']),
    );
    await bridge.call('policy.setBackend', { backendId: 'remote', profile: 'cursor', visible: true });
    await bridge.call('policy.setBackend', { backendId: 'remote', enabled: false });
    const off = await access();
    expect(new Set(off.items.filter((i) => i.backendId === 'remote').map((i) => i.state))).toEqual(
      new Set(['server-off']),
    );
    const remoteTool = off.items.find((i) => i.backendId === 'remote' && i.kind === 'tools')!;
    const tried = await bridge.call('catalog.callTool', { name: remoteTool.exposed, arguments: {} });
    expect(tried.ok ? '' : tried.error.message).toContain('clients may not use server "remote"');
    await bridge.call('policy.setBackend', { backendId: 'remote', enabled: true });
  });

  it('refuses a bad bulk change naming the entry, and changes nothing', async () => {
    const before = await access('cursor');
    const outcome = await bridge.call('policy.setRules', {
      profile: 'cursor',
      rules: [
        { backendId: 'mem', kind: 'tools', original: 'create_entities', rule: 'deny' },
        { backendId: 'mem', kind: 'prompts', original: 'x', rule: 'ask' },
      ],
    });
    expect(outcome).toMatchObject({ ok: false, error: { code: 'invalid_params' } });
    expect(outcome.ok ? '' : outcome.error.message).toContain('rules[1]');
    expect((await access('cursor')).items).toEqual(before.items);
  });
});
