/**
 * Running the built `mcp-switchboard` command as a user would, to completion.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { ROOT } from './basics.js';

/** The command's entry point (needs `npm run build`). */
export const BIN = join(ROOT, 'bin/mcp-switchboard.js');

/**
 * Runs the CLI with `args` and extra environment (and `input` on stdin);
 * resolves with its exit code and output.
 */
export async function runCli(
  args: string[],
  env: Record<string, string>,
  input?: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { ...process.env, ...env },
    stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
  });
  if (input !== undefined) child.stdin?.end(input);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const [code] = (await once(child, 'exit')) as [number];
  return { code, stdout, stderr };
}

/** What a stdio client transport (SDK v1 or v2) needs to start `serve --stdio`. */
export interface ServeStdioParameters {
  command: string;
  args: string[];
  env: Record<string, string>;
  stderr: 'pipe';
}

/**
 * The command line of `mcp-switchboard serve --stdio --config <configPath>`
 * as a client's stdio transport takes it, with the config and state dirs
 * under `home` (none when undefined: the test's own) and `env` on top.
 */
export function serveStdio(
  configPath: string,
  home: string | undefined,
  env: Record<string, string> = {},
): ServeStdioParameters {
  return {
    command: process.execPath,
    args: [BIN, 'serve', '--stdio', '--config', configPath],
    env: {
      ...(process.env as Record<string, string>),
      ...(home ? { XDG_CONFIG_HOME: join(home, 'xdg'), XDG_STATE_HOME: join(home, 'state') } : {}),
      ...env,
    },
    stderr: 'pipe',
  };
}
