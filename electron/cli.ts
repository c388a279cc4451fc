/**
 * The `mcp-switchboard` command. Headless: it runs the core in plain Node and
 * never loads Electron.
 */
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { VERSION } from '../shared/version.js';
import { SHORT_USAGE, unknownCommand, unknownOption } from './cliArgs.js';
import { defaultConfigDir, defaultConfigPath, defaultStateDir } from './core/config/paths.js';
import { runClientCommand, type ClientCommandOptions } from './core/clients/commands.js';
import { runConnect } from './core/clients/connect/connectCommand.js';
import type { Launcher } from './core/clients/types.js';
import { stderrLogger } from './core/deps.js';
import { serveCoreOverStdio } from './core/frontend/stdioEndpoint.js';
import { authStatusCommand, authorizeCommand, doctorCommand, signOutCommand } from './core/auth/authCommands.js';
import { runningBackends } from './core/auth/runningStatus.js';
import { secretCommand } from './core/secrets/secretCommands.js';
import { checkConfig, cliRedaction, keychain, loadOrExit, warnIfNoKeytar } from './cliConfig.js';
import { configCommand } from './core/config/configCommands.js';
import { resolveTarget } from './core/clients/target.js';
import { registryCommand } from './core/registry/registryCommands.js';
import { exposureCommand } from './core/exposure/exposureCommand.js';
import type { CoreDeps } from './core/deps.js';
import { browserDisabled, buildCore, ListenError, startHeadless, type Headless } from './host/startHeadless.js';
import { reportStartProgress, stoppedLine } from './host/serveProgress.js';
import { uiCommand } from './host/uiCommand.js';
import { firstServeDefaults, openUiOnFirstServe } from './host/firstOpen.js';

/** Default port of the local endpoint. */
export const DEFAULT_PORT = 47100;

