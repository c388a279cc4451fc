/**
 * `mcp-switchboard sandbox ...`: a server's sandbox from the command line.
 * `sandbox learn <id>` runs the server once recorded (learn mode,
 * core/backends/process/sandbox/learnRun.ts), drives it through its lists,
 * the `--call`s given and a `--window`, and prints the smallest grant that
 * covers what it did as a diff against its current `sandbox`; `--accept`
 * writes it to the config (a running Switchboard restarts the server under
 * it, as for a hand edit). Learn mode is in {@link learnCommand}, apart, so
 * the other `sandbox` subcommands sit beside it.
 */
import { defaultStateDir, openConfigStore } from '../../core/platform/index.js';
import { learnBackend, writeSandboxSetting } from '../../core/backends/process/sandbox/learnBackend.js';
import type { LearnCall } from '../../core/backends/process/sandbox/learnRun.js';
import { acceptedSetting, renderDiff } from '../../core/backends/process/sandbox/learnDiff.js';
import { RUNNING_INSTANCE } from '../optionHelp.js';
import { keychain } from '../cliConfig.js';
import type { CliCommand, CommandSpec, OptionValues } from '../command.js';
import { fail, stdio, type Write } from '../io.js';

/** The command, in help order. */
export const sandboxSpecs: readonly CommandSpec[] = [
  {
    name: 'sandbox',
    usage: [
      'sandbox learn <server> [--window DURATION] [--call TOOL ...] [--accept [--replace]] [--json] [--config FILE]',
    ],
    values: { window: 'DURATION', call: 'TOOL ...' },
    text: [
      "Learn a stdio server's permissions (Linux): run it once with your files visible and its network",
      'through a recording proxy, under strace; list its tools, resources and prompts, make the calls',
      'given, keep it up for the window; then show the smallest sandbox grant covering what it did, as a',
      'diff against its current `sandbox` (+ added, = granted and used, ? granted but unused). Learn',
      'only a server you would run with your rights: while learned, it has them.',
    ],
    options: {
      window: 'How long the server stays up, recorded, after the calls (30s, 2m, 500ms; default 2s, at most 10m).',
      call: 'A tool call to make while learning: the tool, then its arguments as JSON (\'{"a":1}\', default {}).',
      accept: "Write the proposal to the server's sandbox setting (turning its sandbox on).",
      replace: 'With --accept: also drop the grants this run did not use.',
      json: 'Print the result as JSON.',
      config: RUNNING_INSTANCE.config,
    },
    examples: [
      'sandbox learn memory --call create_entities \'{"entities":[]}\' --call read_graph',
      'sandbox learn fs --window 30s --accept',
    ],
  },
];

const USAGE = 'usage: mcp-switchboard sandbox learn <server> [--window 30s] [--call TOOL JSON ...] [--accept]\n';

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
    context.err(`mcp-switchboard: ${error.message}\n${USAGE}`);
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

/** The `sandbox` command. */
export const sandboxCli: CliCommand = {
  section: 'exposure',
  positionals: true,
  commands: sandboxSpecs,
  run: async ({ positionals, values, runningTarget }) => {
    const [sub, ...rest] = positionals;
    if (sub !== 'learn') return fail(`unknown sandbox subcommand "${sub ?? ''}"\n${USAGE}`);
    const configPath = (await runningTarget(true)).config;
    const controller = new AbortController();
    process.once('SIGINT', () => controller.abort());
    const context = { configPath, stateDir: defaultStateDir(), signal: controller.signal, ...stdio() };
    // A refusal (no such server, no sandbox here, a server that did not start) is exit 1, said plainly.
    return learnCommand(context, rest, values, process.argv.slice(2)).catch((error: Error) => {
      context.err(`mcp-switchboard: ${error.message}\n`);
      return 1;
    });
  },
};
