/**
 * `mcp-switchboard sandbox <subcommand> <id>`: one server's sandbox on the
 * command line (issue #37). `show` says what it runs under, what its sandbox
 * refused it ("blocked by the sandbox: read of ~/.aws/credentials", each with
 * the command that allows it), its grants and what its launch points at
 * outside it; `allow` and `revoke` add or take away exactly one grant (a
 * read, a write or a host); `on` and `off` turn the sandbox on (saying first
 * what it would hide) or off. They ask the running Switchboard, which saves
 * the change on the server and restarts it, and say so when none runs.
 * A subcommand is one entry of SUBCOMMANDS.
 */
import { blockSentence } from '../../../shared/model/sandboxBlock.js';
import { grantFor, grantWords, type SandboxGrant } from '../../../shared/model/sandboxGrants.js';
import type { SandboxPathWarning, SandboxServerView } from '../../../shared/model/sandboxViews.js';
import { defaultConfigDir, defaultStateDir } from '../../core/platform/index.js';
import { JSON_OUTPUT } from '../optionHelp.js';
import type { CliCommand, CommandSpec, OptionValues } from '../command.js';
import { askRunning, type RunningCommandContext } from '../askRunning.js';
import { stdio } from '../io.js';
import { callRunning } from '../runningBridge.js';

const GRANT_OPTIONS = {
  read: 'allow: let it read this path (a file or a folder; absolute or ~/...).',
  write: 'allow: let it write this path (a file or a folder; absolute or ~/...).',
  host: 'allow: let it connect to this host (api.github.com, *.example.com, 127.0.0.1:5432).',
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
    ],
    text: [
      "A server's sandbox in the running Switchboard: what it refused the server (with the command",
      'that allows each), its grants, and what its launch points at outside it; allow or revoke',
      'exactly one read, write or host, or turn the sandbox on or off (the server restarts).',
    ],
    options: { ...GRANT_OPTIONS, ...JSON_OUTPUT },
    values: { read: 'PATH', write: 'PATH', host: 'HOST' },
    examples: [
      'sandbox show memory',
      'sandbox allow memory --write ~/notes/memory.json',
      'sandbox allow github --host api.github.com',
      'sandbox revoke memory --read ~/.aws/credentials',
      'sandbox on memory',
    ],
  },
];

/** What the command needs from the CLI. */
export type SandboxCommandContext = RunningCommandContext;

const USAGE = `usage: mcp-switchboard ${sandboxSpecs[0]?.usage.map((line) => line.trim()).join(' ')}\n`;

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

type Subcommand = (context: SandboxCommandContext, id: string, values: OptionValues) => Promise<number>;

/** Prints a changed server's sandbox (or its JSON). */
function printed(context: SandboxCommandContext, view: SandboxServerView, json: boolean, said: string): number {
  context.out(json ? `${JSON.stringify(view, null, 2)}\n` : `${said}\n${sandboxText(view)}`);
  return 0;
}

/** One grant added or taken away. */
function grantChange(method: 'sandbox.grant' | 'sandbox.revoke'): Subcommand {
  return async (context, id, values) => {
    const grant = grantOf(values);
    if (!grant) {
      context.err(`mcp-switchboard: give exactly one of --read PATH, --write PATH, --host HOST\n${USAGE}`);
      return 2;
    }
    const view = await askRunning(context, method, { id, grant });
    if (!view) return 1;
    const did = method === 'sandbox.grant' ? 'allowed' : 'revoked';
    return printed(context, view, values.json, `${id}: ${did} ${grantWords(grant)}; the server restarts with it`);
  };
}

/** The subcommands, by name (`learn` and others are one entry more). */
export const SUBCOMMANDS: Readonly<Record<string, Subcommand>> = {
  show: async (context, id, values) => {
    const view = await askRunning(context, 'sandbox.server', { id });
    if (!view) return 1;
    context.out(values.json ? `${JSON.stringify(view, null, 2)}\n` : sandboxText(view));
    return 0;
  },
  allow: grantChange('sandbox.grant'),
  revoke: grantChange('sandbox.revoke'),
  on: async (context, id, values) => {
    const before = await askRunning(context, 'sandbox.server', { id });
    if (!before) return 1;
    // Said before it is turned on: what the sandbox will hide, each with its grant.
    for (const warning of before.warnings) context.err(`warning: ${warningLine(id, warning).trim()}\n`);
    const view = await askRunning(context, 'sandbox.setEnabled', { id, enabled: true });
    if (!view) return 1;
    return printed(context, view, values.json, `${id}: sandbox on; the server restarts with it`);
  },
  off: async (context, id, values) => {
    const view = await askRunning(context, 'sandbox.setEnabled', { id, enabled: false });
    if (!view) return 1;
    return printed(context, view, values.json, `${id}: sandbox off (runs with your rights); the server restarts`);
  },
};

/** Runs `sandbox <subcommand> <id>`; resolves to the exit code (2 for a usage error). */
export async function sandboxCommand(
  context: SandboxCommandContext,
  positionals: readonly string[],
  values: OptionValues,
): Promise<number> {
  const [name, id, extra] = positionals;
  const run = name === undefined ? undefined : SUBCOMMANDS[name];
  if (!run || !id || extra !== undefined) {
    context.err(name !== undefined && !run ? `mcp-switchboard: no sandbox subcommand "${name}"\n${USAGE}` : USAGE);
    return 2;
  }
  return run(context, id, values);
}

/** The `sandbox` command. */
export const sandboxCli: CliCommand = {
  section: 'review',
  positionals: true,
  commands: sandboxSpecs,
  run: async ({ positionals, values }) => {
    const context: SandboxCommandContext = {
      ...stdio(),
      call: (method, params) =>
        callRunning(
          { stateDir: defaultStateDir(), configDir: defaultConfigDir(), environment: process.env },
          method,
          params,
        ),
    };
    return sandboxCommand(context, positionals, values);
  },
};
