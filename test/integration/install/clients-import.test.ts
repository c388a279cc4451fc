/**
 * Import from realistic client files: every client's servers are listed with
 * what import would do, secrets never reach config.json as plain text, and
 * `--replace` swaps the client's servers for the single Switchboard entry
 * in one backed-up, undoable write.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  importServers,
  listImportable,
  undoLastWrite,
  type ClientsContext,
  keychainSink,
  refuseSecretsSink,
} from '../../../electron/core/install/index.js';
import { KeytarStore, parseConfig } from '../../../electron/core/platform/index.js';
import { linuxPlatform, populateHome } from '../../fixtures/client-configs/home.js';
import { tempDir } from '../../helpers/harness.js';
import { keychainForTests } from '../../helpers/keychain.js';

const keychain = new KeytarStore({ service: `mcp-switchboard-import-test-${process.pid}`, timeoutMs: 5000 });
const { status: keychainStatus, required, titleSuffix } = await keychainForTests(keychain);

describe('importing a client’s servers', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let ctx: ClientsContext;
  let configPath: string;

  beforeEach(async () => {
    dir = await tempDir();
    configPath = join(dir.path, 'config.json');
    const home = join(dir.path, 'home');
    ctx = {
      platform: {
        ...linuxPlatform(home),
        env: { GITHUB_PERSONAL_ACCESS_TOKEN: 'ghp_exampleexampleexample0123456789' },
      },
      stateDir: join(dir.path, 'state'),
      url: 'http://127.0.0.1:47100/mcp',
      launcher: { command: '/usr/bin/node', args: ['/opt/sb/bin/mcp-switchboard.js'] },
      tokens: { tokenFor: async () => 'tok' },
    };
    await populateHome(home);
  });
  afterEach(() => dir.cleanup());

  it('lists each client’s servers with their backend IDs, skip reasons and secrets', async () => {
    await writeFile(
      configPath,
      JSON.stringify({ mcpServers: { linear: { url: 'https://mcp.linear.app/mcp' }, fetch: { command: 'other' } } }),
    );
    const byName = async (client: string) =>
      Object.fromEntries(
        (await listImportable(ctx, client, { switchboardConfig: configPath })).map((c) => [c.name, c]),
      );

    const desktop = await byName('claude-desktop');
    expect(desktop['github']).toMatchObject({
      id: 'github',
      entry: { env: { GITHUB_PERSONAL_ACCESS_TOKEN: '${GITHUB_PERSONAL_ACCESS_TOKEN}' } },
      secrets: [
        { field: 'env.GITHUB_PERSONAL_ACCESS_TOKEN', reference: '${GITHUB_PERSONAL_ACCESS_TOKEN}', resolves: true },
      ],
    });

    const code = await byName('claude-code');
    expect(code['context7']).toMatchObject({
      entry: { url: 'https://mcp.context7.com/mcp', headers: { CONTEXT7_API_KEY: '${CONTEXT7_CONTEXT7_API_KEY}' } },
      secrets: [{ field: 'headers.CONTEXT7_API_KEY', resolves: false }],
    });
    expect(code['memory']?.entry).toEqual({
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-memory'],
      env: { MEMORY_FILE_PATH: '/home/me/.memory.json' },
      // A stdio server imported from a client runs sandboxed by default (no grants).
      sandbox: true,
    });

    const cursor = await byName('cursor');
    expect(cursor['linear']).toMatchObject({ inSwitchboard: 'same', id: 'linear' });
    expect(cursor['postgres']?.entry).toMatchObject({ env: { PGPASSWORD: '${PGPASSWORD}' } });

    const vscode = await byName('vscode');
    expect(vscode['perplexity']?.skipReason).toContain('${input:perplexity-key}');
    expect(vscode['fetch']).toMatchObject({ inSwitchboard: 'name-taken', id: 'fetch-2' });
    expect(vscode['remote-docs']?.entry).toMatchObject({
      headers: { Authorization: 'Bearer ${REMOTE_DOCS_AUTHORIZATION}' },
    });

    const windsurf = await byName('windsurf');
    expect(windsurf['sentry']?.entry).toEqual({ url: 'https://mcp.sentry.dev/mcp' });

    const zed = await byName('zed');
    expect(zed['mcp-server-github']?.skipReason).toContain('Zed extension');
    expect(zed['sqlite']?.entry).toMatchObject({
      command: 'uvx',
      args: ['mcp-server-sqlite', '--db-path', '/home/me/test.db'],
    });

    const codex = await byName('codex');
    expect(codex['figma']?.entry).toEqual({
      url: 'http://127.0.0.1:3845/mcp',
      headers: { Authorization: 'Bearer ${FIGMA_TOKEN}' },
    });
    expect(codex['brave']).toMatchObject({ entry: { env: { BRAVE_API_KEY: '${BRAVE_API_KEY}' } } });
    expect(codex['brave']?.warnings.join()).toContain('startup_timeout_sec');
  });

  it('imports into config.json with no secret in it, and --replace swaps the client’s servers for ours (undoable)', async () => {
    const outcome = await importServers(ctx, 'claude-desktop', { switchboardConfig: configPath, replace: true });
    expect(outcome.imported.map((i) => i.id).sort()).toEqual(['filesystem', 'github']);
    const written = await readFile(configPath, 'utf8');
    expect(written).not.toContain('ghp_');
    expect(
      parseConfig(JSON.parse(written))
        .config?.backends.map((b) => b.id)
        .sort(),
    ).toEqual(['filesystem', 'github']);

    const clientPath = outcome.client!.path;
    const client = JSON.parse(await readFile(clientPath, 'utf8')) as Record<string, Record<string, unknown>>;
    expect(Object.keys(client['mcpServers']!)).toEqual(['switchboard']);
    expect(client['globalShortcut']).toBe('Ctrl+Space');

    // Importing again finds them already there.
    await undoLastWrite(ctx, 'claude-desktop');
    const again = await listImportable(ctx, 'claude-desktop', { switchboardConfig: configPath });
    expect(again.every((c) => c.inSwitchboard === 'same')).toBe(true);
    expect(await readFile(clientPath, 'utf8')).toBe(await readFile(outcome.client!.backup!, 'utf8'));
  });

  it('refusing secrets skips those servers with the reason', async () => {
    const refused = await importServers(ctx, 'codex', { switchboardConfig: configPath, secrets: refuseSecretsSink });
    expect(refused.skipped).toEqual([
      { name: 'brave', reason: expect.stringContaining('env.BRAVE_API_KEY looks secret') },
    ]);
    expect(refused.imported.map((i) => i.name).sort()).toEqual(['context7', 'figma']);
    await expect(
      importServers(ctx, 'cursor', { switchboardConfig: configPath, names: ['nope'] }),
    ).rejects.toMatchObject({ code: 'import_failed' });
  });

  describe.skipIf(!keychainStatus.available && !required)(`with the OS keychain${titleSuffix}`, () => {
    afterEach(async () => {
      for (const name of await keychain.list()) await keychain.delete(name);
    });

    it('moves secrets into the keychain when importing, and only then', async () => {
      const sink = keychainSink(keychain);
      const listed = await listImportable(ctx, 'claude-desktop', { switchboardConfig: configPath, secrets: sink });
      expect(listed.find((c) => c.name === 'github')?.secrets).toEqual([
        {
          field: 'env.GITHUB_PERSONAL_ACCESS_TOKEN',
          reference: 'keychain:github.GITHUB_PERSONAL_ACCESS_TOKEN',
          resolves: true,
        },
      ]);
      // Listing writes nothing anywhere.
      expect(await keychain.list()).toEqual([]);
      await importServers(ctx, 'claude-desktop', { switchboardConfig: configPath, secrets: sink, names: ['github'] });
      expect(await keychain.get('github.GITHUB_PERSONAL_ACCESS_TOKEN')).toBe('ghp_exampleexampleexample0123456789');
      const written = await readFile(configPath, 'utf8');
      expect(written).not.toContain('ghp_');
      const backend = parseConfig(JSON.parse(written)).config?.backends.find((b) => b.id === 'github');
      expect(backend?.transport === 'stdio' && backend.env['GITHUB_PERSONAL_ACCESS_TOKEN']).toEqual({
        secret: 'github.GITHUB_PERSONAL_ACCESS_TOKEN',
      });
    });
  });
});
