/**
 * Authorization, enforced on every path: lists, calls, reads (template
 * instances too), prompts, completions and subscriptions. A denied item answers
 * exactly as an unknown one; changes reach connected clients of both eras at
 * once; client profiles with their own tokens see their own catalogs.
 */
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { ClientTokens } from '../../../electron/core/catalog/index.js';
import { firstText, fixture, nodeServer, startProxy, tempDir, type Harness } from '../../helpers/harness.js';
import { waitUntil } from '../../helpers/processes.js';

const servers = {
  odd: nodeServer(fixture('odd-names.mjs')),
  upd: nodeServer(fixture('updates.mjs'), [], { env: { FIXTURE_SCHEME: 'memo' } }),
  cfg: nodeServer(fixture('configurable.mjs'), [], { env: { FIXTURE_TOOLS: 'one,two,three,four' } }),
};

describe('policy', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let proxy: Harness;

  beforeEach(async () => {
    dir = await tempDir();
    const tokens = new ClientTokens(join(dir.path, 'client-tokens.json'));
    proxy = await startProxy({ mcpServers: servers }, { tokens });
  });
  afterEach(async () => {
    await proxy.close();
    await dir.cleanup();
  });

  it.each(['legacy', 'modern'] as const)(
    'a denied tool vanishes for a connected %s client and answers like an unknown one',
    async (era) => {
      const client = await proxy.connect(era);
      expect((await client.listTools()).tools.map((t) => t.name)).toContain('odd__ok_name');
      await proxy.core.policy.setRule('odd', 'tools', 'ok_name', 'deny');
      expect((await client.listTools()).tools.map((t) => t.name)).not.toContain('odd__ok_name');
      const denied = await client.callTool({ name: 'odd__ok_name', arguments: {} }).catch((e: unknown) => e);
      const unknown = await client.callTool({ name: 'odd__never_existed', arguments: {} }).catch((e: unknown) => e);
      expect(denied).toMatchObject({ code: -32602, message: expect.stringContaining('Unknown tool: odd__ok_name') });
      expect((denied as Error).message.replace('odd__ok_name', 'X')).toBe(
        (unknown as Error).message.replace('odd__never_existed', 'X'),
      );
      await proxy.core.policy.setRule('odd', 'tools', 'ok_name', 'allow');
      expect(
        firstText((await client.callTool({ name: 'odd__ok_name', arguments: {} })) as { content?: unknown }),
      ).toContain('ok_name');
    },
  );

  it('tells connected 2025 clients their lists changed when the policy changes', async () => {
    const client = await proxy.connectV1();
    let notified = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void notified++);
    // The v1 client opens its GET stream after initialize, in the background; toggle until it listens.
    let rule: 'deny' | 'allow' = 'deny';
    await waitUntil(
      async () => {
        await proxy.core.policy.setRule('cfg', 'tools', 'two', rule);
        rule = rule === 'deny' ? 'allow' : 'deny';
        await new Promise((resolve) => setTimeout(resolve, 50));
        return notified > 0;
      },
      { description: 'list_changed after a toggle' },
    );
  });

  it.each(['legacy', 'modern'] as const)(
    'enforces resources, templates, prompts and completions for a %s client',
    async (era) => {
      const client = await proxy.connect(era);
      // Seen before the toggle: the change must reach this connected client.
      expect((await client.listPrompts()).prompts.map((p) => p.name)).toContain('odd__summarize');
      await proxy.core.policy.setRule('odd', 'resources', 'note://a', 'deny');
      await proxy.core.policy.setRule('odd', 'resourceTemplates', 'note://tpl/{id}', 'deny');
      await proxy.core.policy.setRule('odd', 'prompts', 'summarize', 'deny');
      expect((await client.listResources()).resources.map((r) => r.uri)).not.toContain('mcp-proxy://odd/note://a');
      expect((await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate)).not.toContain(
        'mcp-proxy://odd/note://tpl/{id}',
      );
      expect((await client.listPrompts()).prompts.map((p) => p.name)).not.toContain('odd__summarize');
      await expect(client.readResource({ uri: 'mcp-proxy://odd/note://a' })).rejects.toMatchObject({ code: -32602 });
      await expect(client.readResource({ uri: 'mcp-proxy://odd/note://tpl/7' })).rejects.toMatchObject({
        code: -32602,
      });
      await expect(client.getPrompt({ name: 'odd__summarize', arguments: { topic: 'x' } })).rejects.toMatchObject({
        code: -32602,
      });
      await expect(
        client.complete({
          ref: { type: 'ref/prompt', name: 'odd__summarize' },
          argument: { name: 'topic', value: 'a' },
        }),
      ).rejects.toMatchObject({ code: -32602 });
      await expect(
        client.complete({
          ref: { type: 'ref/resource', uri: 'mcp-proxy://odd/note://tpl/{id}' },
          argument: { name: 'id', value: '4' },
        }),
      ).rejects.toMatchObject({ code: -32602 });
      // The rest of the backend still works.
      expect((await client.readResource({ uri: 'mcp-proxy://odd/note://b' })).contents[0]).toMatchObject({
        text: 'read note://b',
      });
    },
  );

  it('refuses subscriptions to denied resources and stops updates the moment a resource is turned off', async () => {
    const client = await proxy.connectV1();
    const got: string[] = [];
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void got.push(n.params.uri));
    const uri = 'mcp-proxy://upd/memo://a';
    await client.subscribeResource({ uri });
    const touch = async (target: string) =>
      proxy.core.router.callTool({ name: 'upd__touch', arguments: { uri: target } });
    await touch('memo://a');
    await waitUntil(() => got.length === 1);
    await proxy.core.policy.setRule('upd', 'resources', 'memo://a', 'deny');
    await client.subscribeResource({ uri: 'mcp-proxy://upd/memo://b' });
    await touch('memo://a');
    await touch('memo://b');
    await waitUntil(() => got.length === 2);
    expect(got).toEqual([uri, 'mcp-proxy://upd/memo://b']);
    await expect(client.subscribeResource({ uri })).rejects.toMatchObject({ code: -32602 });
  });

  it('hides a whole backend when it is turned off', async () => {
    const client = await proxy.connect('modern');
    await proxy.core.policy.update((policy) => {
      policy.backends['cfg'] = { ...policy.backends['cfg'], enabled: false };
    });
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names.some((name) => name.startsWith('cfg__'))).toBe(false);
    await expect(client.callTool({ name: 'cfg__one', arguments: {} })).rejects.toMatchObject({ code: -32602 });
  });

  it('gives each client profile its own token and catalog, with a tool cap', async () => {
    const cursorToken = await proxy.core.profiles.createProfile('cursor', {
      name: 'Cursor',
      backends: ['cfg'],
      maxTools: 2,
    });
    const zedToken = await proxy.core.profiles.createProfile('zed', { name: 'Zed', backends: ['odd'] });
    const cursor = await proxy.connect('legacy', cursorToken);
    const zed = await proxy.connect('modern', zedToken);
    // Each server's tools are listed by name (the same order across restarts), the cap takes the first two.
    expect((await cursor.listTools()).tools.map((t) => t.name)).toEqual(['cfg__four', 'cfg__one']);
    // Beyond the cap is hidden, and hidden means unusable.
    await expect(cursor.callTool({ name: 'cfg__three', arguments: {} })).rejects.toMatchObject({ code: -32602 });
    await expect(cursor.callTool({ name: 'odd__ok_name', arguments: {} })).rejects.toMatchObject({ code: -32602 });
    const zedTools = (await zed.listTools()).tools.map((t) => t.name);
    expect(zedTools.every((name) => name.startsWith('odd__'))).toBe(true);
    expect(firstText((await zed.callTool({ name: 'odd__ok_name', arguments: {} })) as { content?: unknown })).toContain(
      'ok_name',
    );
    // A per-client override leaves other clients alone.
    await proxy.core.policy.setRule('cfg', 'tools', 'one', 'deny', 'cursor');
    expect((await cursor.listTools()).tools.map((t) => t.name)).toEqual(['cfg__four', 'cfg__three']);
    const local = await proxy.connect();
    expect((await local.listTools()).tools.map((t) => t.name)).toContain('cfg__one');
  });

  it.each(['legacy', 'modern'] as const)(
    'fits names into a profile budget (Claude Code: 55) and routes the short names (%s)',
    async (era) => {
      const token = await proxy.core.profiles.createProfile('claude-code', {
        name: 'Claude Code',
        backends: ['odd'],
        maxNameLength: 55,
      });
      const client = await proxy.connect(era, token);
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names.every((name) => name.length <= 55)).toBe(true);
      const long = names.find((name) => name.startsWith('odd__very_long_tool_name'));
      expect(long).toMatch(/^odd__very_long_tool_name_[a-z0-9_]+_[0-9a-f]{8}$/);
      expect(long).toHaveLength(55);
      // The short name reaches the backend's own tool.
      const result = await client.callTool({ name: long!, arguments: { x: 1 } });
      expect(firstText(result as { content?: unknown })).toContain(
        'called very_long_tool_name_abcdefghijklmnopqrstuvwxyz',
      );
      // Names within the budget are left alone; a client without one sees the 64-character name.
      expect(names).toContain('odd__ok_name');
      const local = await proxy.connect(era);
      const localLong = (await local.listTools()).tools.find((t) => t.name.startsWith('odd__very_long'))!.name;
      expect(localLong).toHaveLength(64);
      expect(localLong).not.toBe(long);
    },
  );

  it('accepts a token another process issued (the CLI installing a client) without a restart', async () => {
    await proxy.core.policy.update((policy) => {
      policy.clients['cursor'] = { name: 'Cursor', backends: ['cfg'] };
    });
    const cli = new ClientTokens(join(dir.path, 'client-tokens.json'));
    await cli.load();
    const token = await cli.issue('cursor');
    // Derived, so asking again gives the same token (an install written twice stays the same).
    expect(await cli.tokenFor('cursor')).toBe(token);
    const client = await proxy.connect('modern', token);
    expect((await client.listTools()).tools.every((tool) => tool.name.startsWith('cfg__'))).toBe(true);
  });

  it('refuses a revoked token at once, including on its open session', async () => {
    const token = await proxy.core.profiles.createProfile('cursor', { name: 'Cursor' });
    const legacy = await proxy.connect('legacy', token);
    const modern = await proxy.connect('modern', token);
    await legacy.listTools();
    await proxy.core.profiles.revokeProfile('cursor');
    await expect(legacy.listTools()).rejects.toThrow();
    await expect(modern.listTools()).rejects.toThrow();
    await expect(proxy.connect('legacy', token)).rejects.toThrow();
  });
});
