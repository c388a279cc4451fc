/**
 * `mcp-switchboard ui`: a fresh one-time login link to the running
 * instance's UI. The instance is found in `<state dir>/runtime.json` (its pid
 * alive, its `/healthz` answering); the link is minted by the instance itself
 * (`POST /ui/login`, authenticated with the main bearer token), printed, and
 * opened in a browser where one can be opened.
 */
import { isProcessAlive } from '../../core/backends/index.js';
import { answersHealth, readRuntimeFile } from '../../core/install/index.js';
import {
  frontendTokenPath,
  resolveFrontendToken,
  defaultConfigDir,
  defaultStateDir,
} from '../../core/platform/index.js';
import { browserDisabled, openInBrowser } from '../../host/startHeadless.js';
import type { CliCommand, CommandSpec } from '../command.js';
import { stdio } from '../io.js';

/** The command, in help order. */
export const uiSpecs: readonly CommandSpec[] = [
  {
    name: 'ui',
    usage: ['ui [--no-browser]'],
    text: ["Print (and open) a fresh one-time login link to the running Switchboard's UI."],
    options: { 'no-browser': 'Only print the link; do not open a browser.' },
    examples: ['ui', 'ui --no-browser'],
  },
];

/** What `ui` needs. */
export interface UiCommandOptions {
  stateDir: string;
  configDir: string;
  environment: NodeJS.ProcessEnv;
  /** Opens the link; not called when no browser can or may be opened. */
  openUrl: (url: string) => Promise<void>;
  /** `--no-browser`. */
  noBrowser: boolean;
  platform?: NodeJS.Platform;
  out: (text: string) => void;
  err: (text: string) => void;
}

/** Whether a browser may be opened: not disabled, and (on Linux and BSDs) a display to open it on. */
export function canOpenBrowser(environment: NodeJS.ProcessEnv, platform: NodeJS.Platform): boolean {
  if (browserDisabled(environment)) return false;
  if (platform === 'darwin' || platform === 'win32') return true;
  return Boolean(environment['DISPLAY'] || environment['WAYLAND_DISPLAY']);
}

/** Asks the instance at `url` for a login link; the link, or why there is none. */
async function mintLink(url: string, token: string): Promise<{ url: string } | { problem: string }> {
  let response: Response;
  try {
    response = await fetch(new URL('/ui/login', url), {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}` },
      signal: AbortSignal.timeout(5000),
    });
  } catch (error) {
    return { problem: `could not reach Switchboard at ${url}: ${(error as Error).message}` };
  }
  const body = (await response.json().catch(() => ({}))) as { url?: unknown };
  if (response.ok && typeof body.url === 'string') return { url: body.url };
  if (response.status === 401)
    return {
      problem:
        'the running Switchboard did not accept this token: it may run with SWITCHBOARD_TOKEN set; run `mcp-switchboard ui` with the same SWITCHBOARD_TOKEN',
    };
  if (response.status === 404)
    return {
      problem:
        'the running Switchboard is the desktop app, which has no browser UI: open its window from the tray icon',
    };
  return { problem: `Switchboard answered ${response.status} when asked for a login link` };
}

/** Runs `ui`; resolves with the exit code. */
export async function uiCommand(options: UiCommandOptions): Promise<number> {
  const runtime = await readRuntimeFile(options.stateDir);
  if (!runtime || !isProcessAlive(runtime.pid) || !(await answersHealth(runtime.url))) {
    options.err(
      'mcp-switchboard: no Switchboard is running. Start it with `mcp-switchboard serve` (it prints a login link).\n',
    );
    return 1;
  }
  const { token } = await resolveFrontendToken(frontendTokenPath(options.configDir), options.environment);
  const minted = await mintLink(runtime.url, token);
  if ('problem' in minted) {
    options.err(`mcp-switchboard: ${minted.problem}\n`);
    return 1;
  }
  options.out(`UI: ${minted.url}\n(the link works once, within 5 minutes)\n`);
  if (!options.noBrowser && canOpenBrowser(options.environment, options.platform ?? process.platform)) {
    await options.openUrl(minted.url).catch(() => undefined);
  }
  return 0;
}

/** The `ui` command. */
export const uiCli: CliCommand = {
  section: 'usage',
  positionals: false,
  commands: uiSpecs,
  run: ({ values }) =>
    uiCommand({
      stateDir: defaultStateDir(),
      configDir: defaultConfigDir(),
      environment: process.env,
      openUrl: openInBrowser,
      noBrowser: values['no-browser'],
      ...stdio(),
    }),
};
