/**
 * `mcp-switchboard sandbox <subcommand> <id>`: one server's sandbox on the
 * command line. `show` says what it runs under, what its sandbox refused it
 * ("blocked by the sandbox: read of ~/.aws/credentials", each with the
 * command that allows it), its grants and what its launch points at outside
 * it; `allow` and `revoke` add or take away exactly one grant (a read, a
 * write or a host); `on` and `off` turn the sandbox on (saying first what it
 * would hide) or off (issue #37). They ask the running Switchboard, which
 * saves the change on the server and restarts it, and say so when none runs.
 * `learn` runs the server once recorded (learn mode,
 * core/backends/process/sandbox/learnRun.ts), drives it through its lists,
 * the `--call`s given and a `--window`, and prints the smallest grant that
 * covers what it did as a diff against its current `sandbox`; `--accept`
 * writes it to the config (a running Switchboard restarts the server under
 * it, as for a hand edit). Learn mode is in {@link learnCommand}, apart.
 * A subcommand is one entry of SUBCOMMANDS.
 */
import { blockSentence } from '../../../shared/model/sandboxBlock.js';
import { grantFor, grantWords, type SandboxGrant } from '../../../shared/model/sandboxGrants.js';
import type { SandboxPathWarning, SandboxServerView } from '../../../shared/model/sandboxViews.js';
import { defaultStateDir, openConfigStore } from '../../core/platform/index.js';
import {
  acceptedSetting,
  learnBackend,
  renderDiff,
  writeSandboxSetting,
  type LearnCall,
} from '../../core/backends/index.js';
import { JSON_OUTPUT, RUNNING_INSTANCE } from '../optionHelp.js';
import { keychain } from '../cliConfig.js';
import type { CliCommand, CommandSpec, OptionName, OptionValues } from '../command.js';
import { askRunning, type RunningCommandContext } from '../askRunning.js';
import { stdio, type Write } from '../io.js';
import { callUsersRunning } from '../runningBridge.js';

const GRANT_OPTIONS = {
  read: 'allow: let it read this path (a file or a folder; absolute or ~/...).',
  write: 'allow: let it write this path (a file or a folder; absolute or ~/...).',
  host: 'allow: let it connect to this host (api.github.com, *.example.com, 127.0.0.1:5432).',
} as const;

const LEARN_OPTIONS = {
  window: 'learn: how long the server stays up, recorded, after the calls (30s, 2m, 500ms; default 2s, at most 10m).',
  call: 'learn: a tool call to make while learning: the tool, then its arguments as JSON (\'{"a":1}\', default {}).',
  accept: "learn: write the proposal to the server's sandbox setting (turning its sandbox on).",
  replace: 'learn, with --accept: also drop the grants this run did not use.',
  config: `learn: ${RUNNING_INSTANCE.config}`,
} as const;

/** The command, in help order. */
export const sandboxSpecs: readonly CommandSpec[] = [
  {
    name: 'sandbox',
    usage: [
      'sandbox show <id> [--json]',
      '  | allow <id> --read PATH|--write PATH|--host HOST',
      '  | revoke <id> --read PATH|--write PATH|--host HOST',
      '  | on <id> | off <id>',
      '  | learn <id> [--window DURATION] [--call TOOL ...] [--accept [--replace]] [--json] [--config FILE]',
    ],
    text: [
      "A server's sandbox in the running Switchboard: what it refused the server (with the command",
      'that allows each), its grants, and what its launch points at outside it; allow or revoke',
      'exactly one read, write or host, or turn the sandbox on or off (the server restarts).',
      'learn (Linux): run a stdio server once with your files visible and its network through a',
      'recording proxy, under strace; list its tools, resources and prompts, make the calls given,',
      'keep it up for the window; then show the smallest sandbox grant covering what it did, as a',
      'diff against its current `sandbox` (+ added, = granted and used, ? granted but unused). Learn',
      'only a server you would run with your rights: while learned, it has them.',
    ],
    options: { ...GRANT_OPTIONS, ...LEARN_OPTIONS, ...JSON_OUTPUT },
    values: { read: 'PATH', write: 'PATH', host: 'HOST', window: 'DURATION', call: 'TOOL ...' },
    examples: [
      'sandbox show memory',
      'sandbox allow memory --write ~/notes/memory.json',
      'sandbox allow github --host api.github.com',
      'sandbox revoke memory --read ~/.aws/credentials',
      'sandbox on memory',
      'sandbox learn memory --call create_entities \'{"entities":[]}\' --call read_graph',
      'sandbox learn fs --window 30s --accept',
    ],
  },
];