const USAGE = `mcp-switchboard ${VERSION}: many MCP servers, one local MCP endpoint.

Usage:
  mcp-switchboard serve [--config FILE] [--host 127.0.0.1] [--port ${DEFAULT_PORT}] [--quiet] [--no-open]
      Serve the merged catalog over Streamable HTTP at http://<host>:<port>/mcp
      (--port 0 picks a free port). Clients send "Authorization: Bearer <token>";
      the token is SWITCHBOARD_TOKEN, or one generated and kept for later starts
      (printed unless --quiet, for output that goes to a log).
      The UI is served on the same port: open the printed one-time link
      http://127.0.0.1:<port>/ui?login=<token> (not printed with --quiet). The first
      serve of a config in a terminal opens the UI in the browser once (not with --no-open).
  mcp-switchboard serve --stdio [--config FILE]
      Serve the same catalog over stdin/stdout, for clients that launch a command.
  mcp-switchboard ui [--no-browser]
      Print (and open) a fresh one-time login link to the running Switchboard's UI.
  mcp-switchboard check-config [--config FILE]
      Validate the config; print one line per problem and exit 1 if there are any.
  mcp-switchboard connect [--config FILE] [--port ${DEFAULT_PORT}]
      Speak MCP on stdin/stdout, bridged to the running Switchboard (started
      headless in the background if none runs). For clients that launch a command.

Remote servers with OAuth, and secrets (all in the OS keychain):
  mcp-switchboard authorize <id> [--no-browser] [--config FILE]
      Sign in to a remote server: prints the URL, opens the browser (unless
      --no-browser), waits for the redirect, stores the tokens in the keychain.
  mcp-switchboard auth-status [--json] [--config FILE]
      Each remote server's authorization state and token expiry (offline).
  mcp-switchboard doctor [--json] [--config FILE]
      Connect every server once and report what fails (never opens a browser).
  mcp-switchboard sign-out <id> [--config FILE]
      Revoke (where the server supports it) and delete a server's tokens.
  mcp-switchboard secret set <name> | secret delete <name> | secret list
      Keychain secrets for {"secret": "<name>"} values; set reads the value from stdin.
  mcp-switchboard config backups | config restore [N] [--config FILE]
      The last 20 copies of the config kept before each write (1 is the newest); restore puts one back.

  mcp-switchboard exposure <client|default> [all|search|search+load|auto] [--config FILE]
      Show or set how a client gets its tools: all of them, or search_tools and call_tool
      (search), or all while they fit its maxTools/maxToolTokens and search beyond (auto).

Clients (claude-desktop, claude-code, cursor, vscode, windsurf, zed, codex):
  mcp-switchboard clients [--json]
      Which clients are on this machine, and whether Switchboard is installed in each.
  mcp-switchboard install <client> [--project DIR] [--port ${DEFAULT_PORT}]
      Add the Switchboard entry to the client's config (backed up first; other entries untouched).
  mcp-switchboard uninstall <client> [--project DIR]
      Remove only the Switchboard entry.
  mcp-switchboard undo <client> [--project DIR]
      Put back the file as it was before Switchboard's last write to it.
  mcp-switchboard snippet <client> [--project DIR] [--port ${DEFAULT_PORT}]
      Print the entry to paste by hand.
  mcp-switchboard import <client> [--all | --server NAME ...] [--replace] [--project DIR] [--json]
      List the client's servers; with --all or --server, add them to Switchboard's config
      (secrets become \${VAR} references); --replace then points the client at Switchboard instead.

MCP registries (registry.url in the config; default the official MCP Registry):
  mcp-switchboard search <text> [--cursor C] [--json]
      Servers whose name matches: name, title, version, package kinds (invalid entries say why).
  mcp-switchboard add <registry-name>[@version] [--env K=V ...] [--header K=V ...] [--arg K=V ...] [--id ID] [--no-check]
      Add a registry entry as a backend (secrets to the keychain; checked by starting it first).
  mcp-switchboard add ./server.mcpb [--arg KEY=V ...] [--id ID] [--no-check]
      Install an MCP bundle (.mcpb or .dxt): its user_config values with --arg, sensitive ones to the keychain.
  mcp-switchboard outdated [--json]  |  update <id> [--dry-run]
      Servers added from a registry with a newer version; update shows what changes, then applies it.

Config: ${defaultConfigPath()} unless --config is given.
`;

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

/** Every option of every command (each command ignores the ones it does not use). */
const OPTIONS = {
  config: { type: 'string' },
  host: { type: 'string', default: '127.0.0.1' },
  port: { type: 'string' }, // no default: a given --port is told apart from none (running-instance target)
  stdio: { type: 'boolean', default: false },
  quiet: { type: 'boolean', default: false },
  project: { type: 'string' },
  json: { type: 'boolean', default: false },
  server: { type: 'string', multiple: true },
  all: { type: 'boolean', default: false },
  replace: { type: 'boolean', default: false },
  'no-browser': { type: 'boolean', default: false },
  'no-open': { type: 'boolean', default: false },
  env: { type: 'string', multiple: true },
  header: { type: 'string', multiple: true },
  arg: { type: 'string', multiple: true },
  id: { type: 'string' },
  cursor: { type: 'string' },
  'no-check': { type: 'boolean', default: false },
  'dry-run': { type: 'boolean', default: false },
} as const;
const VALUED = Object.entries(OPTIONS).flatMap(([name, option]) => (option.type === 'string' ? [name] : []));

function fail(message: string): never {
  process.stderr.write(`mcp-switchboard: ${message}\n`);
  process.exit(2);
}

