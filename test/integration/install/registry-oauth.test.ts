/**
 * A remote registry entry whose server answers 401 while it is being added
 * goes straight on to the OAuth sign-in that exists (electron/core/platform/auth):
 * through the real bridge, against a real oidc-provider authorization server
 * and an OAuth-protected MCP server (test/fixtures/oauth), tokens in a real
 * keychain (keyring-run.mjs). The entry is saved, the answer carries the
 * sign-in URL, and once the user signs in the backend is up and serves tools.
 */
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeytarStore } from '../../../electron/core/platform/index.js';
import { startAuthServer, type AuthServer } from '../../fixtures/oauth/authServer.mjs';
import { startProtectedServer, type ProtectedServer } from '../../fixtures/oauth/protectedServer.mjs';
import { BridgeHarness } from '../../helpers/bridgeHarness.js';
import { keychainForTests } from '../../helpers/keychain.js';
import { startLocalRegistry, type LocalRegistry } from '../../helpers/localRegistry.js';
import { completeAuthorization } from '../../helpers/oauthBrowser.js';

const SERVICE = `mcp-switchboard-registry-oauth-${process.pid}`;
const store = new KeytarStore({ service: SERVICE, timeoutMs: 5000 });
const { status, required, titleSuffix } = await keychainForTests(store);
const NAME = 'io.github.switchboard-tests/protected-notes';

describe.skipIf(!status.available && !required)(`a remote entry that answers 401 during add${titleSuffix}`, () => {
  let as: AuthServer;
  let rs: ProtectedServer;
  let registry: LocalRegistry;
  let harness: BridgeHarness;

  beforeAll(async () => {
    as = await startAuthServer();
    rs = await startProtectedServer({ issuer: as.issuer });
    registry = await startLocalRegistry([
      {
        $schema: 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json',
        name: NAME,
        title: 'Protected Notes',
        description: 'An OAuth-protected MCP server of ours (test/fixtures/oauth/protectedServer.mjs)',
        version: '1.0.0',
        remotes: [{ type: 'streamable-http', url: rs.url }],
      },
    ]);
    process.env['SWITCHBOARD_REGISTRY_URL'] = registry.url;
    process.env['SWITCHBOARD_KEYCHAIN_SERVICE'] = SERVICE;
    process.env['SWITCHBOARD_NO_BROWSER'] = '1'; // the test is the browser
    harness = await BridgeHarness.create();
    await harness.start();
  }, 60_000);

  afterAll(async () => {
    delete process.env['SWITCHBOARD_REGISTRY_URL'];
    delete process.env['SWITCHBOARD_KEYCHAIN_SERVICE'];
    delete process.env['SWITCHBOARD_NO_BROWSER'];
    await harness?.stop();
    await registry?.close();
    await rs?.close();
    await as?.close();
    for (const name of await store.list().catch(() => [])) await store.delete(name);
  });

  it('is saved, the sign-in starts at once, and after signing in the backend serves its tools', async () => {
    const client = await harness.bridge();
    const added = await client.call('registry.add', { ref: NAME, values: {} });
    if (!added.ok) throw new Error(JSON.stringify(added.error));
    expect(added.result).toMatchObject({ id: 'protected-notes', needsAuthorization: true });
    const url = new URL(added.result.authorizationUrl!);
    expect(url.origin + url.pathname).toMatch(new RegExp(`^${as.issuer}`));
    const config = JSON.parse(await readFile(harness.configPath, 'utf8')) as {
      mcpServers: Record<string, { url?: string; source?: { name: string } }>;
    };
    expect(config.mcpServers['protected-notes']).toMatchObject({ url: rs.url, source: { name: NAME } });

    const result = await completeAuthorization(url.href);
    expect(result.status).toBe(200);
    let status = '';
    let tools = 0;
    for (let i = 0; i < 100 && status !== 'up'; i++) {
      const list = await client.call('backends.list');
      const view = list.ok ? list.result.find((v) => v.health.id === 'protected-notes') : undefined;
      status = view?.health.status ?? '';
      tools = view?.health.counts.tools ?? 0;
      if (status !== 'up') await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).toBe('up');
    expect(tools).toBeGreaterThan(0);
    // The tokens are in the keychain, not the config file.
    expect(await readFile(harness.configPath, 'utf8')).not.toMatch(/access_token|refresh_token/);
    expect((await store.list()).some((name) => name.includes('protected-notes'))).toBe(true);
  }, 90_000);
});