/** What the command needs from the CLI. */
export interface SandboxCommandContext extends RunningCommandContext {
  /** learn: the config file it reads and `--accept` writes (the running instance's unless `--config` says). */
  configPath: () => Promise<string>;
  /** learn: where its recordings are made. */
  stateDir: string;
  /** The command line as typed (learn's `--call TOOL JSON` pairs keep their order there only). */
  argv: readonly string[];
  /** learn: stops the run (Ctrl-C); made for learn alone when absent. */
  signal?: AbortSignal;
}

const USAGE = `usage: mcp-switchboard ${sandboxSpecs[0]?.usage.map((line) => line.trim()).join(' ')}\n`;

const LEARN_USAGE =
  'usage: mcp-switchboard sandbox learn <server> [--window 30s] [--call TOOL JSON ...] [--accept [--replace]]\n';

/** The command that grants `grant` to server `id`, for people to copy. */
export function allowCommand(id: string, grant: SandboxGrant): string {
  const target = /^[\w@%+=:,./~*-]+$/.test(grant.target) ? grant.target : JSON.stringify(grant.target);
  return `mcp-switchboard sandbox allow ${id} --${grant.kind} ${target}`;
}

function warningLine(id: string, warning: SandboxPathWarning): string {
  return `  ${warning.name} = ${warning.path} is outside its sandbox (allow with: ${allowCommand(id, warning.grant)})`;
}

/** A server's sandbox as text for people. */
export function sandboxText(view: SandboxServerView): string {
  const { id, sandbox, own } = view;
  const state =
    sandbox?.state === 'on'
      ? `sandboxed (${sandbox.engine ?? 'on'})`
      : sandbox?.state === 'unavailable'
        ? `sandbox unavailable: ${sandbox.reason ?? 'unknown'}; not started`
        : 'not sandboxed: runs with your rights';
  const lines = [`${id}: ${state}${own ? '' : ' (no setting of its own: proxy.defaultSandbox)'}`];
  const network = own?.network ?? sandbox?.network ?? 'none';
  lines.push(`  network: ${Array.isArray(network) ? network.join(', ') : network}`);
  if (view.grants.length === 0) lines.push('grants: none beyond the defaults');
  else {
    lines.push('grants:');
    for (const grant of view.grants) lines.push(`  ${grantWords(grant)}`);
  }
  const blocked = sandbox?.blocked ?? [];
  if (blocked.length > 0) {
    lines.push('refused:');
    for (const block of blocked)
      lines.push(`  ${blockSentence(block, sandbox?.home)} (allow with: ${allowCommand(id, grantFor(block))})`);
  }
  if (view.warnings.length > 0) {
    lines.push('outside its sandbox:');
    for (const warning of view.warnings) lines.push(warningLine(id, warning));
  }
  return `${lines.join('\n')}\n`;
}

/** The one grant `--read`, `--write` or `--host` names (undefined when not exactly one is given). */
function grantOf(values: OptionValues): SandboxGrant | undefined {
  const given: SandboxGrant[] = [];
  if (values.read !== undefined) given.push({ kind: 'read', target: values.read });
  if (values.write !== undefined) given.push({ kind: 'write', target: values.write });
  if (values.host !== undefined) given.push({ kind: 'host', target: values.host });
  return given.length === 1 ? given[0] : undefined;
}

