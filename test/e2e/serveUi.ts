/**
 * Runs `mcp-switchboard serve` (the built bin) for end-to-end tests: a
 * throwaway HOME/XDG dirs and config, a fixed bearer token, and the UI's
 * one-time login URL read from its output.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN } from '../helpers/cli.js';
import { spawnServer } from '../helpers/spawnServer.js';

/** A running headless Switchboard. */
export interface ServedUi {
  /** `http://127.0.0.1:<port>/mcp`. */
  endpointUrl: string;
  /** The one-time `…/ui?login=…` URL. */
  loginUrl: string;
  token: string;
  dir: string;
  configPath: string;
  output: () => string;
  stop(): Promise<void>;
}

/** Optional set-up of {@link serveUi}. */
export interface ServeUiOptions {
  /** Extra environment of `serve` (applied after the throwaway dirs; '' clears a variable). */
  env?: (dirs: ServeUiDirs) => Record<string, string>;
  /** Runs before `serve` starts, e.g. to put client config files into the throwaway HOME. */
  prepare?: (dirs: ServeUiDirs) => Promise<void>;
  /** How long to wait for the UI URL (ms; default 30 s). */
  timeoutMs?: number;
}

/** The throwaway directories `serve` runs with. */
export interface ServeUiDirs {
  dir: string;
  home: string;
  xdgConfig: string;
  xdgState: string;
}

/**
 * Environment under which `serve` finds no keychain: no session bus to reach
 * the Secret Service through (what a headless box or a bare SSH login has).
 */
export function withoutKeychain(dirs: ServeUiDirs): Record<string, string> {
  return { DBUS_SESSION_BUS_ADDRESS: `unix:path=${join(dirs.dir, 'no-bus')}`, DISPLAY: '' };
}

/** Starts `serve --port 0` with `config` and waits until it prints the UI URL. */
export async function serveUi(config: Record<string, unknown>, options: ServeUiOptions = {}): Promise<ServedUi> {
  const dir = await mkdtemp(join(tmpdir(), 'switchboard-e2e-'));
  // Whatever fails before serve is up (set-up, an early exit, no URL in time), the child is
  // stopped (by spawnServer) and the throwaway directory removed before the error is thrown.
  try {
    const configPath = join(dir, 'config.json');
    await writeFile(configPath, JSON.stringify(config, null, 2));
    for (const sub of ['home', 'xdg-config', 'xdg-state', 'xdg-data']) await mkdir(join(dir, sub));
    const token = 'e2e-token-0123456789abcdef';
    const dirs: ServeUiDirs = {
      dir,
      home: join(dir, 'home'),
      xdgConfig: join(dir, 'xdg-config'),
      xdgState: join(dir, 'xdg-state'),
    };
    await options.prepare?.(dirs);
    const server = await spawnServer(
      [BIN, 'serve', '--port', '0', '--config', configPath],
      // Both lines whole (a chunk may end mid-URL).
      /MCP endpoint: (\S+)\r?\n[\s\S]*?UI: (\S+)\r?\n/,
      {
        HOME: join(dir, 'home'),
        XDG_CONFIG_HOME: join(dir, 'xdg-config'),
        XDG_STATE_HOME: join(dir, 'xdg-state'),
        XDG_DATA_HOME: join(dir, 'xdg-data'),
        SWITCHBOARD_TOKEN: token,
        ...options.env?.(dirs),
      },
      options.timeoutMs ?? 30_000,
    );
    // What serve printed until it was ready, then everything after.
    let output = server.match.input ?? '';
    server.child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    server.child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const [, endpointUrl = '', loginUrl = ''] = server.match;
    return {
      endpointUrl,
      loginUrl,
      token,
      dir,
      configPath,
      output: () => output,
      async stop() {
        await server.stop();
        await rm(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}
