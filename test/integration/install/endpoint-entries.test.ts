/**
 * `install` and `snippet` with --server and --profile, as a user runs them:
 * the built CLI with a throwaway HOME and a Switchboard config of two servers
 * and a profile. Entries point at the chosen endpoint (a profile's with that
 * profile's token); a name that is not there is a clear error that writes nothing.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClientTokens } from '../../../electron/core/catalog/index.js';
import { populateHome } from '../../fixtures/client-configs/home.js';
import { runCli } from '../../helpers/cli.js';
import { tempDir } from '../../helpers/harness.js';

describe('client entries for one server or one profile', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let env: Record<string, string>;
  let configDir: string;
  const run = (...args: string[]) => runCli(args, env);
  const tokenOwner = async (header: string): Promise<string | undefined> => {
    const tokens = new ClientTokens(join(configDir, 'client-tokens.json'));
    await tokens.load();
    return tokens.authenticate(/^Bearer (\S+)$/.exec(header)?.[1] ?? '');
  };

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
      SWITCHBOARD_KEYCHAIN_SERVICE: `mcp-switchboard-endpoints-test-${process.pid}`,
    };
    await populateHome(home, ['cursor', 'claude-desktop']);
    configDir = join(env['XDG_CONFIG_HOME']!, 'mcp-switchboard');
    await mkdir(configDir, { recursive: true });
    const server = { command: process.execPath, args: ['server.js'] };
    await writeFile(
      join(configDir, 'config.json'),
      JSON.stringify({
        mcpServers: { github: server, old: { ...server, enabled: false } },
        policy: { clients: { reviewer: { name: 'Reviewer' } } },
      }),
    );
  });
  afterAll(() => dir.cleanup());

  it("snippet --server points at the server's endpoint, --profile at the profile's with its token", async () => {
    const server = await run('snippet', 'cursor', '--server', 'github');
    expect(server.code).toBe(0);
    expect(server.stdout).toContain('"url": "http://127.0.0.1:47100/servers/github/mcp"');
    const profile = await run('snippet', 'cursor', '--profile', 'reviewer', '--port', '47123');
    const entry = JSON.parse(profile.stdout.replace(/^#.*\n/, '')) as {
      mcpServers: { switchboard: { url: string; headers: { Authorization: string } } };
    };
    expect(entry.mcpServers.switchboard.url).toBe('http://127.0.0.1:47123/profiles/reviewer/mcp');
    expect(await tokenOwner(entry.mcpServers.switchboard.headers.Authorization)).toBe('reviewer');
  });

  it('install --profile writes the entry, which counts as Switchboard installed', async () => {
    const installed = await run('install', 'cursor', '--profile', 'reviewer');
    expect(installed.code).toBe(0);
    const written = JSON.parse(await readFile(join(env['HOME']!, '.cursor', 'mcp.json'), 'utf8')) as {
      mcpServers: { switchboard: { url: string; headers: { Authorization: string } } };
    };
    expect(written.mcpServers.switchboard.url).toBe('http://127.0.0.1:47100/profiles/reviewer/mcp');
    expect(await tokenOwner(written.mcpServers.switchboard.headers.Authorization)).toBe('reviewer');
    expect((await run('clients')).stdout).toMatch(/cursor\s+Cursor\s+detected, Switchboard installed/);
  });

  it('refuses what is not there, naming what is, and writes nothing', async () => {
    const cursorFile = await readFile(join(env['HOME']!, '.cursor', 'mcp.json'), 'utf8');
    const cases: [string[], string][] = [
      [['install', 'cursor', '--server', 'nope'], 'server "nope" is not configured; enabled servers: github'],
      [['install', 'cursor', '--server', 'old'], 'server "old" is disabled'],
      [['snippet', 'cursor', '--profile', 'nobody'], 'no client profile "nobody"; profiles: reviewer'],
      [['install', 'cursor', '--server', 'github', '--profile', 'reviewer'], 'not both'],
      [['install', 'claude-desktop', '--server', 'github'], 'serves the merged endpoint only'],
    ];
    for (const [args, message] of cases) {
      const refused = await run(...args);
      expect(refused.code, args.join(' ')).toBe(1);
      expect(refused.stderr).toContain(message);
    }
    expect(await readFile(join(env['HOME']!, '.cursor', 'mcp.json'), 'utf8')).toBe(cursorFile);
  });
});
