/**
 * Tool overrides through the typed contract over the headless bridge (what
 * the catalog screen's editor calls): the server's own definition and a
 * preview of what the model sees with a draft and its token cost, problems
 * named by field; a wrong fixed value refused at save with nothing written;
 * a saved override seen by real MCP clients of both eras at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BridgeHarness } from '../../helpers/bridgeHarness.js';
import { waitUntil } from '../../helpers/processes.js';

const harness = await BridgeHarness.create();
beforeAll(() => harness.start());
afterAll(() => harness.stop());

const target = { backendId: 'mem', section: 'tools' as const, original: 'search_nodes' };

describe('overrides through the bridge', () => {
  it('previews a draft (name, description, fixed argument hidden, token cost) and names a wrong value', async () => {
    const client = await harness.bridge();
    const draft = { name: 'find', description: 'Finds notes', arguments: { query: { fixed: 'x' } } };
    const view = await client.call('overrides.get', { ...target, draft });
    if (!view.ok) throw new Error(view.error.message);
    expect(view.result.upstream).toMatchObject({ name: 'search_nodes', inputSchema: { properties: { query: {} } } });
    expect(view.result.preview).toMatchObject({ name: 'mem__find', description: 'Finds notes' });
    expect(Object.keys((view.result.preview?.inputSchema as { properties: object }).properties)).toEqual([]);
    expect(view.result.tokens).toBeGreaterThan(5);
    expect(view.result.problems).toEqual([]);

    const wrong = await client.call('overrides.get', { ...target, draft: { arguments: { query: { fixed: 42 } } } });
    expect(wrong.ok && wrong.result.problems).toEqual([
      { path: 'mcpServers.mem.overrides.tools.search_nodes.arguments.query.fixed', message: 'must be string' },
    ]);
  });

  it('refuses to save a wrong fixed value, naming the field, and writes nothing', async () => {
    const client = await harness.bridge();
    const refused = await client.call('overrides.set', {
      ...target,
      override: { arguments: { query: { fixed: 42 } } },
    });
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    expect(refused.error.code).toBe('config_invalid');
    expect(refused.error.message).toContain(
      'mcpServers.mem.overrides.tools.search_nodes.arguments.query.fixed: must be string',
    );
    expect((await harness.savedServers())['mem']?.['overrides']).toBeUndefined();
  });

  it('saves an override that MCP clients of both eras see at once, and removes it', async () => {
    const client = await harness.bridge();
    const saved = await client.call('overrides.set', {
      ...target,
      override: { name: 'find', description: 'Finds notes' },
    });
    expect(saved.ok).toBe(true);
    expect((await harness.savedServers())['mem']?.['overrides']).toEqual({
      tools: { search_nodes: { name: 'find', description: 'Finds notes' } },
    });
    for (const era of ['legacy', 'modern'] as const) {
      const mcp = await harness.mcpClient(era);
      const found = (await mcp.listTools()).tools.find((tool) => tool.name === 'mem__find');
      expect(found?.description).toBe('Finds notes');
    }
    const view = await client.call('overrides.get', target);
    expect(view.ok && view.result.override).toEqual({ name: 'find', description: 'Finds notes' });
    expect((await client.call('overrides.set', { ...target, override: null })).ok).toBe(true);
    const mcp = await harness.mcpClient('legacy');
    await waitUntil(async () => (await mcp.listTools()).tools.some((tool) => tool.name === 'mem__search_nodes'));
  });
});
