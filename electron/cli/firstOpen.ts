/**
 * The first `serve` of a config, in an interactive terminal, opens the UI in
 * the browser once; later starts only print the link. "First" means no UI
 * was opened for this config before (by `serve` or `mcp-switchboard ui`),
 * remembered in `<state dir>/ui-opened.json`.
 *
 * Never opened: with `--no-open`, `SWITCHBOARD_NO_BROWSER=1`, `BROWSER=none`,
 * no display (Linux and BSDs), or when stdin or stdout is not a terminal
 * (a service, a pipe, a log file). `SWITCHBOARD_ASSUME_TTY=1` declares the
 * terminal interactive (for tests and wrappers that run serve in a pipe on
 * a person's behalf).
 */
import { mkdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileWriter, defaultStateDir } from '../core/platform/index.js';
import { openInBrowser } from '../host/startHeadless.js';
import { canOpenBrowser } from './commands/ui.js';

/** Where the configs whose UI was opened are remembered. */
export function uiOpenedPath(stateDir: string): string {
  return join(stateDir, 'ui-opened.json');
}

async function openedConfigs(stateDir: string): Promise<string[]> {
  try {
    const parsed = JSON.parse(await readFile(uiOpenedPath(stateDir), 'utf8')) as { configs?: unknown };
    return Array.isArray(parsed.configs) ? parsed.configs.filter((c): c is string => typeof c === 'string') : [];
  } catch {
    return []; // missing or unreadable: nothing remembered
  }
}

/** Whether a UI was opened for `config` before. */
export async function uiOpenedBefore(stateDir: string, config: string): Promise<boolean> {
  return (await openedConfigs(stateDir)).includes(resolve(config));
}

/** Remembers that a UI was opened for `config`. */
export async function markUiOpened(stateDir: string, config: string): Promise<void> {
  const configs = await openedConfigs(stateDir);
  if (configs.includes(resolve(config))) return;
  await mkdir(stateDir, { recursive: true, mode: 0o700 });
  await fileWriter.write(
    uiOpenedPath(stateDir),
    `${JSON.stringify({ configs: [...configs, resolve(config)] }, null, 2)}\n`,
  );
}

/** Whether stdin and stdout are a terminal, or `SWITCHBOARD_ASSUME_TTY=1` says to act as if. */
export function interactiveTerminal(
  environment: NodeJS.ProcessEnv,
  streams = { stdin: process.stdin, stdout: process.stdout },
): boolean {
  if (environment['SWITCHBOARD_ASSUME_TTY'] === '1') return true;
  return Boolean(streams.stdin.isTTY && streams.stdout.isTTY);
}

/** What {@link openUiOnFirstServe} needs. */
export interface FirstOpenOptions {
  stateDir: string;
  config: string;
  environment: NodeJS.ProcessEnv;
  /** `--no-open`. */
  noOpen: boolean;
  interactive: boolean;
  platform?: NodeJS.Platform;
  /** Mints a fresh one-time login link (the printed one stays usable for the person). */
  loginUrl: () => string;
  openUrl: (url: string) => Promise<void>;
}

/** Opens the UI if this is the config's first interactive serve; resolves with whether it did. */
export async function openUiOnFirstServe(options: FirstOpenOptions): Promise<boolean> {
  if (options.noOpen || !options.interactive) return false;
  if (!canOpenBrowser(options.environment, options.platform ?? process.platform)) return false;
  if (await uiOpenedBefore(options.stateDir, options.config)) return false;
  // Remembered first: a browser that fails to start must not make every later start try again.
  await markUiOpened(options.stateDir, options.config);
  await options.openUrl(options.loginUrl()).catch(() => undefined);
  return true;
}

/** The options of {@link openUiOnFirstServe} as `serve` runs: this process's environment, terminal and state dir. */
export function firstServeDefaults(config: string): Omit<FirstOpenOptions, 'noOpen' | 'loginUrl'> {
  return {
    stateDir: defaultStateDir(process.platform, process.env),
    config,
    environment: process.env,
    interactive: interactiveTerminal(process.env),
    openUrl: openInBrowser,
  };
}
