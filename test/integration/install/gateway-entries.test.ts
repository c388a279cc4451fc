/**
 * Client entries when the Switchboard config is in gateway mode, as a user
 * runs the built CLI with a throwaway HOME: `install` and `snippet` point a
 * URL client at the gateway's public URL (`gateway.resource`) with no
 * Switchboard bearer header (the client signs in with OAuth itself), issue no
 * client token, and `uninstall` knows the entry as ours; a client that can only launch `connect`, and `connect`
 * itself, are refused with the reason.
 */
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { populateHome } from '../../fixtures/client-configs/home.js';
import { runCli } from '../../helpers/cli.js';
import { tempDir } from '../../helpers/harness.js';

const RESOURCE = 'https://mcp.example.com/mcp';

let dir: Awaited<ReturnType<typeof tempDir>>;
let env: Record<string, string>;
let configDir: string;
const run = (...args: string[]) => runCli(args, env);

beforeAll(async () => {
  dir = await tempDir();
  const home = join(dir.path, 'home');
  env = {
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_STATE_HOME: join(home, '.local', 'state'),
    SWITCHBOARD_TOKEN: 'cli-token-0123456789',
    CODEX_HOME: '',
    CLAUDE_CONFIG_DIR: '',
    SWITCHBOARD_KEYCHAIN_SERVICE: `mcp-switchboard-gateway-entries-test-${process.pid}`,
  };
  await populateHome(home, ['cursor', 'claude-desktop']);
  configDir = join(env['XDG_CONFIG_HOME']!, 'mcp-switchboard');
  await mkdir(configDir, { recursive: true });
  const config = {
    mcpServers: {},
    gateway: { resource: RESOURCE, authorizationServers: ['https://login.example.com'] },
  };
  await writeFile(join(configDir, 'config.json'), JSON.stringify(config));
});
afterAll(() => dir?.cleanup());

describe('client entries for a gateway', () => {
  it('install and snippet write the gateway URL with no bearer header, and issue no client token', async () => {
    const cursorPath = join(env['HOME']!, '.cursor', 'mcp.json');
    const installed = await run('install', 'cursor');
    expect(installed.code, installed.stderr).toBe(0);
    expect(installed.stdout).toContain('signs in to the gateway');
    const entry = (JSON.parse(await readFile(cursorPath, 'utf8')) as { mcpServers: Record<string, unknown> })
      .mcpServers['switchboard'];
    expect(entry).toEqual({ url: RESOURCE });

    const snippet = await run('snippet', 'claude-code');
    expect(snippet.code, snippet.stderr).toBe(0);
    expect(snippet.stdout).toContain(`"url": "${RESOURCE}"`);
    expect(snippet.stdout).not.toMatch(/Authorization|Bearer|headers/);

    // No profile and no token were made for the clients: the gateway takes none.
    const config = JSON.parse(await readFile(join(configDir, 'config.json'), 'utf8')) as { policy?: unknown };
    expect(config.policy).toBeUndefined();
    await expect(stat(join(configDir, 'client-tokens.json'))).rejects.toThrow();

    // Our entry is recognised as ours: uninstall removes it (another server's entry it would leave alone).
    expect((await run('uninstall', 'cursor')).code).toBe(0);
    expect(JSON.parse(await readFile(cursorPath, 'utf8')).mcpServers?.switchboard).toBeUndefined();
  });

  it('refuses a client that only launches `connect`, and `connect` itself, saying why', async () => {
    const desktop = await run('install', 'claude-desktop');
    expect(desktop.code).not.toBe(0);
    expect(desktop.stderr).toContain('is a gateway');
    expect(desktop.stderr).toContain('remote (custom) connector');
    const connect = await run('connect');
    expect(connect.code).not.toBe(0);
    expect(connect.stderr).toContain(`clients connect to ${RESOURCE} and sign in with OAuth`);
  });
});
