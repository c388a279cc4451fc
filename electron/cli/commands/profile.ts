/**
 * The CLI's `profile` commands: list the client profiles, `export` one as a
 * profile file, `import` one (install/profileFiles/). Secrets never come from
 * the command line, where other users could read them from the process list:
 * each input is read from `SWITCHBOARD_INPUT_<NAME>`, else asked at the
 * terminal without echo, else read from stdin as `NAME=value` lines.
 */
import { readFile, writeFile } from 'node:fs/promises';
import {
  cliProfileOwner,
  exportProfileText,
  importProfileText,
  inputVariable,
  listProfiles,
  previewProfileImport,
  type ImportPlan,
} from '../../core/install/index.js';
import { defaultConfigDir, defaultStateDir, toErrorData, type SecretStore } from '../../core/platform/index.js';
import { keychain } from '../cliConfig.js';
import { RUNNING_INSTANCE } from '../optionHelp.js';
import type { CliCommand, CommandSpec } from '../command.js';
import { askHidden, confirm, errorLine, readStdin, stdio, type Write } from '../io.js';

/** The command, in help order. */
export const profileSpecs: readonly CommandSpec[] = [
  {
    name: 'profile',
    usage: [
      'profile [list]',
      'profile export <profile> [--servers] [--out FILE] [--config FILE]',
      'profile import FILE [--as NEWID] [--replace] [--yes] [--config FILE]',
    ],
    text: [
      'Client profiles as files (docs/profiles.md): export writes one with the policies of its servers',
      '(and the servers, with --servers), every secret a named input; import shows what would change,',
      'asks for each secret (or reads SWITCHBOARD_INPUT_<NAME>, or NAME=value lines on stdin) and',
      'saves the secrets to the OS keychain and the rest in one write of the config.',
    ],
    options: {
      servers: 'Export: also write the servers the profile uses (secrets as inputs).',
      out: 'Export: write the file here instead of printing it.',
      as: 'Import: under this profile ID instead of the one in the file.',
      replace: 'Import: replace a profile of the same ID.',
      yes: 'Import: do not ask before writing (needed without a terminal, else nothing is imported).',
      ...RUNNING_INSTANCE,
    },
    examples: [
      'profile',
      'profile export cursor --servers --out cursor.profile.json',
      'profile import cursor.profile.json --as cursor-work',
      'profile import team.profile.json --yes < secrets.txt',
    ],
  },
];

/** How the command talks to the person or program running it. */
export interface ProfileCommandIo {
  configPath: string;
  keychain: SecretStore;
  environment: NodeJS.ProcessEnv;
  /** Whether stdin is a terminal (then secrets are asked, and the import confirmed). */
  interactive: boolean;
  readStdin: () => Promise<string>;
  askHidden: (question: string) => Promise<string>;
  confirm: (question: string) => Promise<boolean>;
  out: Write;
  err: Write;
}

/** Flags of the `profile` commands. */
export interface ProfileFlags {
  servers: boolean;
  out?: string | undefined;
  as?: string | undefined;
  replace: boolean;
  yes: boolean;
}

const USAGE =
  'usage: mcp-switchboard profile [list] | profile export <profile> [--servers] [--out FILE] | profile import FILE [--as NEWID] [--replace] [--yes]\n';

function owner(io: ProfileCommandIo) {
  const { store, tokens } = cliProfileOwner(io.configPath, defaultConfigDir(), defaultStateDir());
  return { store, tokens, keychain: io.keychain };
}

const SERVER_STATES = {
  added: 'added',
  same: 'already here, the same: left as it is',
  differs: 'already here, differs: left as it is',
  missing: 'used by the profile, but neither in the file nor here',
} as const;

const POLICY_STATES = {
  added: 'added',
  same: 'already here, the same',
  differs: 'already here, differs: left as it is',
} as const;

/** The preview, one line per change. */
export function describePlan(plan: ImportPlan, out: Write): void {
  const fields = plan.profile.changedFields;
  out(
    plan.profile.state === 'new'
      ? `profile ${plan.id}: new\n`
      : `profile ${plan.id}: replaced (${fields.length > 0 ? `changes ${fields.join(', ')}` : 'no rule changes'})\n`,
  );
  for (const server of plan.servers) out(`  server ${server.id}: ${SERVER_STATES[server.state]}\n`);
  for (const policy of plan.policies) out(`  policy of ${policy.id}: ${POLICY_STATES[policy.state]}\n`);
  for (const input of plan.inputs) {
    const where = input.inline ? 'written into its launch line' : 'kept in the OS keychain';
    out(`  secret ${input.name} (${input.description}): ${input.stored ? 'in the keychain already' : where}\n`);
  }
}

