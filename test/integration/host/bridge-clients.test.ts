/**
 * What the Clients and Request log screens are told through the headless
 * bridge: a client installed by another process (the CLI's `install`, with
 * its own store and tokens) shows a token, and each logged call names the
 * rule that decided it and the level that set it.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliProfileOwner, profileTokenProvider } from '../../../electron/core/install/index.js';
import { BridgeHarness } from '../../helpers/bridgeHarness.js';
import { waitUntil } from '../../helpers/processes.js';

const harness = await BridgeHarness.create();
beforeAll(() => harness.start());
afterAll(() => harness.stop());

describe('clients and the request log through the bridge', () => {
  it('shows a token for a client another process installed after the instance started', async () => {
    const client = await harness.bridge();
    const before = await client.call('profiles.list');
    expect(before.ok && before.result.some((profile) => profile.id === 'cursor')).toBe(false);
    // What `mcp-switchboard install cursor` does in its own process: the profile and a token, in files.
    const owner = cliProfileOwner(
      harness.configPath,
      join(harness.root, 'config', 'mcp-switchboard'),
      join(harness.root, 'state'),
    );
    const token = await profileTokenProvider(owner).tokenFor('cursor');
    expect(token.length).toBeGreaterThan(20);
    await waitUntil(
      async () => {
        const list = await client.call('profiles.list');
        return list.ok && list.result.some((profile) => profile.id === 'cursor');
      },
      { timeoutMs: 10_000, description: 'the cursor profile reaches the running instance' },
    );
    const after = await client.call('profiles.list');
    expect(after.ok && after.result.find((profile) => profile.id === 'cursor')?.hasToken).toBe(true);
  });

  it('logs the rule and level that decided an allowed and a denied call', async () => {
    const client = await harness.bridge();
    const catalog = await client.call('catalog.list');
    const readGraph = catalog.ok ? catalog.result.find((entry) => entry.original === 'read_graph') : undefined;
    expect(readGraph?.backendId).toBe('mem');
    const mcp = await harness.mcpClient('modern');
    await mcp.callTool({ name: readGraph!.exposed, arguments: {} });
    expect(
      await client.call('policy.setRule', { backendId: 'mem', kind: 'tools', original: 'read_graph', rule: 'deny' }),
    ).toMatchObject({ ok: true });
    await expect(mcp.callTool({ name: readGraph!.exposed, arguments: {} })).rejects.toThrow(/Unknown tool/);
    let entries: { outcome: string; decision?: { rule: string; source: string } }[] = [];
    await waitUntil(
      async () => {
        const log = await client.call('log.query', { backend: 'mem', kind: 'tools/call' });
        entries = log.ok ? log.result : [];
        return entries.length >= 2;
      },
      { timeoutMs: 10_000, description: 'both calls in the log' },
    );
    // Newest first: the refusal by the item's own rule, then the call the global default let through.
    expect(entries.slice(0, 2)).toMatchObject([
      { outcome: 'denied', decision: { rule: 'deny', source: 'item' } },
      { outcome: 'ok', decision: { rule: 'allow', source: 'globalDefault' } },
    ]);
  });
});
