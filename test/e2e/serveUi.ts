/**
 * Runs `mcp-switchboard serve` (the built bin) for end-to-end tests: a
 * throwaway HOME/XDG dirs and config, a fixed bearer token, and the UI's
 * one-time login URL read from its output.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN } from '../helpers/cli.js';
import { ROOT } from '../helpers/harness.js';

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
}

/** The throwaway directories `serve` runs with. */
export interface ServeUiDirs {
  dir: string;
  home: string;
  xdgConfig: string;
  xdgState: string;
}

/** Starts `serve --port 0` with `config` and waits until it prints the UI URL. */
export async function serveUi(config: Record<string, unknown>, options: ServeUiOptions = {}): Promise<ServedUi> {
  const dir = await mkdtemp(join(tmpdir(), 'switchboard-e2e-'));
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
  const child: ChildProcess = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--config', configPath], {
    cwd: ROOT,
    env: {
      ...process.env,
      HOME: join(dir, 'home'),
      XDG_CONFIG_HOME: join(dir, 'xdg-config'),
      XDG_STATE_HOME: join(dir, 'xdg-state'),
      XDG_DATA_HOME: join(dir, 'xdg-data'),
      SWITCHBOARD_TOKEN: token,
      ...options.env?.(dirs),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const started = Date.now();
  let endpointUrl: string | undefined;
  let loginUrl: string | undefined;
  while (!(endpointUrl && loginUrl)) {
    if (child.exitCode !== null) throw new Error(`serve exited (${child.exitCode}):\n${output}`);
    if (Date.now() - started > 30_000) throw new Error(`serve printed no UI URL in 30 s:\n${output}`);
    endpointUrl = /MCP endpoint: (\S+)/.exec(output)?.[1];
    loginUrl = /UI: (\S+)/.exec(output)?.[1];
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    endpointUrl,
    loginUrl,
    token,
    dir,
    configPath,
    output: () => output,
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(timer);
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}