async function serve(options: {
  config: string;
  explicitConfig: boolean;
  host: string;
  port: number;
  stdio: boolean;
  quiet: boolean;
  noOpen: boolean;
}): Promise<void> {
  // Validate first (a missing --config file is an error; a missing default file means no servers yet).
  await loadOrExit(options.config, !options.explicitConfig);
  if (options.stdio) {
    const { core } = await buildCore({ config: options.config });
    const stopStdio = serveCoreOverStdio(core);
    let stopping = false;
    const shutdown = async (): Promise<void> => {
      if (stopping) return;
      stopping = true;
      const servers = core.backendConfigs().filter((backend) => backend.enabled).length;
      await stopStdio().catch(() => undefined);
      await core.dispose();
      stderrLogger.info(stoppedLine(servers));
      process.exit(0);
    };
    process.on('SIGINT', () => void shutdown());
    process.on('SIGTERM', () => void shutdown());
    process.stdin.on('close', () => void shutdown());
    process.stdin.on('end', () => void shutdown());
    await warnIfNoKeytar((message) => stderrLogger.warn(message));
    await core.start();
    return;
  }
  let headless: Headless;
  try {
    headless = await startHeadless({
      config: options.config,
      host: options.host,
      port: options.port,
      launcher: selfLauncher(),
    });
  } catch (error) {
    if (error instanceof ListenError) fail(error.message);
    throw error;
  }
  const { core, token, tokenSource: source } = headless;
  let stopping = false;
  const shutdown = async (code: number): Promise<void> => {
    if (stopping) return; // a second Ctrl-C while stopping: one line, one exit
    stopping = true;
    const servers = core.backendConfigs().filter((backend) => backend.enabled).length;
    await headless.stop();
    stderrLogger.info(stoppedLine(servers));
    process.exit(code);
  };
  process.on('SIGINT', () => void shutdown(0));
  process.on('SIGTERM', () => void shutdown(0));
  process.stdout.write(`MCP endpoint: ${headless.url}\n`);
  const tokenFile = join(defaultConfigDir(), 'frontend-token');
  // --quiet (used when output goes to a log file): a token never belongs in a log.
  process.stdout.write(
    source === 'environment'
      ? 'Bearer token: from SWITCHBOARD_TOKEN\n'
      : options.quiet
        ? `Bearer token: kept in ${tokenFile}\n`
        : `Bearer token: ${token} (kept in ${tokenFile})\n`,
  );
  // The login link works once; --quiet keeps it out of logs too.
  if (headless.bridge && !options.quiet) process.stdout.write(`UI: ${headless.bridge.loginUrl()}\n`);
  const bridge = headless.bridge;
  const opts = { ...firstServeDefaults(options.config), noOpen: options.noOpen };
  if (bridge && (await openUiOnFirstServe({ ...opts, loginUrl: () => bridge.loginUrl() })))
    process.stdout.write('Opened the UI in your browser (first start of this config; --no-open skips it)\n');
  if (headless.tokenKey?.where === 'file') {
    process.stdout.write(
      `Client token key: in ${headless.tokenKey.file ?? 'a file'} (mode 0600), no OS keychain: ${headless.tokenKey.reason}\n`,
    );
  }
  const backendCount = core.backendConfigs().length;
  process.stdout.write(`Config: ${options.config}${backendCount === 0 ? ' (no servers configured yet)' : ''}\n`);
  await warnIfNoKeytar((message) => stderrLogger.warn(message));
  const progress = reportStartProgress(core, (line) => stderrLogger.info(line));
  await core.start();
  progress.done();
  if (stopping) return; // Ctrl-C during the start: the stop line says it all
  const readiness = core.readiness();
  stderrLogger.info(
    `backends: ${
      Object.entries(readiness.counts)
        .filter(([, n]) => n > 0)
        .map(([s, n]) => `${n} ${s}`)
        .join(', ') || 'none'
    }`,
  );
}

/** Which of --config and --port were given. */
function explicit(values: { config?: string | undefined; port?: string | undefined }) {
  return { explicitConfig: values.config !== undefined, explicitPort: values.port !== undefined };
}

/** Output of a command that prints for people. */
function stdio(): { out: (text: string) => void; err: (text: string) => void } {
  return { out: (text) => void process.stdout.write(text), err: (text) => void process.stderr.write(text) };
}

