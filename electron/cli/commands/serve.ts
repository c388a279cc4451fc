/**
 * `mcp-switchboard serve`: the headless Switchboard, over Streamable HTTP with
 * the UI on the same port, or over stdin/stdout with `--stdio`. Prints the
 * endpoint, the token (never with --quiet) and a one-time UI link, then a
 * start summary; Ctrl-C prints one line once every server has stopped.
 * Listening beyond loopback needs gateway mode (the config's `gateway`
 * section: every request signs in) or the loudly named opt-out.
 */
import { frontendTokenPath, defaultConfigDir, type LogFormat } from '../../core/platform/index.js';
import { stderrLogger } from '../../core/api/index.js';
import { serveCoreOverStdio } from '../../core/frontend/index.js';
import { firstServeDefaults, openUiOnFirstServe } from '../firstOpen.js';
import { buildCore, ListenError, startHeadless, type Headless } from '../../host/startHeadless.js';
import { loadOrExit, warnIfNoKeytar } from '../cliConfig.js';
import { DEFAULT_PORT } from '../../../shared/endpoint.js';
import { CONFIG_FILE } from '../optionHelp.js';
import type { CliCommand, CommandSpec } from '../command.js';
import type { SwitchboardConfig } from '../../core/platform/index.js';
import { fail, selfLauncher } from '../io.js';
import { drainedLine, reportStartProgress, stoppedLine } from '../serveProgress.js';

/** The command, in help order. */
export const serveSpecs: readonly CommandSpec[] = [
  {
    name: 'serve',
    usage: [
      `serve [--config FILE] [--host 127.0.0.1] [--port ${DEFAULT_PORT}] [--quiet] [--no-open] [--log-format text|json]`,
      'serve --host 0.0.0.0 [--tls-cert FILE --tls-key FILE]   (gateway mode: a "gateway" section in the config)',
      'serve --stdio [--config FILE] [--log-format text|json]',
    ],
    text: [
      'Serve the merged catalog over Streamable HTTP at http://<host>:<port>/mcp',
      '(--port 0 picks a free port). Clients send "Authorization: Bearer <token>";',
      'the token is SWITCHBOARD_TOKEN, or one generated and kept for later starts',
      '(printed unless --quiet, for output that goes to a log).',
      'The UI is served on the same port: open the printed one-time link',
      'http://127.0.0.1:<port>/ui?login=<token> (not printed with --quiet). The first',
      'serve of a config in a terminal opens the UI in the browser once (not with --no-open).',
      'With --stdio: the same catalog over stdin/stdout, for clients that launch a command.',
      'Metrics (/metrics) and traces are off unless the config\'s "observability" section',
      'turns them on; --log-format json writes one JSON object per log line, with a request id.',
      'Gateway mode (a "gateway" section in the config): /mcp is an OAuth protected resource',
      "of your team's identity provider, and may listen beyond loopback (docs/gateway.md).",
    ],
    options: {
      ...CONFIG_FILE,
      host: 'Address to listen on: 127.0.0.1 (default), localhost or ::1; any other needs gateway mode.',
      'tls-cert': 'Serve HTTPS with this certificate (PEM; with --tls-key; default: gateway.tls.cert).',
      'tls-key': 'The private key (PEM) of --tls-cert.',
      'insecure-no-auth-on-network': 'Listen beyond loopback without gateway mode (warns; not for shared networks).',
      port: `Port to listen on (default ${DEFAULT_PORT}; 0 picks a free one).`,
      stdio: 'Serve one client over stdin/stdout instead of HTTP.',
      quiet: 'Print neither the token nor the UI link (for output that goes to a log).',
      'no-open': 'Do not open the UI in the browser on the first serve of a config.',
      'log-format': 'Log lines as text (default) or json (one object per line, with a request id).',
    },
    examples: [
      'serve',
      'serve --port 0 --quiet',
      'serve --stdio --config ./switchboard.json',
      'serve --quiet --log-format json',
      'serve --config ./gateway.json --host 0.0.0.0 --port 443 --tls-cert cert.pem --tls-key key.pem',
    ],
  },
];

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

interface ServeOptions {
  config: string;
  explicitConfig: boolean;
  host: string;
  port: number;
  stdio: boolean;
  quiet: boolean;
  noOpen: boolean;
  /** `--log-format`; absent: the config's `observability.logFormat`. */
  logFormat: LogFormat | undefined;
  tls?: { cert: string; key: string } | undefined;
  insecureOnNetwork: boolean;
}

/** Why `serve` must not listen on `host` with this config, or undefined when it may (the opt-out warns). */
export function networkRefusal(
  host: string,
  config: SwitchboardConfig,
  insecureOnNetwork: boolean,
): string | undefined {
  if (LOOPBACK.has(host) || config.gateway) return undefined;
  if (insecureOnNetwork) {
    stderrLogger.warn(
      `WARNING: listening on ${host} without gateway mode (--insecure-no-auth-on-network): anyone who can reach ` +
        'this port and learns a client token uses your servers as you. Prefer a "gateway" section (docs/gateway.md).',
    );
    return undefined;
  }
  return (
    `--host ${host} is not a loopback address: listening on the network needs gateway mode (a "gateway" section in ` +
    'the config, where every request signs in: docs/gateway.md), or --insecure-no-auth-on-network to accept the risk'
  );
}

