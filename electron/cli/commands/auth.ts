/**
 * The CLI's OAuth commands: `authorize <id>` (prints the URL, opens the
 * browser when it can, waits, reports), `auth-status` (offline, from the
 * keychain), `doctor` (connects every backend once, never opens a browser)
 * and `sign-out <id>`. Each runs its own core on the config file; a running
 * `serve` picks new tokens up from the keychain by itself.
 */
import type { BackendHealth, SandboxBlock } from '../../../shared/model/health.js';
import { blockSentence } from '../../../shared/model/sandboxBlock.js';
import { grantFor } from '../../../shared/model/sandboxGrants.js';
import { VERSION } from '../../../shared/version.js';
import { allowCommand } from './sandbox.js';
import {
  readAuthStatus,
  usesOAuth,
  BackendAuth,
  defaultConfigDir,
  defaultStateDir,
  type SwitchboardConfig,
  type SecretStore,
} from '../../core/platform/index.js';
import { runningBackends, type RunningBackend } from '../runningStatus.js';
import { stderrLogger, type CoreDeps } from '../../core/api/index.js';
import { SwitchboardCore } from '../../core/switchboard/index.js';
import { machineMissingSandboxPackages } from '../../core/backends/index.js';
import { browserDisabled, openInBrowser } from '../../host/startHeadless.js';
import { cliRedaction, keychain, loadOrExit } from '../cliConfig.js';
import { JSON_OUTPUT, RUNNING_INSTANCE } from '../optionHelp.js';
import type { CliCommand, CommandSpec, Invocation } from '../command.js';
import { fail as usageError } from '../io.js';

/** The commands, in help order. */
export const authSpecs: readonly CommandSpec[] = [
  {
    name: 'authorize',
    usage: ['authorize <id> [--no-browser] [--config FILE]'],
    text: [
      'Sign in to a remote server: prints the URL, opens the browser (unless',
      '--no-browser), waits for the redirect, stores the tokens in the keychain.',
    ],
    options: { 'no-browser': 'Only print the URL; do not open a browser.', ...RUNNING_INSTANCE },
    examples: ['authorize linear', 'authorize linear --no-browser'],
  },
  {
    name: 'auth-status',
    usage: ['auth-status [--json] [--config FILE]'],
    text: ["Each remote server's authorization state and token expiry (offline)."],
    options: { ...JSON_OUTPUT, ...RUNNING_INSTANCE },
    examples: ['auth-status', 'auth-status --json'],
  },
  {
    name: 'doctor',
    usage: ['doctor [--json] [--config FILE]'],
    text: ['Connect every server once and report what fails (never opens a browser).'],
    options: { ...JSON_OUTPUT, ...RUNNING_INSTANCE },
    examples: ['doctor', 'doctor --json --config ./switchboard.json'],
  },
  {
    name: 'sign-out',
    usage: ['sign-out <id> [--config FILE]'],
    text: ["Revoke (where the server supports it) and delete a server's tokens."],
    options: { ...RUNNING_INSTANCE },
    examples: ['sign-out linear'],
  },
];

/** What the commands need from the CLI. */
export interface AuthCommandContext {
  config: SwitchboardConfig;
  keychain: SecretStore;
  deps: CoreDeps;
  out: (text: string) => void;
  err: (text: string) => void;
  /** What a running Switchboard last saw of each backend (auth-status adds it; undefined when none runs). */
  running?: () => Promise<Map<string, RunningBackend> | undefined>;
}

/** Exit code of a command. */
type Exit = 0 | 1 | 2;

function describeAuth(health: Pick<BackendHealth, 'auth'>): string {
  const auth = health.auth;
  if (!auth) return '';
  const parts: string[] = [auth.state];
  if (auth.expiresAt) parts.push(`expires ${auth.expiresAt}`);
  if (auth.scope) parts.push(`scope "${auth.scope}"`);
  if (auth.reason) parts.push(`(${auth.reason})`);
  return parts.join(', ');
}

function coreFor(context: AuthCommandContext, ids?: string[]): SwitchboardCore {
  const backends = ids
    ? context.config.backends.filter((backend) => ids.includes(backend.id))
    : context.config.backends;
  return new SwitchboardCore({ ...context.config, backends }, context.deps, { secrets: context.keychain });
}

