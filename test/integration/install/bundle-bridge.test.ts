/**
 * .mcpb bundles over the real bridge: the upload is bounded (a file over the
 * limit is refused before it is decoded, naming the field, and so is text
 * that is not base64); a bundle whose server does not start is refused and
 * leaves neither files nor a config entry; the manifest view lists what the
 * bundle asks for, its sensitive field marked.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_UPLOAD_BUNDLE_BYTES } from '../../../shared/model/bundleViews.js';
import { BridgeHarness } from '../../helpers/bridgeHarness.js';
import { bundleBytes, bundleManifest } from '../../helpers/bundles.js';

const harness = await BridgeHarness.create();
beforeAll(() => harness.start(), 60_000);
afterAll(() => harness.stop());

const bundlesDir = () => join(harness.root, 'state', 'mcp-switchboard', 'bundles');
const serverIds = async () =>
  Object.keys((JSON.parse(await readFile(harness.configPath, 'utf8')) as { mcpServers: object }).mcpServers);

describe('bundles through the bridge', () => {
  it('inspect: name, author, version, declared tools and the fields it asks for, the sensitive one marked', async () => {
    const client = await harness.bridge();
    const data = (await bundleBytes(bundleManifest('greeter'))).toString('base64');
    const view = await client.call('bundles.inspect', { fileName: 'greeter.mcpb', data });
    expect(view).toEqual({
      ok: true,
      result: {
        name: 'greeter',
        displayName: 'Greeter',
        version: '1.2.0',
        description: 'Says hello',
        author: 'Switchboard tests',
        serverType: 'node',
        tools: [{ name: 'greet', description: 'Greets' }],
        fields: [
          expect.objectContaining({ key: 'var:tools', required: true, sensitive: false }),
          expect.objectContaining({ key: 'var:api_key', required: false, sensitive: true }),
        ],
        // What it will run, as the manifest says, before anything is unpacked.
        command: 'node',
        args: ['${__dirname}/server/index.mjs'],
      },
    });
  });

  it('an upload over the limit, or not base64, is refused naming the field', async () => {
    const client = await harness.bridge();
    const big = 'A'.repeat(Math.ceil(MAX_UPLOAD_BUNDLE_BYTES / 3) * 4 + 4);
    const tooBig = await client.call('bundles.inspect', { fileName: 'big.mcpb', data: big });
    expect(tooBig).toMatchObject({ ok: false, error: { code: 'invalid_params', data: { field: 'data' } } });
    expect(!tooBig.ok && tooBig.error.message).toContain('mcp-switchboard add big.mcpb');
    const garbled = await client.call('bundles.inspect', { fileName: 'x.mcpb', data: 'not base64!' });
    expect(garbled).toMatchObject({ ok: false, error: { code: 'invalid_params', data: { field: 'data' } } });
  });

  it('a bundle whose server does not start is refused and leaves nothing behind', async () => {
    const client = await harness.bridge();
    const before = await serverIds();
    const broken = bundleManifest('broken', {
      server: {
        type: 'node',
        entry_point: 'x.mjs',
        mcp_config: { command: 'node', args: ['${__dirname}/missing.mjs'] },
      },
      user_config: {},
    });
    const data = (await bundleBytes(broken)).toString('base64');
    const outcome = await client.call('bundles.install', { fileName: 'broken.mcpb', data, values: {} });
    expect(outcome).toMatchObject({ ok: false, error: { code: 'connect_failed' } });
    expect(!outcome.ok && outcome.error.message).toContain('broken did not start');
    expect(await serverIds()).toEqual(before);
    expect(await readdir(bundlesDir()).catch(() => [])).toEqual([]);
    expect(await readdir(join(harness.root, 'state', 'mcp-switchboard', 'downloads')).catch(() => [])).toEqual([]);
  }, 60_000);
});
