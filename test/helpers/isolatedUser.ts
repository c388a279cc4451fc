/**
 * A throwaway user for tests that run the built CLI as separate processes:
 * HOME and the XDG directories under a temporary folder, a main token, and a
 * keychain service of its own; plus `serve` started in it.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KeytarStore } from '../../electron/core/platform/index.js';
import { BIN, runCli } from './cli.js';
import { spawnServer, type SpawnedServer } from './spawnServer.js';

/** A user's paths and environment. */
export interface IsolatedUser {
  root: string;
  home: string;
  env: Record<string, string>;
  /** `~/.config/mcp-switchboard` */
  configDir: string;
  /** The default config file. */
  configPath: string;
  /** `~/.local/state/mcp-switchboard` */
  stateDir: string;
  /** The keychain of this user (its own service). */
  keychain: KeytarStore;
  run(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }>;
  cleanup(): Promise<void>;
}

/** Makes a user with empty directories. */
export async function isolatedUser(): Promise<IsolatedUser> {
  const root = await mkdtemp(join(tmpdir(), 'sb-user-'));
  const home = join(root, 'home');
  const service = `mcp-switchboard-test-${process.pid}-${randomBytes(4).toString('hex')}`;
  const env = {
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_STATE_HOME: join(home, '.local', 'state'),
    SWITCHBOARD_TOKEN: `main-token-${randomBytes(8).toString('hex')}`,
    SWITCHBOARD_KEYCHAIN_SERVICE: service,
    SWITCHBOARD_NO_BROWSER: '1',
    CODEX_HOME: '',
    CLAUDE_CONFIG_DIR: '',
  };
  const configDir = join(env.XDG_CONFIG_HOME, 'mcp-switchboard');
  await mkdir(configDir, { recursive: true });
  const keychain = new KeytarStore({ service });
  return {
    root,
    home,
    env,
    configDir,
    configPath: join(configDir, 'config.json'),
    stateDir: join(env.XDG_STATE_HOME, 'mcp-switchboard'),
    keychain,
    run: (...args) => runCli(args, env),
    cleanup: async () => {
      for (const name of await keychain.list().catch(() => [] as string[])) await keychain.delete(name);
      await rm(root, { recursive: true, force: true });
    },
  };
}

/** `serve` of `user` on a free port (extra args e.g. `--config X`); resolves once it listens. */
export async function serveAs(
  user: IsolatedUser,
  args: string[] = [],
): Promise<SpawnedServer & { url: string; origin: string }> {
  const server = await spawnServer(
    [BIN, 'serve', '--port', '0', ...args],
    /MCP endpoint: (http:\/\/\S+\/mcp)/,
    user.env,
  );
  const url = server.match[1]!;
  return { ...server, url, origin: new URL(url).origin };
}
