/** The client commands as a user runs them: the built CLI with a throwaway HOME. */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ClientStatus } from '../../../electron/core/install/index.js';
import { populateHome } from '../../fixtures/client-configs/home.js';
import { KeytarStore } from '../../../electron/core/platform/index.js';
import { ClientTokens } from '../../../electron/core/catalog/index.js';
import { BIN, runCli } from '../../helpers/cli.js';
import { tempDir } from '../../helpers/harness.js';

describe('mcp-switchboard client commands', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let env: Record<string, string>;

  const run = (...args: string[]) => runCli(args, env);

  beforeEach(async () => {
    dir = await tempDir();
    const home = join(dir.path, 'home');
    env = {
      HOME: home,
      XDG_CONFIG_HOME: join(home, '.config'),
      XDG_STATE_HOME: join(home, '.local', 'state'),
      SWITCHBOARD_TOKEN: 'cli-token-0123456789',
      CODEX_HOME: '',
      CLAUDE_CONFIG_DIR: '',
      SWITCHBOARD_KEYCHAIN_SERVICE: `mcp-switchboard-cli-test-${process.pid}`,
    };
    await populateHome(home, ['cursor', 'codex', 'claude-desktop']);
  });
  afterEach(() => dir.cleanup());

  it('clients, install, uninstall, snippet and a refused malformed file', async () => {
    const listed = JSON.parse((await run('clients', '--json')).stdout) as ClientStatus[];
    expect(
      listed
        .filter((s) => s.detected)
        .map((s) => s.id)
        .sort(),
    ).toEqual(['claude-desktop', 'codex', 'cursor']);

    const cursorPath = join(env['HOME']!, '.cursor', 'mcp.json');
    const original = await readFile(cursorPath, 'utf8');
    const installed = await run('install', 'cursor', '--port', '47123');
    expect(installed).toMatchObject({ code: 0, stdout: expect.stringContaining(`Switchboard added to ${cursorPath}`) });
    const entry = JSON.parse(await readFile(cursorPath, 'utf8')).mcpServers.switchboard as {
      url: string;
      headers: { Authorization: string };
    };
    expect(entry.url).toBe('http://127.0.0.1:47123/mcp');
    // Cursor gets a profile of its own and a token of its own (not the shared one).
    const cursorToken = /^Bearer (\S+)$/.exec(entry.headers.Authorization)?.[1];
    expect(cursorToken).toBeDefined();
    expect(cursorToken).not.toBe('cli-token-0123456789');
    const configDir = join(env['XDG_CONFIG_HOME']!, 'mcp-switchboard');
    const tokens = new ClientTokens(join(configDir, 'client-tokens.json'));
    await tokens.load();
    expect(tokens.authenticate(cursorToken!)).toBe('cursor');
    const switchboardConfig = JSON.parse(await readFile(join(configDir, 'config.json'), 'utf8')) as {
      policy: { clients: Record<string, { name: string }> };
    };
    // Cursor uses only its first 40 tools: auto exposure with that cap (search beyond it).
    expect(switchboardConfig.policy.clients['cursor']).toEqual({ name: 'Cursor', exposure: 'auto', maxTools: 40 });
    // Installing again writes the same token: nothing changes.
    expect((await run('install', 'cursor', '--port', '47123')).stdout).toContain('already up to date');
    expect((await run('clients')).stdout).toMatch(/cursor\s+Cursor\s+detected, Switchboard installed/);
    expect((await run('uninstall', 'cursor')).code).toBe(0);
    expect(await readFile(cursorPath, 'utf8')).toBe(original);

    // Claude Desktop launches `connect` with absolute node and script paths.
    await run('install', 'claude-desktop');
    const desktop = JSON.parse(
      await readFile(join(env['HOME']!, '.config', 'Claude', 'claude_desktop_config.json'), 'utf8'),
    ) as { mcpServers: Record<string, { command: string; args: string[]; env: Record<string, string> }> };
    expect(desktop.mcpServers['switchboard']).toMatchObject({ command: process.execPath, args: [BIN, 'connect'] });
    const desktopToken = desktop.mcpServers['switchboard']!.env['SWITCHBOARD_CLIENT_TOKEN']!;
    await tokens.load();
    expect(tokens.authenticate(desktopToken)).toBe('claude-desktop');

    // Claude Code's profile carries its tool-name budget (mcp__sb__<name> within 64).
    await run('install', 'claude-code');
    const withCode = JSON.parse(await readFile(join(configDir, 'config.json'), 'utf8')) as {
      policy: { clients: Record<string, { name: string; maxNameLength?: number }> };
    };
    expect(withCode.policy.clients['claude-code']).toEqual({ name: 'Claude Code', maxNameLength: 55, exposure: 'all' });

    const snippet = await run('snippet', 'codex');
    expect(snippet.stdout).toContain('[mcp_servers.switchboard]\nurl = "http://127.0.0.1:47100/mcp"');

    const codexPath = join(env['HOME']!, '.codex', 'config.toml');
    await writeFile(codexPath, 'model = "o3\n');
    const refused = await run('install', 'codex');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`${codexPath}:1:`);
    expect(await readFile(codexPath, 'utf8')).toBe('model = "o3\n');
    expect((await run('install', 'notepad')).stderr).toContain('unknown client "notepad"');
  });

  it('import lists first, then imports with --all and replaces with --replace', async () => {
    const listing = await run('import', 'claude-desktop');
    expect(listing.stdout).toContain('github: would be imported as github');
    // Into the OS keychain when there is one; else a ${VAR} reference, and the CLI says why.
    const keychain = new KeytarStore({ service: env['SWITCHBOARD_KEYCHAIN_SERVICE']!, timeoutMs: 5000 });
    const available = (await keychain.status()).available;
    expect(listing.stdout).toContain(
      available
        ? 'env.GITHUB_PERSONAL_ACCESS_TOKEN: secret, moved to the keychain as keychain:github.GITHUB_PERSONAL_ACCESS_TOKEN'
        : 'env.GITHUB_PERSONAL_ACCESS_TOKEN: secret, imported as ${GITHUB_PERSONAL_ACCESS_TOKEN}',
    );
    if (!available) expect(listing.stdout).toContain('note: the OS keychain is not available');
    const done = await run('import', 'claude-desktop', '--all', '--replace');
    expect(done.code).toBe(0);
    expect(done.stdout).toContain('imported github as github');
    const config = await readFile(join(env['XDG_CONFIG_HOME']!, 'mcp-switchboard', 'config.json'), 'utf8');
    expect(Object.keys(JSON.parse(config).mcpServers).sort()).toEqual(['filesystem', 'github']);
    expect(config).not.toContain('ghp_');
    if (available) {
      expect(await keychain.get('github.GITHUB_PERSONAL_ACCESS_TOKEN')).toBe('ghp_exampleexampleexample0123456789');
      await keychain.delete('github.GITHUB_PERSONAL_ACCESS_TOKEN');
    }
    expect((await run('undo', 'claude-desktop')).code).toBe(0);
  });
});