/** `serve --stdio`: one client on stdin/stdout, with its own copy of the backends. */
async function serveStdio(options: ServeOptions): Promise<void> {
  const { core, logger, observability } = await buildCore({ config: options.config, logFormat: options.logFormat });
  const stopStdio = serveCoreOverStdio(core);
  let stopping = false;
  const shutdown = async (): Promise<void> => {
    if (stopping) return;
    stopping = true;
    const servers = core.backendConfigs().filter((backend) => backend.enabled).length;
    await stopStdio().catch(() => undefined);
    await core.dispose();
    await observability.shutdown().catch(() => undefined);
    logger.info(stoppedLine(servers));
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown());
  process.on('SIGTERM', () => void shutdown());
  process.stdin.on('close', () => void shutdown());
  process.stdin.on('end', () => void shutdown());
  await warnIfNoKeytar((message) => logger.warn(message));
  await core.start();
}

/** What `serve` prints before the backends start: endpoint, token, UI link, config. */
function printEndpoint(headless: Headless, options: ServeOptions): void {
  const { token, tokenSource: source } = headless;
  process.stdout.write(`MCP endpoint: ${headless.url}\n`);
  if (headless.gateway) {
    const { resource, authorizationServers } = headless.gateway;
    process.stdout.write(`Gateway: ${resource} (clients sign in with ${authorizationServers.join(', ')})\n`);
  }
  const tokenFile = frontendTokenPath(defaultConfigDir());
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
}

/** The first serve of a config in a terminal opens the UI once (a fresh link: the printed one still works). */
async function openOnFirstServe(headless: Headless, options: ServeOptions): Promise<void> {
  const bridge = headless.bridge;
  if (!bridge) return;
  const opts = { ...firstServeDefaults(options.config), noOpen: options.noOpen };
  if (await openUiOnFirstServe({ ...opts, loginUrl: () => bridge.loginUrl() }))
    process.stdout.write('Opened the UI in your browser (first start of this config; --no-open skips it)\n');
}

/** What `serve` says of where its client token key lives, and of its config. */
function printKeyAndConfig(headless: Headless, options: ServeOptions): void {
  const { core } = headless;
  if (headless.tokenKey?.where === 'file') {
    process.stdout.write(
      `Client token key: in ${headless.tokenKey.file ?? 'a file'} (mode 0600), no OS keychain: ${headless.tokenKey.reason}\n`,
    );
  }
  const backendCount = core.backendConfigs().length;
  const notes = [
    ...(backendCount === 0 ? ['no servers configured yet'] : []),
    ...(headless.configReadOnly
      ? [`read-only: ${headless.configReadOnly}; changes through the UI or CLI are refused`]
      : []),
  ];
  process.stdout.write(`Config: ${options.config}${notes.length > 0 ? ` (${notes.join('; ')})` : ''}\n`);
}

async function serve(options: ServeOptions): Promise<void> {
  // Validate first (a missing --config file is an error; a missing default file means no servers yet).
  const config = await loadOrExit(options.config, !options.explicitConfig);
  if (options.stdio) return serveStdio(options);
  const refusal = networkRefusal(options.host, config, options.insecureOnNetwork);
  if (refusal) fail(refusal);
  let headless: Headless;
  try {
    headless = await startHeadless({
      config: options.config,
      host: options.host,
      port: options.port,
      launcher: selfLauncher(),
      ...(options.logFormat ? { logFormat: options.logFormat } : {}),
      ...(options.tls ? { tls: options.tls } : {}),
    });
  } catch (error) {
    if (error instanceof ListenError) fail(error.message);
    throw error;
  }
  const { core, logger } = headless;
  let stopping = false;
  const shutdown = async (code: number, drain: boolean): Promise<void> => {
    if (stopping) return; // a second Ctrl-C while stopping: one line, one exit
    stopping = true;
    const servers = core.backendConfigs().filter((backend) => backend.enabled).length;
    // SIGTERM (an orchestrator, a rolling upgrade): the balancer routes away while the requests in flight end.
    if (drain) logger.info(drainedLine(await headless.drain()));
    await headless.stop();
    logger.info(stoppedLine(servers));
    process.exit(code);
  };
  // Ctrl-C is a person at a terminal: no drain. SIGTERM is how replicas are stopped.
  process.on('SIGINT', () => void shutdown(0, false));
  process.on('SIGTERM', () => void shutdown(0, true));
  printEndpoint(headless, options);
  await openOnFirstServe(headless, options);
  printKeyAndConfig(headless, options);
  await warnIfNoKeytar((message) => logger.warn(message));
  const progress = reportStartProgress(core, (line) => logger.info(line));
  await core.start();
  progress.done();
  if (stopping) return; // Ctrl-C during the start: the stop line says it all
  const readiness = core.readiness();
  logger.info(
    `backends: ${
      Object.entries(readiness.counts)
        .filter(([, n]) => n > 0)
        .map(([s, n]) => `${n} ${s}`)
        .join(', ') || 'none'
    }`,
  );
}

/** The `serve` command. */
export const serveCli: CliCommand = {
  section: 'usage',
  positionals: false,
  commands: serveSpecs,
  run: async ({ values, config, port }) => {
    const logFormat = values['log-format'];
    if (logFormat !== undefined && logFormat !== 'text' && logFormat !== 'json')
      fail(`--log-format must be text or json, not "${logFormat}"`);
    const cert = values['tls-cert'];
    const key = values['tls-key'];
    if ((cert === undefined) !== (key === undefined)) fail('--tls-cert and --tls-key go together');
    return serve({
      config,
      explicitConfig: values.config !== undefined,
      host: values.host ?? '127.0.0.1',
      port,
      stdio: values.stdio,
      quiet: values.quiet,
      noOpen: values['no-open'],
      logFormat,
      tls: cert !== undefined && key !== undefined ? { cert, key } : undefined,
      insecureOnNetwork: values['insecure-no-auth-on-network'],
    });
  },
};
