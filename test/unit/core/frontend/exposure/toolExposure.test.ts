import type { Tool } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { LoadedTools } from '../../../../../electron/core/frontend/exposure/loadedTools.js';
import { ToolExposure } from '../../../../../electron/core/frontend/exposure/toolExposure.js';
import { buildCatalog } from '../../../../../electron/core/catalog/catalog.js';
import { LOCAL_CLIENT, PolicySchema } from '../../../../../electron/core/platform/config/policyConfig.js';
import { PolicyEngine } from '../../../../../electron/core/catalog/policy/policyEngine.js';

const tool = (name: string, description: string): Tool => ({ name, description, inputSchema: { type: 'object' } });
const snapshot = (tools: Tool[]) => ({ tools, resources: [], resourceTemplates: [], prompts: [] });

/** A real catalog and policy engine over two backends, one without a prefix. */
function exposureOver(policy: Record<string, unknown>) {
  const { catalog } = buildCatalog(
    [
      {
        backendId: 'zoo',
        prefix: 'zoo',
        snapshot: snapshot([tool('feed_koala', 'Feeds the koala'), tool('feed_yak', 'Feeds the yak')]),
      },
      {
        backendId: 'bare',
        prefix: '',
        snapshot: snapshot([tool('search_tools', 'A backend tool named search_tools')]),
      },
    ],
    { separator: '__', maxItems: 1000 },
  );
  const parsed = PolicySchema.parse(policy);
  const engine = new PolicyEngine(parsed);
  return new ToolExposure({
    catalog: () => catalog,
    view: (client) => engine.view(client, catalog),
    policy: () => parsed,
  });
}

const names = (tools: Tool[]): string[] => tools.map((t) => t.name);

describe('ToolExposure under search+load', () => {
  const loader = { clients: { bot: { name: 'Bot', exposure: 'search+load' } } };

  it("lists a session's loaded tools after the meta-tools, and changes its fingerprint", () => {
    const exposure = exposureOver(loader);
    const loaded = new LoadedTools();
    const before = exposure.fingerprint('bot', loaded);
    const found = exposure.search('bot', 'feed the koala', 1);
    expect(exposure.load('bot', loaded, found)).toBe(true);
    expect(names(exposure.list('bot', loaded))).toEqual([
      'search_tools',
      'call_tool',
      'describe_tools',
      'zoo__feed_koala',
    ]);
    expect(exposure.fingerprint('bot', loaded)).not.toBe(before);
    // Other sessions, and the profile's own view, are untouched.
    expect(names(exposure.list('bot', new LoadedTools()))).toEqual(['search_tools', 'call_tool', 'describe_tools']);
    expect(exposure.fingerprint('bot')).toBe(before);
    expect(exposure.load('bot', loaded, found)).toBe(false);
  });

  it('loads nothing in plain search mode', () => {
    const exposure = exposureOver({ clients: { bot: { name: 'Bot', exposure: 'search' } } });
    const loaded = new LoadedTools();
    expect(exposure.load('bot', loaded, exposure.search('bot', 'feed the koala', 1))).toBe(false);
    expect(names(exposure.list('bot', loaded))).toEqual(['search_tools', 'call_tool', 'describe_tools']);
  });

  it('finds a backend tool named like a meta-tool but never lists or loads it beside the meta-tool', () => {
    const exposure = exposureOver(loader);
    const loaded = new LoadedTools();
    const found = exposure.search('bot', 'backend tool named search tools', 3);
    expect(found.map((t) => [t.name, t.server])).toContainEqual(['search_tools', 'bare']);
    exposure.load('bot', loaded, found);
    expect(names(exposure.list('bot', loaded)).filter((name) => name === 'search_tools')).toHaveLength(1);
    expect(names(exposure.shadowed('bot'))).toEqual(['search_tools']);
    // In `all` mode (the main token's default) it is listed under its own name.
    expect(names(exposure.list(LOCAL_CLIENT))).toContain('search_tools');
    expect(exposure.shadowed(LOCAL_CLIENT)).toEqual([]);
  });

  it('drops a loaded tool from the list once the client may no longer use it', () => {
    const exposure = exposureOver({ ...loader, backends: { zoo: { tools: { feed_yak: 'deny' } } } });
    const loaded = new LoadedTools();
    loaded.load(['zoo__feed_koala', 'zoo__feed_yak']);
    expect(names(exposure.list('bot', loaded))).toEqual([
      'search_tools',
      'call_tool',
      'describe_tools',
      'zoo__feed_koala',
    ]);
  });
});

describe('ToolExposure with pinMostUsed', () => {
  const habits = { clients: { bot: { name: 'Bot', exposure: 'search', pinMostUsed: 1 } } };

  it('lists the most-called tool beside the meta-tools, counting only tools the client may use', () => {
    let changes = 0;
    const { catalog } = buildCatalog(
      [
        {
          backendId: 'zoo',
          prefix: 'zoo',
          snapshot: snapshot([tool('feed_koala', 'Feeds the koala'), tool('feed_yak', 'Feeds the yak')]),
        },
      ],
      { separator: '__', maxItems: 1000 },
    );
    const parsed = PolicySchema.parse({ ...habits, backends: { zoo: { tools: { feed_koala: 'deny' } } } });
    const engine = new PolicyEngine(parsed);
    const exposure = new ToolExposure({
      catalog: () => catalog,
      view: (client) => engine.view(client, catalog),
      policy: () => parsed,
      pinsChanged: () => void changes++,
    });
    const meta = ['search_tools', 'call_tool', 'describe_tools'];
    expect(names(exposure.list('bot'))).toEqual(meta);
    // Unknown and denied names are not counted, however often.
    for (let i = 0; i < 5; i++) {
      exposure.counted('bot', 'zoo__nothing');
      exposure.counted('bot', 'zoo__feed_koala');
    }
    expect(names(exposure.list('bot'))).toEqual(meta);
    expect(changes).toBe(0);
    exposure.counted('bot', 'zoo__feed_yak');
    expect(changes).toBe(1);
    const listed = exposure.list('bot');
    expect(names(listed)).toEqual([...meta, 'zoo__feed_yak']);
    expect(listed[3]?._meta).toMatchObject({ 'anthropic/alwaysLoad': true });
    exposure.counted('bot', 'zoo__feed_yak');
    expect(changes).toBe(1);
    // The main client (all mode, no such setting): its calls change nothing.
    exposure.counted(LOCAL_CLIENT, 'zoo__feed_yak');
    expect(changes).toBe(1);
    expect(names(exposure.list(LOCAL_CLIENT))).toEqual(['zoo__feed_yak']);
  });
});
