/**
 * Finding a stdio server's command the way spawning it will (PATH, and
 * PATHEXT on Windows), so a missing command is reported as what it is:
 * "command `uvx` was not found on PATH (PATH searched: ...)" rather than
 * Node's `spawn uvx ENOENT`, and `check-config` can warn before a start.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';

/** The PATH a child gets: the backend's own `PATH` env value when it sets one, else the environment's. */
export function searchPath(environment: NodeJS.ProcessEnv, env: Record<string, unknown> = {}): string {
  const own = env['PATH'];
  if (typeof own === 'string') return own;
  return environment['PATH'] ?? environment['Path'] ?? '';
}

function executable(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, process.platform === 'win32' ? constants.F_OK : constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Where `command` resolves: itself when it names a path (relative to `cwd`),
 * else the first executable match on `path`; undefined when there is none.
 */
export function findCommand(
  command: string,
  path: string,
  options: { cwd?: string; environment?: NodeJS.ProcessEnv } = {},
): string | undefined {
  const extensions =
    process.platform === 'win32'
      ? ['', ...(options.environment?.['PATHEXT'] ?? '.COM;.EXE;.BAT;.CMD').split(';').filter(Boolean)]
      : [''];
  if (isAbsolute(command) || command.includes('/') || command.includes('\\')) {
    const full = resolve(options.cwd ?? process.cwd(), command);
    return extensions.map((ext) => full + ext).find(executable);
  }
  for (const dir of path.split(delimiter).filter(Boolean)) {
    const found = extensions.map((ext) => join(dir, command + ext)).find(executable);
    if (found) return found;
  }
  return undefined;
}

/** The sentence for a command that is not there. */
export function commandNotFound(command: string, path: string): string {
  if (isAbsolute(command) || command.includes('/') || command.includes('\\')) {
    return `command \`${command}\` was not found (no executable file at that path)`;
  }
  const dirs = path.split(delimiter).filter(Boolean);
  return `command \`${command}\` was not found on PATH (PATH searched: ${dirs.length > 0 ? dirs.join(delimiter) : 'empty'})`;
}

/**
 * A spawn failure said plainly, or undefined when `error` is not one: a
 * missing command, a missing working directory (which Node also reports as
 * `spawn <command> ENOENT`), a command that is not executable.
 */
export function describeSpawnFailure(
  error: unknown,
  spawn: { command: string; cwd?: string | undefined; env?: Record<string, unknown> },
  environment: NodeJS.ProcessEnv,
): string | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const syscall = (error as NodeJS.ErrnoException | undefined)?.syscall ?? '';
  if (!syscall.startsWith('spawn')) return undefined;
  if (code === 'ENOENT') {
    if (spawn.cwd !== undefined) {
      try {
        if (!statSync(spawn.cwd).isDirectory()) return `working directory \`${spawn.cwd}\` is not a directory`;
      } catch {
        return `working directory \`${spawn.cwd}\` does not exist`;
      }
    }
    return commandNotFound(spawn.command, searchPath(environment, spawn.env));
  }
  if (code === 'EACCES') return `command \`${spawn.command}\` is not executable (permission denied)`;
  return undefined;
}

/**
 * Makes `transport.start()` (which spawns the child) reject with
 * {@link describeSpawnFailure}'s sentence instead of Node's `spawn X ENOENT`.
 */
export function explainSpawnFailures(
  transport: { start(): Promise<void> },
  spawn: { command: string; cwd?: string | undefined; env?: Record<string, unknown> },
  environment: NodeJS.ProcessEnv,
): void {
  const start = transport.start.bind(transport);
  transport.start = async () => {
    try {
      await start();
    } catch (error) {
      const plain = describeSpawnFailure(error, spawn, environment);
      if (plain === undefined) throw error;
      throw Object.assign(new Error(plain, { cause: error }), { code: (error as NodeJS.ErrnoException).code });
    }
  };
}
