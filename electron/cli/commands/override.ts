/**
 * `mcp-switchboard override <server> <item> [changes]`: shows or changes one
 * item's override (a server's, or with --profile one client's laid over it)
 * in the config file, through the config owner; a running Switchboard applies
 * it as it would a hand edit, without restarting the server. Fixed values and
 * defaults are checked against the tool's input schema as the server last
 * listed it (the catalog cache) before anything is written.
 */
import { join } from 'node:path';
import type { ArgumentOverride, ToolOverride } from '../../../shared/model/overrides.js';
import { stderrLogger } from '../../core/api/index.js';
import {
  CatalogCache,
  overrideIn,
  overrideProblems,
  sourceIn,
  writeOverride,
  type AnyToolOverride,
  type OverrideTarget,
} from '../../core/catalog/index.js';
import { defaultStateDir, openConfigStore } from '../../core/platform/index.js';
import { RUNNING_INSTANCE } from '../optionHelp.js';
import type { CliCommand, CommandSpec, OptionValues } from '../command.js';
import { fail, stdio, type Write } from '../io.js';

/** The command, in help order. */
export const overrideSpecs: readonly CommandSpec[] = [
  {
    name: 'override',
    usage: [
      'override <server> <tool|prompt|uri> [--prompt|--resource] [--name N] [--title T] [--description D]',
      '  [--read-only|--no-read-only ...] [--fix ARG=JSON ...] [--default ARG=JSON ...] [--unset ARG ...]',
      '  [--clear] [--profile CLIENT] [--config FILE]',
    ],
    text: [
      'Show or change what the model sees of a server tool (its original name): its name, title,',
      'description, annotations and arguments, fixed (hidden, forced) or defaulted; or offer a prompt or',
      'resource as a tool. For one client profile with --profile. Without changes: shows the override.',
    ],
    options: {
      prompt: 'The item is a prompt, offered as a tool (promptsAsTools).',
      resource: 'The item is a resource URI, offered as a tool (resourcesAsTools).',
      name: 'The name the model sees (before the server prefix; sanitised like every name).',
      title: 'The title the model sees.',
      description: 'The description the model sees.',
      'read-only': 'Annotate it readOnlyHint: true.',
      'no-read-only': 'Annotate it readOnlyHint: false.',
      destructive: 'Annotate it destructiveHint: true.',
      'no-destructive': 'Annotate it destructiveHint: false.',
      idempotent: 'Annotate it idempotentHint: true.',
      'no-idempotent': 'Annotate it idempotentHint: false.',
      'open-world': 'Annotate it openWorldHint: true.',
      'no-open-world': 'Annotate it openWorldHint: false.',
      fix: 'Fix an argument to a JSON value, hidden from the model; a client setting it is refused.',
      default: 'Give an argument a JSON default, filled in when the client leaves it out.',
      unset: 'Drop what the override says of an argument.',
      clear: 'Remove the whole override of the item (at the --profile level when given).',
      profile: "The client profile whose override this is (laid over the server's).",
      ...RUNNING_INSTANCE,
    },
    examples: [
      'override fs read_file --name read_note --description "Reads today\'s note" --read-only',
      'override fs read_file --fix path=\'"/notes/today.md"\' --default encoding=\'"utf8"\'',
      'override fs read_file --description "Reads a note" --profile cursor',
      'override fs summarize --prompt --name summarize_notes',
      'override fs read_file --clear',
    ],
  },
];

const USAGE = 'usage: mcp-switchboard override <server> <tool|prompt|uri> [changes] (see --help)\n';

/** What the command needs from the CLI. */
export interface OverrideCommandContext {
  configPath: string;
  /** Where the servers' last listings are cached (their tools' input schemas). */
  catalogDir: string;
  out: Write;
  err: Write;
}

/** Annotation flags: `--read-only` / `--no-read-only` and their hint. */
const HINTS = [
  ['read-only', 'readOnlyHint'],
  ['destructive', 'destructiveHint'],
  ['idempotent', 'idempotentHint'],
  ['open-world', 'openWorldHint'],
] as const;

/** A usage problem in the flags (exit 2). */
class UsageError extends Error {}

