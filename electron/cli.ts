/**
 * The `mcp-switchboard` command. Headless: it runs the core in plain Node and
 * never loads Electron.
 */
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { VERSION } from '../shared/version.js';
import { ConfigStore } from './core/config/configStore.js';
import { formatProblems, loadConfigFile } from './core/config/load.js';
import { missingVariables } from './core/config/expand.js';
import { KeytarStore } from './core/secrets/keytarStore.js';
import { plainValues, unresolvedSecrets, valueMapOf } from './core/secrets/resolve.js';
import { resolveFrontendToken } from './core/config/frontendToken.js';
import { defaultConfigDir, defaultConfigPath, defaultStateDir } from './core/config/paths.js';
import { runClientCommand, type ClientCommandOptions } from './core/clients/commands.js';
import { runConnect } from './core/clients/connect/connectCommand.js';
import { removeRuntimeFile, writeRuntimeFile } from './core/clients/runtimeFile.js';
import type { Launcher } from './core/clients/types.js';
import type { SwitchboardConfig } from './core/config/schema.js';
import { stderrLogger } from './core/deps.js';
import { HttpEndpoint } from './core/frontend/httpEndpoint.js';
import { serveCoreOverStdio } from './core/frontend/stdioEndpoint.js';
import { cachedSecretValues, openCoreServices } from './core/coreServices.js';
import { SwitchboardCore } from './core/switchboard.js';

/** Default port of the local endpoint. */
export const DEFAULT_PORT = 47100;

const USAGE = `mcp-switchboard ${VERSION}: many MCP servers, one local MCP endpoint.

Usage:
  mcp-switchboard serve [--config FILE] [--host 127.0.0.1] [--port ${DEFAULT_PORT}] [--quiet]
      Serve the merged catalog over Streamable HTTP at http://<host>:<port>/mcp
      (--port 0 picks a free port). Clients send "Authorization: Bearer <token>";
      the token is SWITCHBOARD_TOKEN, or one generated and kept for later starts
      (printed unless --quiet, for output that goes to a log).
  mcp-switchboard serve --stdio [--config FILE]
      Serve the same catalog over stdin/stdout, for clients that launch a command.
  mcp-switchboard check-config [--config FILE]
      Validate the config; print one line per problem and exit 1 if there are any.
  mcp-switchboard connect [--config FILE] [--port ${DEFAULT_PORT}]
      Speak MCP on stdin/stdout, bridged to the running Switchboard (started
      headless in the background if none runs). For clients that launch a command.

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

Config: ${defaultConfigPath()} unless --config is given.
`;

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

function fail(message: string): never {
  process.stderr.write(`mcp-switchboard: ${message}\n`);
  process.exit(2);
}

async function loadOrExit(path: string, allowMissing: boolean): Promise<SwitchboardConfig> {
  const result = await loadConfigFile(path, { allowMissing });
  if (!result.ok) {
    for (const line of formatProblems(result.path, result.problems)) process.stderr.write(`${line}\n`);
    process.exit(1);
  }
  return result.config;
}

/** `check-config`: validation plus environment variables that are referenced but unset. */
async function checkConfig(path: string): Promise<void> {
  const config = await loadOrExit(path, false);
  const problems: string[] = [];
  for (const backend of config.backends) {
    const { field, values } = valueMapOf(backend);
    for (const [key, value] of Object.entries(plainValues(values))) {
      for (const name of missingVariables(value, process.env)) {
        problems.push(`${path}: mcpServers.${backend.id}.${field}.${key}: environment variable \${${name}} is not set`);
      }
    }
  }
  for (const line of await unresolvedSecrets(config.backends, new KeytarStore())) problems.push(`${path}: ${line}`);
  if (config.backends.length > config.proxy.maxBackends) {
    problems.push(
      `${path}: mcpServers: ${config.backends.length} backends exceed proxy.maxBackends (${config.proxy.maxBackends})`,
    );
  }
  for (const line of problems) process.stderr.write(`${line}\n`);
  if (problems.length > 0) process.exit(1);
  process.stdout.write(`${path}: OK (${config.backends.length} backends)\n`);
}

