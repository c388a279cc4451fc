/**
 * `mcp-switchboard connect`: the stdio entry for clients that launch a
 * command. It finds the running Switchboard (desktop or headless) through the
 * runtime file, starts a headless one if there is none, and bridges stdio to
 * its HTTP endpoint, so all such clients share one set of backends.
 * stdout carries the protocol: everything for people goes to stderr.
 */
import {
  CLIENT_TOKEN_VARIABLE,
  bridgeStdioToHttp,
  ensureInstance,
  gatewayResourceOf,
  waitForBackends,
  type Launcher,
} from '../../core/install/index.js';
import {
  frontendTokenPath,
  resolveFrontendToken,
  defaultConfigDir,
  defaultConfigPath,
  defaultStateDir,
} from '../../core/platform/index.js';
import { DEFAULT_PORT } from '../../../shared/endpoint.js';
import type { CliCommand, CommandSpec } from '../command.js';
import { selfLauncher } from '../io.js';

/** The command, in help order. */
export const connectSpecs: readonly CommandSpec[] = [
  {
    name: 'connect',
    usage: [`connect [--config FILE] [--port ${DEFAULT_PORT}]`],
    text: [
      'Speak MCP on stdin/stdout, bridged to the running Switchboard (started',
      'headless in the background if none runs). For clients that launch a command.',
    ],
    options: {
      config: "Config of the Switchboard to connect to or start (default: the running one's, else this user's).",
      port: `Port of the Switchboard to connect to or start (default: the running one's, else ${DEFAULT_PORT}).`,
    },
    examples: ['connect', `connect --port ${DEFAULT_PORT}`],
  },
];

/** Options of {@link runConnect}. */
export interface ConnectOptions {
  stateDir: string;
  configDir: string;
  launcher: Launcher;
  /** Config for an instance this call starts (and to compare with a running one). */
  config?: string;
  port: number;
  environment: NodeJS.ProcessEnv;
  /** Longest wait for the instance's backends' first connection attempts before relaying (default 30 s). */
  readyTimeoutMs?: number;
}

const say = (line: string): void => void process.stderr.write(`[switchboard connect] ${line}\n`);

/** Runs until the client closes stdin. */
export async function runConnect(options: ConnectOptions): Promise<void> {
  // A gateway takes only its identity provider's tokens: a bridge presenting a Switchboard token cannot reach it.
  const gateway = await gatewayResourceOf(options.config ?? defaultConfigPath());
  if (gateway !== undefined) {
    throw new Error(
      `this Switchboard is a gateway: clients connect to ${gateway} and sign in with OAuth themselves; ` +
        '`connect` (a stdio bridge with a Switchboard token) cannot reach it',
    );
  }
  const ensure = async () => {
    const found = await ensureInstance({
      stateDir: options.stateDir,
      launcher: options.launcher,
      ...(options.config ? { config: options.config } : {}),
      port: options.port,
      environment: options.environment,
      log: say,
    });
    // Relay only once every backend had its first attempt: the client's first tools/list is then complete.
    const timeoutMs = options.readyTimeoutMs ?? 30_000;
    if (!(await waitForBackends(found.info.url, { timeoutMs }))) {
      say(`some servers are still starting after ${Math.round(timeoutMs / 1000)} s; relaying with those that are up`);
    }
    return found;
  };
  const { info, started } = await ensure();
  say(`${started ? 'started' : 'using'} Switchboard at ${info.url} (pid ${info.pid})`);
  if (options.config && info.config && info.config !== options.config) {
    say(`warning: the running instance serves ${info.config}, not ${options.config}`);
  }
  // The client's own token (per-client tokens come with profiles), else the shared one as `serve` resolves it.
  const token =
    options.environment[CLIENT_TOKEN_VARIABLE] ||
    (await resolveFrontendToken(frontendTokenPath(options.configDir), options.environment)).token;
  const bridge = await bridgeStdioToHttp({
    url: info.url,
    token,
    onerror: (error) => say(`error: ${error.message}`),
    // The instance went away (the app quit, a crash): find or start one again, same token.
    reconnect: async () => {
      const again = await ensure();
      say(`${again.started ? 'started' : 'using'} Switchboard at ${again.info.url} (pid ${again.info.pid})`);
      return { url: again.info.url, token };
    },
  });
  await bridge.closed;
}

/** The `connect` command. */
export const connectCli: CliCommand = {
  section: 'usage',
  positionals: false,
  commands: connectSpecs,
  run: async ({ values, config, port }) => {
    await runConnect({
      stateDir: defaultStateDir(),
      configDir: defaultConfigDir(),
      launcher: selfLauncher(),
      ...(values.config !== undefined ? { config } : {}),
      port,
      environment: process.env,
    });
    // The client closed stdin: leave now rather than when idle keep-alive sockets time out.
    return 0;
  },
};
