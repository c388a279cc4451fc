/**
 * Updating a bundle backend through the running core (`registry.update` over
 * the bridge): the new version is unpacked beside the old, the core restarts
 * the backend from it (serving the new version's tools), and the old folder
 * is removed only then.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BridgeHarness } from '../../helpers/bridgeHarness.js';
import { mcpbEntry, sha256Of, toolsBundle } from '../../helpers/bundles.js';
import { startLocalRegistry, type LocalRegistry } from '../../helpers/localRegistry.js';

const NAME = 'io.github.switchboard-tests/tools';
const harness = await BridgeHarness.create();
const files: Record<string, Buffer> = {};
let registry: LocalRegistry;
beforeAll(async () => {
  files['tools.mcpb'] = await toolsBundle('0.2.0', 'one,two');
  registry = await startLocalRegistry([], files);
  registry.publish(mcpbEntry(registry.url, NAME, sha256Of(files['tools.mcpb'])));
  process.env['SWITCHBOARD_REGISTRY_URL'] = registry.url;
  await harness.start();
}, 60_000);
afterAll(async () => {
  delete process.env['SWITCHBOARD_REGISTRY_URL'];
  await harness.stop();
  await registry.close();
});

const bundlesDir = () => join(harness.root, 'state', 'mcp-switchboard', 'bundles');

describe('a bundle backend updated through the running core', () => {
  it('runs the new version from its own folder, and the old folder goes once it does', async () => {
    const client = await harness.bridge();
    const added = await client.call('registry.add', { ref: NAME, values: {} });
    if (!added.ok) throw new Error(added.error.message);
    expect(added.result).toMatchObject({ id: 'tools', tools: 2 });
    files['tools-0.3.0.mcpb'] = await toolsBundle('0.3.0', 'one,two,three');
    registry.publish(mcpbEntry(registry.url, NAME, sha256Of(files['tools-0.3.0.mcpb']), '0.3.0', 'tools-0.3.0.mcpb'));

    const updated = await client.call('registry.update', { id: 'tools' });
    if (!updated.ok) throw new Error(updated.error.message);
    expect(updated.result).toMatchObject({ from: '0.2.0', to: '0.3.0', applied: true });
    const list = await client.call('backends.list');
    if (!list.ok) throw new Error(list.error.message);
    const tools = list.result.find((view) => view.health.id === 'tools');
    expect(tools?.health).toMatchObject({ status: 'up', counts: { tools: 3 } });
    expect(await readdir(bundlesDir())).toEqual(['tools-0.3.0']);
    expect((await harness.savedServers())['tools']).toMatchObject({
      cwd: join(bundlesDir(), 'tools-0.3.0'),
      source: { version: '0.3.0' },
    });
  }, 60_000);
});
