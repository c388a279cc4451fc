/**
 * What the built `mcp-switchboard` says (issue 18 item 8), as a user runs it:
 * argument errors with a suggestion and one usage line, no arguments failing
 * with the usage, a missing stdio command said plainly (check-config warns;
 * serve logs it once, not on every retry), and auth-status for a server that
 * needs sign-in, with what the running Switchboard saw.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeytarStore } from '../../../electron/core/platform/index.js';
import { startAuthServer, type AuthServer } from '../../fixtures/oauth/authServer.mjs';
import { startProtectedServer, type ProtectedServer } from '../../fixtures/oauth/protectedServer.mjs';
import { BIN, runCli } from '../../helpers/cli.js';
import { keychainForTests } from '../../helpers/keychain.js';
import { tempDir } from '../../helpers/harness.js';
import { waitUntil } from '../../helpers/processes.js';
import { spawnServer, type SpawnedServer } from '../../helpers/spawnServer.js';

const SERVICE = `mcp-switchboard-wording-test-${process.pid}`;
const keychain = await keychainForTests(new KeytarStore({ service: SERVICE, timeoutMs: 5000 }));
const MISSING = 'no-such-mcp-server-cmd';

let dir: Awaited<ReturnType<typeof tempDir>>;
let env: Record<string, string>;
let configPath: string;

beforeAll(async () => {
  dir = await tempDir();
  env = {
    HOME: dir.path,
    XDG_CONFIG_HOME: join(dir.path, 'config'),
    XDG_STATE_HOME: join(dir.path, 'state'),
    SWITCHBOARD_TOKEN: '',
    SWITCHBOARD_NO_BROWSER: '1',
    SWITCHBOARD_KEYCHAIN_SERVICE: SERVICE,
  };
  configPath = join(dir.path, 'config.json');
});
afterAll(() => dir?.cleanup());

describe('argument errors', () => {
  it('names an unknown option with the nearest one and one usage line, exit 2', async () => {
    const result = await runCli(['serve', '--prot', '47100'], env);
    expect(result.code).toBe(2);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toEqual([
      'mcp-switchboard: unknown option --prot (did you mean --port?)',
      expect.stringMatching(/^usage: mcp-switchboard /) as unknown,
    ]);
    expect(result.stdout).toBe('');
  });

  it('names an unknown command with the nearest one', async () => {
    const result = await runCli(['docter'], env);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^mcp-switchboard: unknown command "docter" \(did you mean doctor\?\)\nusage: /);
  });

  it('fails with the usage when given no arguments at all, and --help still succeeds', async () => {
    const none = await runCli([], env);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('Usage:');
    expect(none.stdout).toBe('');
    const help = await runCli(['--help'], env);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage:');
  });
});

describe('a stdio command that is not on PATH', () => {
  let serve: SpawnedServer | undefined;
  afterAll(() => serve?.stop());

  it('check-config warns naming the field and the PATH searched (and still passes)', async () => {
    await writeFile(configPath, JSON.stringify({ mcpServers: { gone: { command: MISSING, args: [] } } }));
    const result = await runCli(['check-config', '--config', configPath], { ...env, PATH: '/usr/bin:/bin' });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(
      `${configPath}: warning: mcpServers.gone.command: command \`${MISSING}\` was not found on PATH (PATH searched: /usr/bin:/bin)\n`,
    );
  });

  it('serve says so in one line, not once per retry', async () => {
    await writeFile(
      configPath,
      JSON.stringify({
        proxy: { reconnectInitialMs: 100, reconnectMaxMs: 200 },
        mcpServers: { gone: { command: MISSING, args: [] } },
      }),
    );
    serve = await spawnServer([BIN, 'serve', '--config', configPath, '--port', '0', '--quiet'], /backends: /, env);
    let output = serve.match.input ?? '';
    serve.child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const url = /MCP endpoint: (\S+)/.exec(output)?.[1] ?? '';
    const health = async () =>
      ((await (await fetch(new URL('/readyz', url))).json()) as { counts: { down: number } }).counts.down;
    expect(await health()).toBe(1);
    // About 15 retries in 3 s at 100-200 ms apart: still one line about it.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const lines = output.split('\n').filter((line) => line.includes('"gone"'));
    expect(lines).toEqual([
      expect.stringContaining(
        `backend "gone" is down: cannot connect to "gone": command \`${MISSING}\` was not found on PATH (PATH searched: `,
      ) as unknown,
    ]);
    expect(output).not.toContain('ENOENT');
  }, 30_000);
});

describe.skipIf(!keychain.status.available && !keychain.required)(
  `auth-status for a server that needs sign-in${keychain.titleSuffix}`,
  () => {
    let as: AuthServer;
    let rs: ProtectedServer;
    let serve: SpawnedServer | undefined;
    beforeAll(async () => {
      as = await startAuthServer();
      rs = await startProtectedServer({ issuer: as.issuer });
    });
    afterAll(async () => {
      await serve?.stop();
      await rs?.close();
      await as?.close();
    });

    it('says not signed in and what to run, and what the running Switchboard saw', async () => {
      await writeFile(configPath, JSON.stringify({ mcpServers: { vault: { url: rs.url } } }));
      const alone = await runCli(['auth-status', '--config', configPath], env);
      expect(alone.code, alone.stderr).toBe(0);
      expect(alone.stdout).toBe('vault: not signed in (run `mcp-switchboard authorize vault`)\n');

      serve = await spawnServer([BIN, 'serve', '--config', configPath, '--port', '0', '--quiet'], /backends: /, env);
      await waitUntil(async () =>
        (await runCli(['auth-status', '--config', configPath], env)).stdout.includes('running'),
      );
      const seen = await runCli(['auth-status', '--config', configPath], env);
      expect(seen.stdout).toMatch(
        /^vault: not signed in \(run `mcp-switchboard authorize vault`\); the running Switchboard sees it needs-authorization: .+\n$/,
      );
      const json = JSON.parse((await runCli(['auth-status', '--json', '--config', configPath], env)).stdout) as unknown;
      expect(json).toEqual([
        { id: 'vault', auth: { state: 'none' }, running: { status: 'needs-authorization', error: expect.any(String) } },
      ]);
    }, 60_000);
  },
);