/** A usage problem (exit 2). */
class UsageError extends Error {}

/** `30s`, `2m`, `500ms`, `1.5s`, or a plain number of seconds, in ms. */
export function windowMs(text: string | undefined): number {
  if (text === undefined) return 2000;
  const match = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(text.trim());
  if (!match) throw new UsageError(`--window takes a duration such as 30s, 2m or 500ms, not "${text}"`);
  const value = Number(match[1]) * ({ ms: 1, s: 1000, m: 60_000 }[match[2] ?? 's'] as number);
  if (value > 600_000) throw new UsageError('--window is at most 10m');
  return Math.round(value);
}

/**
 * The calls, from the command line as typed (parseArgs keeps no order between
 * options and positionals): each `--call TOOL` takes the word after it as its
 * JSON arguments when that word starts with `{`, else `{}`; `--call
 * 'TOOL {...}'` and `--call TOOL={...}` hold them in one word. Also says how
 * many positionals were such arguments.
 */
export function learnCalls(argv: readonly string[]): { calls: LearnCall[]; consumed: number } {
  const calls: LearnCall[] = [];
  let consumed = 0;
  for (let at = 0; at < argv.length; at++) {
    const token = argv[at] as string;
    if (token === '--') break;
    let raw: string | undefined;
    if (token === '--call') raw = argv[++at];
    else if (token.startsWith('--call=')) raw = token.slice('--call='.length);
    else continue;
    if (raw === undefined) throw new UsageError('--call needs a tool name');
    const inline = /^([^\s={]+)(?:=|\s+)(\{[\s\S]*\})$/.exec(raw.trim());
    const name = inline ? (inline[1] as string) : raw.trim();
    let json = inline?.[2];
    if (json === undefined && (argv[at + 1] ?? '').trim().startsWith('{')) {
      json = argv[++at];
      consumed++;
    }
    calls.push({ name, arguments: callArguments(name, json ?? '{}') });
  }
  return { calls, consumed };
}

function callArguments(name: string, text: string): Record<string, unknown> {
  let args: unknown;
  try {
    args = JSON.parse(text);
  } catch {
    throw new UsageError(`--call ${name}: its arguments must be a JSON object`);
  }
  if (!args || typeof args !== 'object' || Array.isArray(args))
    throw new UsageError(`--call ${name}: its arguments must be a JSON object`);
  return args as Record<string, unknown>;
}

/** What `sandbox learn` needs from the CLI. */
export interface LearnCommandContext {
  configPath: string;
  stateDir: string;
  out: Write;
  err: Write;
  signal?: AbortSignal;
}

/** `sandbox learn <id> ...`; resolves to the exit code (2 for a usage error). */
export async function learnCommand(
  context: LearnCommandContext,
  positionals: string[],
  values: OptionValues,
  argv: readonly string[],
): Promise<0 | 1 | 2> {
  const [id, ...extra] = positionals;
  let calls: LearnCall[];
  let window: number;
  try {
    if (!id) throw new UsageError('which server? (sandbox learn <server>)');
    if (values.replace && !values.accept) throw new UsageError('--replace goes with --accept');
    const parsed = learnCalls(argv);
    if (extra.length !== parsed.consumed) throw new UsageError(`unexpected argument "${extra[0] ?? ''}"`);
    calls = parsed.calls;
    window = windowMs(values.window);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    context.err(`mcp-switchboard: ${error.message}\n${LEARN_USAGE}`);
    return 2;
  }
  const store = openConfigStore(context.configPath);
  const { config } = await store.read();
  const view = await learnBackend({
    backends: config.backends,
    extraPath: config.proxy.extraPath,
    id,
    environment: process.env,
    secrets: keychain(),
    stateDir: context.stateDir,
    calls,
    windowMs: window,
    timeoutMs: window + 120_000,
    ...(context.signal ? { signal: context.signal } : {}),
  });
  const setting = acceptedSetting(view.diff, values.replace);
  if (values.accept && !view.diff.unchanged)
    await store.change((document) => writeSandboxSetting(document, id, setting));
  if (values.json) {
    context.out(`${JSON.stringify({ ...view, proposed: setting, accepted: values.accept }, null, 2)}\n`);
    return 0;
  }
  const listed = `${view.listed.tools} tools, ${view.listed.resources} resources, ${view.listed.prompts} prompts`;
  context.out(`Learned "${id}" in ${(view.durationMs / 1000).toFixed(1)} s (${listed}).\n`);
  for (const call of view.calls)
    context.out(`  call ${call.name}: ${call.ok ? 'ok' : `failed: ${call.error ?? ''}`}\n`);
  context.out(renderDiff(view.diff));
  if (view.grant.addresses.length > 0)
    context.out(
      `note: it connected to ${view.grant.addresses.join(', ')} by address, not by name: only "network": "all" allows that\n`,
    );
  if (view.diff.unchanged) context.out('Nothing to change: its sandbox already covers what it did.\n');
  else if (values.accept) context.out(`Accepted: "${id}" now runs sandboxed with this grant.\n`);
  else context.out(`Run again with --accept to save this (or edit sandbox.read, .write, .network in the config).\n`);
  return 0;
}

/** One subcommand: the options it takes of the command's, and what it does. */
interface Subcommand {
  options: readonly OptionName[];
  /** Whether it takes arguments after the id (learn: a `--call`'s JSON); handed to `run` unchecked. */
  more?: true;
  run: (context: SandboxCommandContext, id: string, values: OptionValues, more: string[]) => Promise<number>;
}

/** Prints a changed server's sandbox (or its JSON). */
function printed(context: SandboxCommandContext, view: SandboxServerView, json: boolean, said: string): number {
  context.out(json ? `${JSON.stringify(view, null, 2)}\n` : `${said}\n${sandboxText(view)}`);
  return 0;
}

/** The options of `allow` and `revoke`. */
const GRANT_SUBCOMMAND: readonly OptionName[] = ['read', 'write', 'host', 'json'];

/** One grant added or taken away. */
async function grantChange(
  method: 'sandbox.grant' | 'sandbox.revoke',
  context: SandboxCommandContext,
  id: string,
  values: OptionValues,
): Promise<number> {
  const grant = grantOf(values);
  if (!grant) {
    context.err(`mcp-switchboard: give exactly one of --read PATH, --write PATH, --host HOST\n${USAGE}`);
    return 2;
  }
  const view = await askRunning(context, method, { id, grant });
  if (!view) return 1;
  const did = method === 'sandbox.grant' ? 'allowed' : 'revoked';
  return printed(context, view, values.json, `${id}: ${did} ${grantWords(grant)}; the server restarts with it`);
}

/** `sandbox learn` from the table: a refusal (no such server, no sandbox, a failed start) is exit 1. */
async function learnSubcommand(
  context: SandboxCommandContext,
  id: string,
  values: OptionValues,
  more: string[],
): Promise<number> {
  const controller = context.signal ? undefined : new AbortController();
  const stop = () => controller?.abort();
  if (controller) process.once('SIGINT', stop);
  const signal = context.signal ?? controller?.signal;
  try {
    // Learning runs it with your files visible: a quarantined server is reviewed and approved first
    // (the running Switchboard knows its review state; with none running, nothing says it is held).
    const reviews = await context.call('reviews.list');
    if (reviews.reached && reviews.outcome.ok && reviews.outcome.result.find((r) => r.server === id)?.quarantined) {
      context.err(
        `mcp-switchboard: "${id}" is quarantined: learning runs it with your files visible, so review and approve ` +
          `it first (mcp-switchboard review ${id}, then approve ${id})\n`,
      );
      return 1;
    }
    const configPath = await context.configPath();
    const learning: LearnCommandContext = {
      configPath,
      stateDir: context.stateDir,
      out: context.out,
      err: context.err,
    };
    if (signal) learning.signal = signal;
    return await learnCommand(learning, [id, ...more], values, context.argv);
  } catch (error) {
    context.err(`mcp-switchboard: ${(error as Error).message}\n`);
    return 1;
  } finally {
    if (controller) process.off('SIGINT', stop);
  }
}

/**
 * The subcommands, by name. Only plain values here, no call: the help bundle
 * (build/vite.help.config.ts) keeps a module's calls, and a call in this
 * table would keep the table, and learn mode's core with it.
 */
export const SUBCOMMANDS: Readonly<Record<string, Subcommand>> = {
  show: {
    options: ['json'],
    run: async (context, id, values) => {
      const view = await askRunning(context, 'sandbox.server', { id });
      if (!view) return 1;
      context.out(values.json ? `${JSON.stringify(view, null, 2)}\n` : sandboxText(view));
      return 0;
    },
  },
  allow: {
    options: GRANT_SUBCOMMAND,
    run: (context, id, values) => grantChange('sandbox.grant', context, id, values),
  },
  revoke: {
    options: GRANT_SUBCOMMAND,
    run: (context, id, values) => grantChange('sandbox.revoke', context, id, values),
  },
  on: {
    options: ['json'],
    run: async (context, id, values) => {
      const before = await askRunning(context, 'sandbox.server', { id });
      if (!before) return 1;
      // Said before it is turned on: what the sandbox will hide, each with its grant.
      for (const warning of before.warnings) context.err(`warning: ${warningLine(id, warning).trim()}\n`);
      const view = await askRunning(context, 'sandbox.setEnabled', { id, enabled: true });
      if (!view) return 1;
      return printed(context, view, values.json, `${id}: sandbox on; the server restarts with it`);
    },
  },
  off: {
    options: ['json'],
    run: async (context, id, values) => {
      const view = await askRunning(context, 'sandbox.setEnabled', { id, enabled: false });
      if (!view) return 1;
      return printed(context, view, values.json, `${id}: sandbox off (runs with your rights); the server restarts`);
    },
  },
  learn: {
    options: ['window', 'call', 'accept', 'replace', 'json', 'config'],
    more: true,
    run: learnSubcommand,
  },
};

/** An option given on the line that `subcommand` does not take (the spec lists those of every subcommand). */
function foreignOption(values: OptionValues, subcommand: Subcommand): string | undefined {
  const given = (name: string) => {
    const value = (values as unknown as Record<string, unknown>)[name];
    return value !== undefined && value !== false;
  };
  return Object.keys(sandboxSpecs[0]?.options ?? {}).find(
    (name) => given(name) && !subcommand.options.includes(name as OptionName),
  );
}

/** Runs `sandbox <subcommand> <id>`; resolves to the exit code (2 for a usage error). */
export async function sandboxCommand(
  context: SandboxCommandContext,
  positionals: readonly string[],
  values: OptionValues,
): Promise<number> {
  const [name, id, ...more] = positionals;
  const subcommand = name === undefined ? undefined : SUBCOMMANDS[name];
  if (!subcommand || !id || (more.length > 0 && !subcommand.more)) {
    context.err(
      name !== undefined && !subcommand ? `mcp-switchboard: no sandbox subcommand "${name}"\n${USAGE}` : USAGE,
    );
    return 2;
  }
  const foreign = foreignOption(values, subcommand);
  if (foreign !== undefined) {
    context.err(`mcp-switchboard: sandbox ${name} does not take --${foreign}\n${USAGE}`);
    return 2;
  }
  return subcommand.run(context, id, values, more);
}

/** The `sandbox` command. */
export const sandboxCli: CliCommand = {
  section: 'review',
  positionals: true,
  commands: sandboxSpecs,
  run: async ({ positionals, values, runningTarget }) => {
    const context: SandboxCommandContext = {
      ...stdio(),
      call: callUsersRunning,
      configPath: async () => (await runningTarget(true)).config,
      stateDir: defaultStateDir(),
      argv: process.argv.slice(2),
    };
    return sandboxCommand(context, positionals, values);
  },
};
