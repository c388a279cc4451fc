/**
 * The registry commands of the CLI: `search <text>`, `add <name>[@version]`
 * (or `add ./file.mcpb`), `outdated` and `update <id>`. Each returns its exit
 * code; output goes through `out`/`err`, never a secret value.
 */
import { toErrorData, defaultStateDir, resolveLoginEnvironment, type SecretStore } from '../../core/platform/index.js';
import { VERSION } from '../../../shared/version.js';
import {
  installBundle,
  secretSinkFor,
  addFromRegistry,
  type RegistryAddContext,
  ageOf,
  type InputValues,
  registryClientFor,
  listOutdated,
  updateFromRegistry,
  sinkWithoutKeychain,
  type SecretStorage,
  type Freshness,
  type RegistryEntry,
} from '../../core/install/index.js';
import { keychain } from '../cliConfig.js';
import { CONFIG_FILE, JSON_OUTPUT } from '../optionHelp.js';
import type { CliCommand, CommandSpec } from '../command.js';
import { errorLine, stdio } from '../io.js';

/** The commands, in help order. */
export const registrySpecs: readonly CommandSpec[] = [
  {
    name: 'search',
    usage: ['search <text> [--cursor C] [--json]'],
    text: ['Servers whose name matches: name, title, version, package kinds (invalid entries say why).'],
    options: {
      cursor: 'Show the next page (the cursor the previous page printed).',
      ...JSON_OUTPUT,
      config: 'Switchboard config file, for its registry.url (default: the config of this user).',
    },
    examples: ['search github', 'search memory --json'],
  },
  {
    name: 'add',
    usage: [
      'add <registry-name>[@version] [--env K=V ...] [--header K=V ...] [--arg K=V ...] [--id ID] [--no-check] [--unsandboxed]',
      'add ./server.mcpb [--arg KEY=V ...] [--id ID] [--no-check] [--unsandboxed] [--secret-storage reference|config]',
    ],
    text: [
      'Add a registry entry as a backend (secrets to the keychain; checked by starting it first),',
      'or install an MCP bundle (.mcpb or .dxt): its user_config values with --arg, sensitive ones to the keychain.',
      'Without a keychain: --secret-storage reference (a ${VAR} you set) or config (config.json, plain text).',
      'A new stdio server runs sandboxed; where no sandbox can run here, add says what to install or run.',
    ],
    options: {
      env: 'An environment variable the server asks for (repeat for more).',
      header: 'An HTTP header a remote server asks for (repeat for more).',
      arg: "An argument the server asks for, or a bundle's user_config value (repeat for more).",
      id: 'The backend ID to add it under (default: from its name).',
      'no-check': 'Add it without starting it first.',
      unsandboxed: 'Run it with your rights, by choice, where no sandbox can run (saved as "sandbox": false).',
      'secret-storage': 'Where secrets go without a keychain: a ${VAR} reference you set, or config.json.',
      ...CONFIG_FILE,
    },
    examples: [
      'add io.github.modelcontextprotocol/server-memory',
      'add io.github.example/weather@1.2.0 --env API_KEY=abc123 --id weather',
      'add ./server.mcpb --arg root=/home/me/notes',
    ],
  },
  {
    name: 'outdated',
    usage: ['outdated [--json]'],
    text: ['Servers added from a registry that have a newer version there.'],
    options: { ...JSON_OUTPUT, ...CONFIG_FILE },
    examples: ['outdated', 'outdated --json'],
  },
  {
    name: 'update',
    usage: ['update <id> [--dry-run]'],
    text: ['Update a server added from a registry: shows what changes, then applies it (checked by starting it).'],
    options: {
      'dry-run': 'Only show what would change.',
      'no-check': 'Apply it without starting the new version first.',
      ...CONFIG_FILE,
    },
    examples: ['update memory --dry-run', 'update memory'],
  },
];

/** Flags of the registry commands. */
export interface RegistryCommandFlags {
  env: string[];
  header: string[];
  arg: string[];
  id?: string;
  cursor?: string;
  noCheck: boolean;
  /** `--unsandboxed`: run the new server with the user's rights, by choice (saved as `"sandbox": false`). */
  unsandboxed?: boolean;
  dryRun: boolean;
  json: boolean;
  /** `--secret-storage`: without an OS keychain, where secrets go (`reference` or `config`). */
  secretStorage?: string;
}

/** What the commands need from the CLI. */
export interface RegistryCommandIo {
  configPath: string;
  stateDir: string;
  keychain: SecretStore;
  clientInfo: { name: string; version: string };
  out: (text: string) => void;
  err: (text: string) => void;
}