/** `authorize <id>`: runs the authorization flow for one remote backend. */
export async function authorizeCommand(
  context: AuthCommandContext,
  id: string,
  options: { openBrowser: boolean; signal?: AbortSignal },
): Promise<Exit> {
  const backend = context.config.backends.find((candidate) => candidate.id === id);
  if (!backend) return fail(context, `no backend with ID "${id}" in the config`);
  if (!usesOAuth(backend)) {
    return fail(
      context,
      `backend "${id}" does not use OAuth (a stdio server, or its config sets an Authorization header)`,
    );
  }
  const core = coreFor(context, [id]);
  try {
    await core.start();
    const flow = await core.auth.startAuthorization(id, {
      openBrowser: options.openBrowser,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    context.out(`Open this URL in a browser to authorize "${id}":\n\n  ${flow.authorizationUrl}\n\n`);
    context.out(`Waiting for the browser to come back...\n`);
    const health = await flow.done;
    context.out(`"${id}" is authorized: ${describeAuth(health)}; status ${health.status}\n`);
    if (health.status !== 'up') {
      context.err(`"${id}" did not come up: ${health.lastError?.message ?? health.status}\n`);
      return 1;
    }
    return 0;
  } catch (error) {
    return fail(context, error instanceof Error ? error.message : String(error), 1);
  } finally {
    await core.dispose();
  }
}

/** One line of `auth-status`: the keychain's state said for a person, what to run, and what a running instance saw. */
function describeStatus(entry: { id: string } & Pick<BackendHealth, 'auth'>, running?: RunningBackend): string {
  const signIn = `run \`mcp-switchboard authorize ${entry.id}\``;
  const state = entry.auth?.state;
  let text =
    state === 'none'
      ? `not signed in (${signIn})`
      : state === 'authorized'
        ? describeAuth(entry)
        : `${describeAuth(entry)}; ${signIn}`;
  if (running)
    text += `; the running Switchboard sees it ${running.status}${running.error ? `: ${running.error}` : ''}`;
  return text;
}

/** `auth-status`: each remote backend's state and token expiry from the keychain, and what a running instance saw. */
export async function authStatusCommand(context: AuthCommandContext, json: boolean): Promise<Exit> {
  const entries = await readAuthStatus(context.config.backends, context.keychain);
  const running = entries.length > 0 ? await context.running?.().catch(() => undefined) : undefined;
  if (json) {
    const withRunning = entries.map((entry) => {
      const seen = running?.get(entry.id);
      return seen ? { ...entry, running: seen } : entry;
    });
    context.out(`${JSON.stringify(withRunning, null, 2)}\n`);
    return 0;
  }
  if (entries.length === 0) context.out('No remote backends.\n');
  for (const entry of entries) context.out(`${entry.id}: ${describeStatus(entry, running?.get(entry.id))}\n`);
  return 0;
}

/** A stdio server's sandbox in one bracket: on and how, off, or why none can run here. */
function describeSandbox(backend: BackendHealth): string {
  const sandbox = backend.sandbox;
  if (!sandbox) return '';
  const quarantine = sandbox.quarantine;
  if (sandbox.state === 'off')
    return quarantine?.mode === 'unsandboxed' ? ' [quarantined, not sandboxed by your choice]' : ' [not sandboxed]';
  if (sandbox.state === 'unavailable')
    return quarantine?.command
      ? ` [quarantined, not started: ${sandbox.reason ?? 'no sandbox runs here'}; to start it unsandboxed: ${quarantine.command}]`
      : ` [sandbox unavailable: ${sandbox.reason ?? 'unknown'}]`;
  const network = Array.isArray(sandbox.network) ? sandbox.network.join(', ') : sandbox.network;
  // Refusals follow on lines of their own (refusalLines), each with the command that grants it.
  const strict = quarantine?.mode === 'strict' ? 'quarantined: strict ' : '';
  return ` [${strict}sandboxed (${sandbox.engine ?? 'on'}), network ${network}]`;
}

/**
 * What a server's sandbox refused it, here and in the running Switchboard
 * (where its calls were made), one indented line each, with the command
 * that grants it.
 */
function refusalLines(backend: BackendHealth, running: RunningBackend | undefined): string[] {
  const line = (block: SandboxBlock, home: string | undefined, where: string): string =>
    `  ${blockSentence(block, home)}${where} (allow with: ${allowCommand(backend.id, grantFor(block))})\n`;
  const here = backend.sandbox?.blocked ?? [];
  const seen = (block: SandboxBlock) => here.some((own) => own.kind === block.kind && own.target === block.target);
  const there = (running?.sandbox?.blocked ?? []).filter((block) => !seen(block));
  return [
    ...here.map((block) => line(block, backend.sandbox?.home, '')),
    ...there.map((block) => line(block, running?.sandbox?.home, ' (in the running Switchboard)')),
  ];
}

/** `doctor`: connects every enabled backend once and reports what fails; never opens a browser. */
export async function doctorCommand(context: AuthCommandContext, json: boolean): Promise<Exit> {
  const { openUrl: _never, ...deps } = context.deps;
  const core = new SwitchboardCore(context.config, deps, { secrets: context.keychain });
  try {
    await core.start();
    const health = core.health();
    if (json) context.out(`${JSON.stringify(health, null, 2)}\n`);
    else {
      // Linux's sandbox packages, both named once with one command, whichever is missing.
      const packages = machineMissingSandboxPackages(deps.environment);
      if (packages) context.out(`Sandbox: ${packages.message}\n`);
      const sandboxed = health.some((backend) => backend.sandbox?.state === 'on');
      const running = sandboxed ? await context.running?.().catch(() => undefined) : undefined;
      for (const backend of health) {
        const detail = backend.lastError ? `: ${backend.lastError.message}` : '';
        const auth = backend.auth ? ` [auth: ${describeAuth(backend)}]` : '';
        const counts = backend.status === 'up' ? ` (${backend.counts.tools} tools)` : '';
        context.out(`${backend.id}: ${backend.status}${counts}${detail}${auth}${describeSandbox(backend)}\n`);
        for (const warning of backend.warnings) context.out(`  warning: ${warning}\n`);
        for (const line of refusalLines(backend, running?.get(backend.id))) context.out(line);
      }
      if (health.length === 0) context.out('No backends configured.\n');
    }
    return health.every((backend) => backend.status === 'up' || backend.status === 'disabled') ? 0 : 1;
  } finally {
    await core.dispose();
  }
}

/** `sign-out <id>`: revokes where supported and deletes the backend's tokens and client registration. */
export async function signOutCommand(context: AuthCommandContext, id: string): Promise<Exit> {
  const backend = context.config.backends.find((candidate) => candidate.id === id);
  if (!backend) return fail(context, `no backend with ID "${id}" in the config`);
  if (!usesOAuth(backend)) return fail(context, `backend "${id}" does not use OAuth`);
  // No connection needed: revoke (RFC 7009) and delete straight from the keychain's state.
  const auth = new BackendAuth({ config: backend, secrets: context.keychain, logger: context.deps.logger });
  try {
    const { revoked } = await auth.signOut();
    const what = revoked
      ? 'tokens revoked and deleted'
      : 'tokens deleted (not revoked: the server does not support it or was not reachable)';
    context.out(`Signed out of "${id}": ${what}\n`);
    return 0;
  } catch (error) {
    return fail(context, error instanceof Error ? error.message : String(error), 1);
  } finally {
    auth.dispose();
  }
}

function fail(context: AuthCommandContext, message: string, code: Exit = 2): Exit {
  context.err(`mcp-switchboard: ${message}\n`);
  return code;
}

/** `authorize`, `auth-status`, `doctor`, `sign-out` on the config at `path`: resolves with the command's code. */
async function runAuthCommand(invocation: Invocation, path: string): Promise<number> {
  const { command, values, usage } = invocation;
  const id = invocation.positionals[0];
  if ((command === 'authorize' || command === 'sign-out') && !id)
    usageError(`${command} needs a backend ID\n\n${usage}`);
  const config = await loadOrExit(path, true);
  // --no-browser, or SWITCHBOARD_NO_BROWSER=1 / BROWSER=none (as for serve): only print the URL.
  const noBrowser = values['no-browser'] || browserDisabled(process.env);
  const store = keychain();
  // doctor --json prints health (stderr tails, errors): every output line passes the redaction.
  const redaction = cliRedaction(config, store);
  const deps: CoreDeps = {
    environment: process.env,
    logger: redaction.logger(stderrLogger),
    clientInfo: { name: 'mcp-switchboard', version: VERSION },
    ...(noBrowser ? {} : { openUrl: openInBrowser }),
  };
  const context: AuthCommandContext = {
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
  return command === 'authorize'
    ? authorizeCommand(context, id ?? '', { openBrowser: !noBrowser, signal: abort.signal })
    : command === 'sign-out'
      ? signOutCommand(context, id ?? '')
      : command === 'doctor'
        ? doctorCommand(context, values.json)
        : authStatusCommand(context, values.json);
}

/** The OAuth commands. */
export const authCli: CliCommand = {
  section: 'auth',
  positionals: true,
  commands: authSpecs,
  run: async (invocation) => {
    const { positionals, values, usage } = invocation;
    if (positionals.length > 1) usageError(`unexpected argument "${positionals[1]}"\n\n${usage}`);
    // The running instance's config (whose servers get signed in or out), unless --config says otherwise.
    const { config: target } = await invocation.runningTarget(!values.json);
    return runAuthCommand(invocation, target);
  },
};