/** `NAME=value` lines (stdin when it is not a terminal). */
function stdinValues(text: string): Record<string, string> {
  const values: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    const eq = line.indexOf('=');
    if (eq > 0) values[line.slice(0, eq)] = line.slice(eq + 1);
  }
  return values;
}

/** The value of each input: from its variable, else asked (terminal) or read (stdin). */
async function secretValues(io: ProfileCommandIo, plan: ImportPlan): Promise<Record<string, string>> {
  const values: Record<string, string> = {};
  for (const input of plan.inputs) {
    const given = io.environment[inputVariable(input.name)];
    if (given) values[input.name] = given;
  }
  const wanted = plan.inputs.filter((input) => !input.stored && values[input.name] === undefined);
  if (wanted.length === 0) return values;
  if (!io.interactive) {
    const piped = stdinValues(await io.readStdin());
    for (const input of wanted) if (piped[input.name]) values[input.name] = piped[input.name] as string;
    return values;
  }
  for (const input of wanted) {
    const value = await io.askHidden(`${input.name} (${input.description}): `);
    if (value) values[input.name] = value;
  }
  return values;
}

async function runExport(io: ProfileCommandIo, id: string | undefined, flags: ProfileFlags): Promise<number> {
  const { store } = owner(io);
  if (!id) {
    const ids = (await listProfiles(store)).map((profile) => profile.id);
    io.err(
      `mcp-switchboard: profile export needs the ID of a profile: ${ids.length > 0 ? ids.join(', ') : 'there are none yet (the UI: Clients, Client profiles and tokens)'}\n${USAGE}`,
    );
    return 2;
  }
  const text = await exportProfileText(store, id, { servers: flags.servers });
  if (flags.out === undefined) {
    io.out(text);
    return 0;
  }
  await writeFile(flags.out, text, { mode: 0o600 });
  io.out(`wrote profile ${id} to ${flags.out}\n`);
  return 0;
}

async function runImport(io: ProfileCommandIo, path: string | undefined, flags: ProfileFlags): Promise<number> {
  if (!path) {
    io.err(USAGE);
    return 2;
  }
  const text = await readFile(path, 'utf8');
  const target = owner(io);
  const options = { as: flags.as, replace: flags.replace };
  const plan = await previewProfileImport(target, text, options);
  if (!flags.yes && !io.interactive) {
    // A script reads stdout: the plan goes to stderr, after the words that say nothing changed.
    io.err(
      'mcp-switchboard: not applied: stdin is not a terminal, so run again with --yes to import; it would change:\n',
    );
    describePlan(plan, io.err);
    return 1;
  }
  describePlan(plan, io.out);
  if (!flags.yes && !(await io.confirm('Import? [y/N] '))) {
    io.out('nothing imported\n');
    return 1;
  }
  const outcome = await importProfileText(target, text, options, await secretValues(io, plan));
  const added = outcome.plan.servers.filter((server) => server.state === 'added').map((server) => server.id);
  io.out(`imported profile ${outcome.plan.id}${added.length > 0 ? ` with servers ${added.join(', ')}` : ''}\n`);
  for (const name of outcome.storedSecrets) io.out(`  secret ${name} stored in the OS keychain\n`);
  io.out(
    `Its client token exists (never printed here): \`mcp-switchboard install <client>\` writes it into a client app whose ID is ${outcome.plan.id};\n` +
      'otherwise rotate it in the UI (Clients, Client profiles and tokens) to see it once.\n',
  );
  return 0;
}

/** Runs `profile [list|export|import]`; resolves to the exit code. */
export async function profileCommand(
  io: ProfileCommandIo,
  positionals: string[],
  flags: ProfileFlags,
): Promise<number> {
  const [action, argument] = positionals;
  try {
    if (action === undefined || action === 'list') {
      const profiles = await listProfiles(owner(io).store);
      if (profiles.length === 0) io.out('no client profiles\n');
      for (const profile of profiles) io.out(`${profile.id.padEnd(20)} ${profile.name}\n`);
      return 0;
    }
    if (action === 'export') return await runExport(io, argument, flags);
    if (action === 'import') return await runImport(io, argument, flags);
    io.err(USAGE);
    return 2;
  } catch (error) {
    io.err(`mcp-switchboard: ${errorLine(toErrorData(error))}\n`);
    return 1;
  }
}

/** The `profile` command. */
export const profileCli: CliCommand = {
  section: 'clients',
  positionals: true,
  commands: profileSpecs,
  run: async ({ positionals, values, runningTarget }) => {
    const io: ProfileCommandIo = {
      configPath: (await runningTarget(true)).config,
      keychain: keychain(),
      environment: process.env,
      interactive: process.stdin.isTTY === true,
      readStdin,
      askHidden,
      confirm,
      ...stdio(),
    };
    const flags = { servers: values.servers, out: values.out, as: values.as, replace: values.replace, yes: values.yes };
    return profileCommand(io, positionals, flags);
  },
};