/** The package kinds and remotes of an entry, e.g. `npm, oci, remote`. */
export function kindsOf(entry: RegistryEntry): string {
  if (!entry.valid) return '';
  const kinds: string[] = (entry.server.packages ?? []).map((p) => p.registryType);
  if ((entry.server.remotes ?? []).length > 0) kinds.push('remote');
  return [...new Set(kinds)].join(', ');
}

function offlineLine(freshness: Freshness): string {
  return freshness.offline ? `offline: showing results from ${ageOf(freshness.fetchedAt)}\n` : '';
}

/** `K=V` pairs into input values under `prefix` (a repeated key collects several values). */
function pairs(list: string[], prefixes: string[], flag: string, values: InputValues): void {
  for (const pair of list) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new Error(`--${flag} takes NAME=VALUE, not "${pair}"`);
    const name = pair.slice(0, eq);
    const value = pair.slice(eq + 1);
    for (const prefix of prefixes) {
      const key = `${prefix}:${name}`;
      const before = values[key];
      values[key] = before === undefined ? value : [...(Array.isArray(before) ? before : [before]), value];
    }
  }
}

/** `--secret-storage`, checked. */
function storageFlag(flags: RegistryCommandFlags | undefined): SecretStorage | undefined {
  const value = flags?.secretStorage;
  if (value === undefined || value === 'reference' || value === 'config') return value;
  throw new Error(`--secret-storage takes reference or config, not "${value}"`);
}

/**
 * What the commands need. Without a keychain, secrets go where
 * `--secret-storage` says; without that flag, `add` asks (install/registry/secretChoice.ts).
 */
async function context(io: RegistryCommandIo, flags?: RegistryCommandFlags): Promise<RegistryAddContext> {
  const storage = storageFlag(flags);
  const resolved = await resolveLoginEnvironment();
  const found = await secretSinkFor(io.keychain, resolved.environment);
  const keychainAvailable = found.status.available;
  return {
    configPath: io.configPath,
    client: await registryClientFor(io.configPath, io.stateDir, process.env),
    environment: resolved.environment,
    sink: !keychainAvailable && storage ? sinkWithoutKeychain(storage, resolved.environment) : found.sink,
    ...(!keychainAvailable && !storage && flags ? { askSecretStorage: true } : {}),
    secrets: io.keychain,
    clientInfo: io.clientInfo,
    stateDir: io.stateDir,
  };
}

async function search(io: RegistryCommandIo, text: string, flags: RegistryCommandFlags): Promise<number> {
  const ctx = await context(io);
  const page = await ctx.client.search(text, flags.cursor ? { cursor: flags.cursor } : {});
  if (flags.json) {
    io.out(`${JSON.stringify(page, null, 2)}\n`);
    return 0;
  }
  io.out(offlineLine(page));
  for (const failure of page.failures) io.err(`${failure.registry}: ${failure.message}\n`);
  if (page.entries.length === 0) io.out(`no servers match "${text}"\n`);
  for (const entry of page.entries) {
    if (!entry.valid) {
      io.out(`${entry.name}  ${entry.version}  invalid: ${entry.reason}\n`);
      continue;
    }
    io.out(`${entry.name}  ${entry.server.title ?? ''}  ${entry.version}  ${kindsOf(entry)}\n`);
  }
  if (page.nextCursor) io.out(`more: mcp-switchboard search "${text}" --cursor ${page.nextCursor}\n`);
  return 0;
}

async function add(io: RegistryCommandIo, ref: string, flags: RegistryCommandFlags): Promise<number> {
  const values: InputValues = {};
  pairs(flags.env, ['env'], 'env', values);
  pairs(flags.header, ['header'], 'header', values);
  // An --arg names an argument (its valueHint or flag) or a {variable}.
  pairs(flags.arg, ['arg', 'var'], 'arg', values);
  const ctx = await context(io, flags);
  if (/\.(mcpb|dxt)$/i.test(ref)) return addBundle(io, ctx, ref, flags, values);
  const outcome = await addFromRegistry(ctx, {
    ref,
    values,
    ...(flags.id !== undefined ? { id: flags.id } : {}),
    skipCheck: flags.noCheck,
    ...(flags.unsandboxed ? { unsandboxed: true } : {}),
  });
  io.out(offlineLine(outcome.freshness));
  const source = outcome.entry['source'] as { name: string; version: string };
  io.out(`added ${outcome.id} (${source.name}@${source.version}, ${outcome.option.label})\n`);
  for (const secret of outcome.secrets) io.out(`  ${secret.field} -> ${secret.reference}\n`);
  if (outcome.tools !== undefined) io.out(`  checked: it started and lists ${outcome.tools} tools\n`);
  return 0;
}