const CLIENT_COMMANDS = new Set(['clients', 'install', 'uninstall', 'undo', 'snippet', 'import']);
const AUTH_COMMANDS = new Set(['authorize', 'auth-status', 'doctor', 'sign-out']);
const REGISTRY_COMMANDS = new Set(['search', 'add', 'outdated', 'update']);

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) process.stderr.write('Value (end with Ctrl-D): ');
  let text = '';
  for await (const chunk of process.stdin) text += String(chunk);
  return text;
}

/** Opens a URL in the user's browser (the `open` package: xdg-open, open, start). */
async function openInBrowser(url: string): Promise<void> {
  const { default: open } = await import('open');
  const child = await open(url);
  child.on('error', () => undefined);
  child.unref();
}

/** `authorize`, `auth-status`, `doctor`, `sign-out`: exits with the command's code. */
async function runAuthCommand(
  command: string,
  path: string,
  id: string | undefined,
  flags: { json: boolean; noBrowser: boolean },
): Promise<void> {
  if ((command === 'authorize' || command === 'sign-out') && !id) fail(`${command} needs a backend ID\n\n${USAGE}`);
  const config = await loadOrExit(path, true);
  // --no-browser, or SWITCHBOARD_NO_BROWSER=1 / BROWSER=none (as for serve): only print the URL.
  const noBrowser = flags.noBrowser || browserDisabled(process.env);
  const store = keychain();
  // doctor --json prints health (stderr tails, errors): every output line passes the redaction.
  const redaction = cliRedaction(config, store);
  const deps: CoreDeps = {
    environment: process.env,
    logger: redaction.logger(stderrLogger),
    clientInfo: { name: 'mcp-switchboard', version: VERSION },
    ...(noBrowser ? {} : { openUrl: openInBrowser }),
  };
  const context = {
    config,
    keychain: store,
    deps,
    out: redaction.writer((text) => void process.stdout.write(text)),
    err: redaction.writer((text) => void process.stderr.write(text)),
    running: () =>
      runningBackends({ stateDir: defaultStateDir(), configDir: defaultConfigDir(), environment: process.env }),
  };
  const abort = new AbortController();
  process.once('SIGINT', () => abort.abort());
  const code =
    command === 'authorize'
      ? await authorizeCommand(context, id ?? '', { openBrowser: !noBrowser, signal: abort.signal })
      : command === 'sign-out'
        ? await signOutCommand(context, id ?? '')
        : command === 'doctor'
          ? await doctorCommand(context, flags.json)
          : await authStatusCommand(context, flags.json);
  process.exit(code);
}

/**
 * How client configs and `connect` launch this command: absolute node and
 * absolute script (through any npm bin symlink), so a client with a minimal
 * PATH still starts it.
 */
function selfLauncher(): Launcher {
  const script = process.argv[1];
  return { command: process.execPath, args: script ? [realpathSync(script)] : [] };
}