/** Runs the command; resolves to the exit code (2 for a usage error, 1 for a refused override). */
export async function overrideCommand(
  context: OverrideCommandContext,
  positionals: string[],
  values: OptionValues,
): Promise<0 | 1 | 2> {
  const [backendId, original] = positionals;
  if (!backendId || !original || positionals.length > 2 || (values.prompt && values.resource)) {
    context.err(USAGE);
    return 2;
  }
  const section = values.prompt ? 'promptsAsTools' : values.resource ? 'resourcesAsTools' : 'tools';
  const target: OverrideTarget = { backendId, section, original, profile: values.profile };
  const store = openConfigStore(context.configPath);
  const { config } = await store.read();
  const backend = config.backends.find((item) => item.id === backendId);
  if (!backend) {
    context.err(`mcp-switchboard: no server "${backendId}" in ${context.configPath}\n`);
    return 1;
  }
  if (target.profile !== undefined && !config.policy.clients[target.profile]) {
    context.err(`mcp-switchboard: no client profile "${target.profile}"\n`);
    return 1;
  }
  const current = overrideIn(
    target.profile === undefined ? backend.overrides : config.policy.clients[target.profile]?.overrides?.[backendId],
    target,
  );
  let next: AnyToolOverride | undefined;
  try {
    next = changed(current, values, section === 'tools');
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    context.err(`mcp-switchboard: ${error.message}\n${USAGE}`);
    return 2;
  }
  if (next === current) {
    context.out(`${describe(target)}: ${current ? JSON.stringify(current, null, 2) : 'no override'}\n`);
    return 0;
  }
  const snapshot = await new CatalogCache(context.catalogDir, { logger: stderrLogger }).load(backend);
  const source = sourceIn(snapshot, target);
  const problems = next === undefined ? [] : overrideProblems(target, next, source);
  if (problems.length > 0) {
    for (const problem of problems) context.err(`mcp-switchboard: ${problem.path}: ${problem.message}\n`);
    return 1;
  }
  if (!source && next !== undefined) {
    context.err(
      `note: ${backendId} has not listed "${original}" yet; its values were not checked against its schema\n`,
    );
  }
  await store.change((document) => writeOverride(document, target, next));
  context.out(`${describe(target)}: ${next ? JSON.stringify(next, null, 2) : 'override removed'}\n`);
  return 0;
}

function describe(target: OverrideTarget): string {
  return `${target.backendId} ${target.original}${target.profile ? ` (profile ${target.profile})` : ''}`;
}

/** The override with the flags applied; `current` itself when no flag changes anything; undefined when cleared or left empty. */
function changed(
  current: AnyToolOverride | undefined,
  values: OptionValues,
  isTool: boolean,
): AnyToolOverride | undefined {
  const toolOnly = [
    ...HINTS.flatMap(([flag]) => [flag, `no-${flag}`] as const).filter((flag) => values[flag]),
    ...(values.fix?.length ? ['fix'] : []),
    ...(values.default?.length ? ['default'] : []),
    ...(values.unset?.length ? ['unset'] : []),
  ];
  if (!isTool && toolOnly.length > 0)
    throw new UsageError(`--${toolOnly[0]} applies to tools, not to a prompt or resource`);
  if (values.clear) return undefined;
  const next: ToolOverride = structuredClone((current ?? {}) as ToolOverride);
  let touched = false;
  for (const field of ['name', 'title', 'description'] as const) {
    const value = values[field];
    if (value === undefined) continue;
    if (value === '') delete next[field];
    else next[field] = value;
    touched = true;
  }
  for (const [flag, hint] of HINTS) {
    if (values[flag] && values[`no-${flag}`]) throw new UsageError(`--${flag} and --no-${flag} contradict each other`);
    if (!values[flag] && !values[`no-${flag}`]) continue;
    next.annotations = { ...next.annotations, [hint]: values[flag] };
    touched = true;
  }
  const args = { ...next.arguments };
  for (const [raw, kind] of [
    ...(values.fix ?? []).map((raw) => [raw, 'fixed'] as const),
    ...(values.default ?? []).map((raw) => [raw, 'default'] as const),
  ]) {
    const [name, value] = argumentValue(raw, kind === 'fixed' ? '--fix' : '--default');
    const { fixed: _fixed, default: _default, ...rest } = args[name] ?? {};
    args[name] = { ...rest, [kind]: value } as ArgumentOverride;
    touched = true;
  }
  for (const name of values.unset ?? []) {
    delete args[name];
    touched = true;
  }
  if (!touched) return current;
  if (Object.keys(args).length > 0) next.arguments = args;
  else delete next.arguments;
  return Object.keys(next).length > 0 ? next : undefined;
}

/** `ARG=JSON` as the argument's name and its value. */
function argumentValue(raw: string, flag: string): [string, unknown] {
  const at = raw.indexOf('=');
  if (at <= 0) throw new UsageError(`${flag} takes ARG=JSON, not "${raw}"`);
  const name = raw.slice(0, at);
  try {
    return [name, JSON.parse(raw.slice(at + 1)) as unknown];
  } catch {
    throw new UsageError(`${flag} ${name}=...: the value must be JSON (a string in quotes: ${flag} ${name}='"text"')`);
  }
}

/** The `override` command. */
export const overrideCli: CliCommand = {
  section: 'exposure',
  positionals: true,
  commands: overrideSpecs,
  run: async ({ positionals, values, runningTarget }) => {
    const configPath = (await runningTarget(true)).config;
    const context = { configPath, catalogDir: join(defaultStateDir(), 'catalogs'), ...stdio() };
    return overrideCommand(context, positionals, values).catch((e: Error) => fail(e.message));
  },
};
