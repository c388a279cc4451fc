/**
 * The user's login-shell environment. A desktop app started from a dock or a
 * menu inherits a minimal PATH (often /usr/bin:/bin), so `npx`, `uvx` and
 * `docker` are "not found" although they work in a terminal. Once at start,
 * the login shell is asked for its environment (`$SHELL -ilc 'command env'`,
 * what shell-env does), bounded by a timeout and an AbortSignal with the
 * shell killed on either (shell-env offers neither, hence these few lines);
 * on failure, PATH is extended with the usual install locations instead.
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { homedir, userInfo } from 'node:os';
import { delimiter, join } from 'node:path';

/** How long the login shell may take (a slow rc file must not stall the start). */
export const LOGIN_SHELL_TIMEOUT_MS = 5_000;
const MARK = '_SWITCHBOARD_ENV_DELIMITER_';

/** The resolved environment and where its PATH came from, for Settings. */
export interface ResolvedEnvironment {
  environment: NodeJS.ProcessEnv;
  /** `login-shell` (asked the shell), `fallback` (common locations added), or `inherited` (Windows). */
  source: 'login-shell' | 'fallback' | 'inherited';
  /** The PATH entries, in order. */
  path: string[];
  /** Why the login shell could not be used (fallback only). */
  reason?: string;
}

/** Options of {@link resolveLoginEnvironment}. */
export interface LoginEnvironmentOptions {
  base?: NodeJS.ProcessEnv;
  /** The shell to ask; default $SHELL, else the user's login shell. */
  shell?: string;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Directories the user added (Settings), put in front. */
  extraPath?: string[];
  platform?: NodeJS.Platform;
  home?: string;
}

/** Where runtimes are commonly installed, for the fallback (only those that exist are added). */
export function commonLocations(home: string, base: NodeJS.ProcessEnv): string[] {
  const nvm = join(base['NVM_DIR'] ?? join(home, '.nvm'), 'versions', 'node');
  let nvmCurrent: string[] = [];
  if (base['NVM_BIN']) nvmCurrent = [base['NVM_BIN']];
  else if (existsSync(nvm)) {
    const versions = readdirSync(nvm).sort((a, b) => b.localeCompare(a, undefined, { numeric: true }));
    if (versions[0]) nvmCurrent = [join(nvm, versions[0], 'bin')];
  }
  return [
    '/opt/homebrew/bin',
    '/usr/local/bin',
    join(home, '.local', 'bin'),
    join(home, '.volta', 'bin'),
    ...nvmCurrent,
    join(home, '.cargo', 'bin'),
    '/usr/bin',
    '/bin',
  ];
}

function parseEnv(stdout: string): NodeJS.ProcessEnv | undefined {
  // Between the first and the last mark: a variable such as `_` may itself hold the mark.
  const start = stdout.indexOf(MARK);
  const end = stdout.lastIndexOf(MARK);
  if (start < 0 || end <= start) return undefined;
  const body = stdout.slice(start + MARK.length, end);
  const out: NodeJS.ProcessEnv = {};
  let last: string | undefined;
  for (const line of body.split('\n')) {
    const match = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s.exec(line);
    if (match) {
      last = match[1]!;
      out[last] = match[2]!;
    } else if (last !== undefined && line !== '') out[last] += `\n${line}`; // a value with a newline
  }
  return out;
}

function askShell(
  shell: string,
  base: NodeJS.ProcessEnv,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<NodeJS.ProcessEnv> {
  return new Promise((resolve, reject) => {
    execFile(
      shell,
      ['-ilc', `printf '%s' ${MARK}; command env; printf '%s' ${MARK}; exit`],
      {
        // Oh My Zsh would otherwise stop to ask about updates or start tmux.
        env: { ...base, DISABLE_AUTO_UPDATE: 'true', ZSH_TMUX_AUTOSTARTED: 'true', ZSH_TMUX_AUTOSTART: 'false' },
        timeout: timeoutMs,
        killSignal: 'SIGKILL',
        maxBuffer: 4 * 1024 * 1024,
        ...(signal ? { signal } : {}),
      },
      (error, stdout) => {
        const parsed = parseEnv(String(stdout));
        if (parsed?.['PATH']) return resolve(parsed);
        reject(error ?? new Error(`${shell} printed no environment`));
      },
    );
  });
}

function unique(entries: string[]): string[] {
  return [...new Set(entries.filter((e) => e !== ''))];
}

/** Resolves the environment for stdio backends: the login shell's, else PATH plus common locations. */
export async function resolveLoginEnvironment(options: LoginEnvironmentOptions = {}): Promise<ResolvedEnvironment> {
  const base = options.base ?? process.env;
  const platform = options.platform ?? process.platform;
  const home = options.home ?? homedir();
  const extra = options.extraPath ?? [];
  const own = (base['PATH'] ?? '').split(delimiter);
  const finish = (
    environment: NodeJS.ProcessEnv,
    source: ResolvedEnvironment['source'],
    path: string[],
    reason?: string,
  ) => {
    const entries = unique([...extra, ...path]);
    return {
      environment: { ...environment, PATH: entries.join(delimiter) },
      source,
      path: entries,
      ...(reason ? { reason } : {}),
    };
  };
  if (platform === 'win32') return finish(base, 'inherited', own); // GUI apps get the full user PATH there
  const shell = options.shell ?? base['SHELL'] ?? safeLoginShell() ?? '/bin/sh';
  try {
    const login = await askShell(shell, base, options.timeoutMs ?? LOGIN_SHELL_TIMEOUT_MS, options.signal);
    // The shell's values win, except PATH: our own entries keep their order in front (a terminal's
    // PATH, or one set for this launch, is what the user meant; a dock's minimal PATH holds none of
    // the runtimes), and the login shell's entries we lacked are added after them.
    return finish({ ...base, ...login }, 'login-shell', [...own, ...(login['PATH'] ?? '').split(delimiter)]);
  } catch (error) {
    const reason = `${shell}: ${(error as Error).message.split('\n')[0]}`;
    const found = commonLocations(home, base).filter((dir) => existsSync(dir));
    return finish(base, 'fallback', [...own, ...found], reason);
  }
}

function safeLoginShell(): string | undefined {
  try {
    return userInfo().shell ?? undefined;
  } catch {
    return undefined;
  }
}

/** The login environment asked for at process start ({@link startLoginEnvironment}), not taken yet. */
let early: Promise<ResolvedEnvironment> | undefined;

/**
 * Asks the login shell now, before the rest of the program has loaded: the
 * shell (0.5 s for Debian's bash, seconds for a zsh with plugins) then runs
 * while Node compiles our modules, instead of after them. The entry points
 * (the `serve` command, the desktop app) call it on their first line; this
 * module imports only Node's built-ins, so calling it costs nothing.
 */
export function startLoginEnvironment(): void {
  early ??= resolveLoginEnvironment();
}

/** The login environment started by {@link startLoginEnvironment} (taken once), else a new one. */
export function takeLoginEnvironment(): Promise<ResolvedEnvironment> {
  const started = early ?? resolveLoginEnvironment();
  early = undefined;
  return started;
}