/** Runs the CLI with the given arguments (without node and script). */
export async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (command === undefined) {
    // Nothing asked: the usage, and a failure exit (a script that lost its arguments must notice).
    process.stderr.write(USAGE);
    process.exit(2);
  }
  if (command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(USAGE);
    return;
  }
  if (command === '--version' || command === '-v') {
    process.stdout.write(`${VERSION}\n`);
    return;
  }
  const unknown = unknownOption(command.startsWith('-') ? argv : rest, Object.keys(OPTIONS), VALUED);
  if (unknown) fail(`${unknown}\n${SHORT_USAGE}`);
  let parsed;
  try {
    parsed = parseArgs({ args: rest, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    fail(`${(error as Error).message}\n${SHORT_USAGE}`);
  }

  const { values, positionals } = parsed;
  const config = values.config ?? defaultConfigPath();
  const port = Number(values.port ?? DEFAULT_PORT);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    fail(`--port must be a whole number from 0 to 65535, not "${values.port}"`);
  const runningTarget = (say: boolean) =>
    resolveTarget({ ...{ config, port, stateDir: defaultStateDir() }, ...explicit(values) }).then((target) => {
      if (target.notice && say) process.stderr.write(`${target.notice}\n`);
      return target;
    });
  if (CLIENT_COMMANDS.has(command)) {
    return runClientCommand({
      command: command as ClientCommandOptions['command'],
      client: positionals[0],
      project: values.project,
      port,
      config,
      explicitConfig: values.config !== undefined,
      explicitPort: values.port !== undefined,
      json: values.json,
      servers: values.server ?? [],
      all: values.all,
      replace: values.replace,
      launcher: selfLauncher(),
      out: (text) => void process.stdout.write(text),
    });
  }
  if (AUTH_COMMANDS.has(command)) {
    if (positionals.length > 1) fail(`unexpected argument "${positionals[1]}"\n\n${USAGE}`);
    // The running instance's config (whose servers get signed in or out), unless --config says otherwise.
    const { config: target } = await runningTarget(!values.json);
    return runAuthCommand(command, target, positionals[0], { json: values.json, noBrowser: values['no-browser'] });
  }
  if (REGISTRY_COMMANDS.has(command)) {
    const io = {
      configPath: config,
      stateDir: defaultStateDir(),
      keychain: keychain(),
      clientInfo: { name: 'mcp-switchboard', version: VERSION },
      out: (text: string) => void process.stdout.write(text),
      err: (text: string) => void process.stderr.write(text),
    };
    const flags = {
      env: values.env ?? [],
      header: values.header ?? [],
      arg: values.arg ?? [],
      noCheck: values['no-check'],
      dryRun: values['dry-run'],
      json: values.json,
      ...(values.id !== undefined ? { id: values.id } : {}),
      ...(values.cursor !== undefined ? { cursor: values.cursor } : {}),
    };
    process.exit(await registryCommand(io, command, positionals, flags));
  }
  if (command === 'secret') {
    const code = await secretCommand(
      {
        keychain: keychain(),
        readStdin,
        out: (text) => void process.stdout.write(text),
        err: (text) => void process.stderr.write(text),
      },
      positionals[0],
      positionals[1],
    );
    process.exit(code);
  }
  if (command === 'config') {
    const context = { config: (await runningTarget(true)).config, stateDir: defaultStateDir(), ...stdio() };
    process.exit(await configCommand(context, positionals[0], positionals[1]));
  }
  if (command === 'exposure') {
    const write = (stream: NodeJS.WriteStream) => (text: string) => void stream.write(text);
    const context = {
      configPath: (await runningTarget(true)).config,
      out: write(process.stdout),
      err: write(process.stderr),
    };
    process.exit(await exposureCommand(context, positionals[0], positionals[1]).catch((e: Error) => fail(e.message)));
  }
  if (positionals.length > 0) fail(`unexpected argument "${positionals[0]}"\n\n${USAGE}`);
  if (command === 'check-config') return checkConfig(config);
  if (command === 'ui') {
    process.exit(
      await uiCommand({
        stateDir: defaultStateDir(),
        configDir: defaultConfigDir(),
        environment: process.env,
        openUrl: openInBrowser,
        noBrowser: values['no-browser'],
        out: (text) => void process.stdout.write(text),
        err: (text) => void process.stderr.write(text),
      }),
    );
  }
  if (command === 'connect') {
    await runConnect({
      stateDir: defaultStateDir(),
      configDir: defaultConfigDir(),
      launcher: selfLauncher(),
      ...(values.config !== undefined ? { config } : {}),
      port,
      environment: process.env,
    });
    // The client closed stdin: leave now rather than when idle keep-alive sockets time out.
    process.exit(0);
  }
  if (command === 'serve') {
    if (!LOOPBACK.has(values.host))
      fail(`--host must be a loopback address (127.0.0.1, localhost or ::1), not "${values.host}"`);
    return serve({
      config,
      explicitConfig: values.config !== undefined,
      host: values.host,
      port,
      stdio: values.stdio,
      quiet: values.quiet,
      noOpen: values['no-open'],
    });
  }
  fail(`${unknownCommand(command)}\n${SHORT_USAGE}`);
}