async function addBundle(
  io: RegistryCommandIo,
  ctx: RegistryAddContext,
  path: string,
  flags: RegistryCommandFlags,
  values: InputValues,
): Promise<number> {
  const outcome = await installBundle(ctx, path, {
    stateDir: io.stateDir,
    values,
    skipCheck: flags.noCheck,
    ...(flags.unsandboxed ? { unsandboxed: true } : {}),
    ...(flags.id !== undefined ? { id: flags.id } : {}),
  });
  const { manifest } = outcome;
  io.out(
    `added ${outcome.id} (${manifest.display_name ?? manifest.name} ${manifest.version} by ${manifest.author.name})\n`,
  );
  io.out(`  unpacked into ${outcome.directory}\n`);
  if (manifest.tools?.length) io.out(`  declares tools: ${manifest.tools.map((t) => t.name).join(', ')}\n`);
  for (const secret of outcome.secrets) io.out(`  ${secret.field} -> ${secret.reference}\n`);
  if (outcome.tools !== undefined) io.out(`  checked: it started and lists ${outcome.tools} tools\n`);
  return 0;
}

async function outdated(io: RegistryCommandIo, flags: RegistryCommandFlags): Promise<number> {
  const rows = await listOutdated(await context(io));
  if (flags.json) {
    io.out(`${JSON.stringify(rows, null, 2)}\n`);
    return 0;
  }
  if (rows.length === 0) io.out('no servers added from a registry\n');
  for (const row of rows) {
    const state = row.error
      ? `unknown (${row.error})`
      : row.latest === row.current
        ? 'up to date'
        : `update available: ${row.latest}`;
    io.out(`${row.id}  ${row.name}  ${row.current}  ${state}${row.offline ? ' (offline, cached)' : ''}\n`);
  }
  return 0;
}

async function update(io: RegistryCommandIo, id: string, flags: RegistryCommandFlags): Promise<number> {
  const outcome = await updateFromRegistry(await context(io), id, { dryRun: flags.dryRun, skipCheck: flags.noCheck });
  if (outcome.changes.length === 0) {
    io.out(`${id} is up to date (${outcome.from})\n`);
    return 0;
  }
  io.out(`${id}: ${outcome.from} -> ${outcome.to}\n`);
  for (const change of outcome.changes) io.out(`  ${change.field}: ${change.from} -> ${change.to}\n`);
  io.out(outcome.applied ? 'updated\n' : 'not applied (--dry-run)\n');
  return 0;
}

/** Runs `search`, `add`, `outdated` or `update`; returns the exit code. */
export async function registryCommand(
  io: RegistryCommandIo,
  command: string,
  positionals: string[],
  flags: RegistryCommandFlags,
): Promise<number> {
  try {
    if (command === 'search') return await search(io, positionals.join(' '), flags);
    if (command === 'outdated') return await outdated(io, flags);
    const target = positionals[0];
    if (!target) {
      io.err(
        `mcp-switchboard: ${command} needs ${command === 'add' ? 'a registry name or a .mcpb file' : 'a backend ID'}\n`,
      );
      return 2;
    }
    return command === 'add' ? await add(io, target, flags) : await update(io, target, flags);
  } catch (error) {
    const data = toErrorData(error);
    const choose =
      data.data?.['field'] === 'secretStorage'
        ? ': pass --secret-storage reference (set the variables where Switchboard starts) or --secret-storage config'
        : '';
    io.err(`mcp-switchboard: ${errorLine(data)}${choose}\n`);
    return 1;
  }
}

/** The registry commands. */
export const registryCli: CliCommand = {
  section: 'registry',
  positionals: true,
  commands: registrySpecs,
  run: ({ command, positionals, values, config }) => {
    const io = {
      configPath: config,
      stateDir: defaultStateDir(),
      keychain: keychain(),
      clientInfo: { name: 'mcp-switchboard', version: VERSION },
      ...stdio(),
    };
    const flags = {
      env: values.env ?? [],
      header: values.header ?? [],
      arg: values.arg ?? [],
      noCheck: values['no-check'],
      unsandboxed: values.unsandboxed,
      dryRun: values['dry-run'],
      json: values.json,
      ...(values['secret-storage'] !== undefined ? { secretStorage: values['secret-storage'] } : {}),
      ...(values.id !== undefined ? { id: values.id } : {}),
      ...(values.cursor !== undefined ? { cursor: values.cursor } : {}),
    };
    return registryCommand(io, command, positionals, flags);
  },
};