async function serve(options: {
  config: string;
  explicitConfig: boolean;
  host: string;
  port: number;
  stdio: boolean;
  quiet: boolean;
}): Promise<void> {
  // Validate first (a missing --config file is an error; a missing default file means no servers yet).
  await loadOrExit(options.config, !options.explicitConfig);
  const store = new ConfigStore(options.config);
  const { config } = await store.load();
  // The audit log asks what to redact each time it writes: the frontend token (known once
  // resolved below), keychain values, and the header/secret values of the backends in force
  // now (including ones added at runtime).
  let frontendToken = '';
  const keychain = new KeytarStore();
  const redaction = cachedSecretValues(process.env);
  const services = await openCoreServices(
    store,
    () => redaction(core.backendConfigs(), [frontendToken, ...keychain.knownValues()]),
    keychain,
  );
  const core: SwitchboardCore = new SwitchboardCore(
    config,
    { environment: process.env, logger: stderrLogger, clientInfo: { name: 'mcp-switchboard', version: VERSION } },
    services,
  );
  let stopping = false;
  const stopAll: (() => Promise<void>)[] = [];
  const shutdown = async (code: number): Promise<void> => {
    if (stopping) return;
    stopping = true;
    await Promise.allSettled(stopAll.map((stop) => stop()));
    await core.dispose();
    process.exit(code);
  };
  process.on('SIGINT', () => void shutdown(0));
  process.on('SIGTERM', () => void shutdown(0));

  if (options.stdio) {
    stopAll.push(serveCoreOverStdio(core));
    process.stdin.on('close', () => void shutdown(0));
    process.stdin.on('end', () => void shutdown(0));
    await core.start();
    return;
  }
  const { token, source } = await resolveFrontendToken(join(defaultConfigDir(), 'frontend-token'), process.env);
  frontendToken = token;
  const endpoint = new HttpEndpoint(core, { host: options.host, port: options.port, token });
  try {
    await endpoint.listen();
  } catch (error) {
    await core.dispose();
    fail(`cannot listen on ${options.host}:${options.port}: ${(error as Error).message}`);
  }
  stopAll.push(() => endpoint.close());
  // How `connect` finds this instance; removed on a clean exit (a crash leaves it, which readers detect).
  const stateDir = defaultStateDir();
  const port = Number(new URL(endpoint.url).port);
  await writeRuntimeFile(stateDir, {
    port,
    pid: process.pid,
    url: endpoint.url,
    startedAt: new Date().toISOString(),
    config: options.config,
  }).catch((error: unknown) => stderrLogger.warn(`cannot write the runtime file: ${(error as Error).message}`));
  stopAll.push(() => removeRuntimeFile(stateDir));
  process.stdout.write(`MCP endpoint: ${endpoint.url}\n`);
  const tokenFile = join(defaultConfigDir(), 'frontend-token');
  // --quiet (used when output goes to a log file): a token never belongs in a log.
  process.stdout.write(
    source === 'environment'
      ? 'Bearer token: from SWITCHBOARD_TOKEN\n'
      : options.quiet
        ? `Bearer token: kept in ${tokenFile}\n`
        : `Bearer token: ${token} (kept in ${tokenFile})\n`,
  );
  process.stdout.write(
    `Config: ${options.config}${config.backends.length === 0 ? ' (no servers configured yet)' : ''}\n`,
  );
  await core.start();
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

const CLIENT_COMMANDS = new Set(['clients', 'install', 'uninstall', 'undo', 'snippet', 'import']);

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
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(USAGE);
    return;
  }
  if (command === '--version' || command === '-v') {
    process.stdout.write(`${VERSION}\n`);
    return;
  }
  let parsed;
  try {
    parsed = parseArgs({
      args: rest,
      options: {
        config: { type: 'string' },
        host: { type: 'string', default: '127.0.0.1' },
        port: { type: 'string', default: String(DEFAULT_PORT) },
        stdio: { type: 'boolean', default: false },
        quiet: { type: 'boolean', default: false },
        project: { type: 'string' },
        json: { type: 'boolean', default: false },
        server: { type: 'string', multiple: true },
        all: { type: 'boolean', default: false },
        replace: { type: 'boolean', default: false },
      },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    fail(`${(error as Error).message}\n\n${USAGE}`);
  }
  const { values, positionals } = parsed;
  const config = values.config ?? defaultConfigPath();
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    fail(`--port must be a whole number from 0 to 65535, not "${values.port}"`);
  if (CLIENT_COMMANDS.has(command)) {
    return runClientCommand({
      command: command as ClientCommandOptions['command'],
      client: positionals[0],
      project: values.project,
      port,
      config,
      explicitConfig: values.config !== undefined,
      json: values.json,
      servers: values.server ?? [],
      all: values.all,
      replace: values.replace,
      launcher: selfLauncher(),
      out: (text) => void process.stdout.write(text),
    });
  }
  if (positionals.length > 0) fail(`unexpected argument "${positionals[0]}"\n\n${USAGE}`);
  if (command === 'check-config') return checkConfig(config);
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
    });
  }
  fail(`unknown command "${command}"\n\n${USAGE}`);
}
