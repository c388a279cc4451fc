/**
 * The client commands of `mcp-switchboard` (clients, install, uninstall,
 * undo, snippet, import), printed for people; the module API they call
 * returns data for the UI.
 */
import { resolve } from 'node:path';
import {
  defaultClientsContext,
  importServers,
  listImportable,
  detectClients,
  installClient,
  undoLastWrite,
  uninstallClient,
  secretSinkFor,
  clientSnippet,
  checkedScope,
  contextFor,
  gatewayContext,
  gatewayResourceOf,
  resolveTarget,
  type Launcher,
  type WriteOutcome,
} from '../../core/install/index.js';
import { defaultConfigPath, defaultStateDir, KeytarStore, type SecretStore } from '../../core/platform/index.js';
import { DEFAULT_PORT } from '../../../shared/endpoint.js';
import { ENTRY_ENDPOINT, ENTRY_PORT, ENTRY_VALUES, JSON_OUTPUT, PROJECT, RUNNING_INSTANCE } from '../optionHelp.js';
import type { CliCommand, CommandSpec } from '../command.js';
import { selfLauncher } from '../io.js';

/** The commands, in help order. */
export const clientsSpecs: readonly CommandSpec[] = [
  {
    name: 'clients',
    usage: ['clients [--json]'],
    text: ['Which clients are on this machine, and whether Switchboard is installed in each.'],
    options: { ...JSON_OUTPUT, ...PROJECT, ...RUNNING_INSTANCE, ...ENTRY_PORT },
    examples: ['clients', 'clients --json'],
  },
  {
    name: 'install',
    usage: [`install <client> [--server ID | --profile NAME] [--project DIR] [--port ${DEFAULT_PORT}] [--config FILE]`],
    text: [
      "Add the Switchboard entry to the client's config (backed up first; other entries untouched).",
      "With --server or --profile it points at that server's or profile's own endpoint instead of /mcp.",
    ],
    options: { ...ENTRY_ENDPOINT, ...PROJECT, ...RUNNING_INSTANCE, ...ENTRY_PORT },
    values: ENTRY_VALUES,
    examples: ['install cursor', 'install claude-code --project .', 'install cursor --server github'],
  },
  {
    name: 'uninstall',
    usage: ['uninstall <client> [--project DIR]'],
    text: ['Remove only the Switchboard entry.'],
    options: { ...PROJECT, ...RUNNING_INSTANCE },
    examples: ['uninstall cursor'],
  },
  {
    name: 'undo',
    usage: ['undo <client> [--project DIR]'],
    text: ["Put back the file as it was before Switchboard's last write to it."],
    options: { ...PROJECT, ...RUNNING_INSTANCE },
    examples: ['undo cursor'],
  },
  {
    name: 'snippet',
    usage: [`snippet <client> [--server ID | --profile NAME] [--project DIR] [--port ${DEFAULT_PORT}]`],
    text: ['Print the entry to paste by hand (--server, --profile: as for install).'],
    options: { ...ENTRY_ENDPOINT, ...PROJECT, ...RUNNING_INSTANCE, ...ENTRY_PORT },
    values: ENTRY_VALUES,
    examples: ['snippet zed', 'snippet vscode --profile reviewer'],
  },
  {
    name: 'import',
    usage: ['import <client> [--all | --server NAME ...] [--replace] [--project DIR] [--json]'],
    text: [
      "List the client's servers; with --all or --server, add them to Switchboard's config",
      '(secrets become ${VAR} references); --replace then points the client at Switchboard instead.',
    ],
    options: {
      all: 'Import every server of the client.',
      server: 'Import this server (repeat for more).',
      replace: "Then replace the client's servers with the Switchboard entry.",
      ...PROJECT,
      ...JSON_OUTPUT,
      ...RUNNING_INSTANCE,
      ...ENTRY_PORT,
    },
    examples: ['import claude-desktop', 'import claude-desktop --all --replace', 'import cursor --server github'],
  },
];

/** Parsed options the client commands take. */
export interface ClientCommandOptions {
  command: 'clients' | 'install' | 'uninstall' | 'undo' | 'snippet' | 'import';
  client: string | undefined;
  project: string | undefined;
  port: number;
  /** Switchboard's config file. */
  config: string;
  /** The config was given with --config (then `connect` entries pass it on). */
  explicitConfig: boolean;
  /** The port was given with --port (else the running instance's, or the default). */
  explicitPort?: boolean;
  json: boolean;
  servers: string[];
  /** install, snippet: `--profile NAME` (and `--server ID` from `servers`) pick the endpoint. */
  profile?: string | undefined;
  all: boolean;
  replace: boolean;
  launcher: Launcher;
  out: (text: string) => void;
  /** The keychain import moves secrets into (default: the OS keychain). */
  secrets?: SecretStore;
}

function describeWrite(verb: string, outcome: WriteOutcome, out: (text: string) => void): void {
  if (!outcome.changed) out(`${outcome.path}: already up to date\n`);
  else out(`${verb} ${outcome.path}${outcome.backup ? ` (previous file kept in ${outcome.backup})` : ''}\n`);
  for (const note of outcome.notes) out(`  note: ${note}\n`);
}

/** Runs one client command; throws SwitchboardError (printed by the caller) on failure. */
export async function runClientCommand(given: ClientCommandOptions): Promise<void> {
  // The running instance's config and port, unless flags say otherwise (then with a warning).
  const target = await resolveTarget({
    config: given.config,
    explicitConfig: given.explicitConfig,
    port: given.port,
    explicitPort: given.explicitPort ?? true,
    stateDir: defaultStateDir(),
  });
  const options = { ...given, config: target.config, port: target.port };
  const writes =
    ['install', 'uninstall', 'undo'].includes(options.command) || options.all || options.servers.length > 0;
  if (target.notice && writes && !options.json) options.out(`${target.notice}\n`);
  const local = defaultClientsContext({
    port: options.port,
    launcher: options.launcher,
    // `connect` entries start (or find) Switchboard with the same config, when it is not the default.
    ...(target.chosenConfig && resolve(options.config) !== resolve(defaultConfigPath())
      ? { configPath: options.config }
      : {}),
    switchboardConfig: options.config,
  });
  // Gateway mode: entries name the gateway's public URL, and the client signs in with OAuth itself.
  const gatewayResource = await gatewayResourceOf(options.config);
  const ctx = gatewayResource === undefined ? local : gatewayContext(local, gatewayResource);
  const { out } = options;
  const scope = options.project !== undefined ? { project: options.project } : {};
  if (options.command === 'clients') {
    const statuses = await detectClients(ctx);
    if (options.json) return out(`${JSON.stringify(statuses, null, 2)}\n`);
    for (const s of statuses) {
      const state = s.problem
        ? `cannot read: ${s.problem.message}`
        : `${s.detected ? 'detected' : 'not found'}, ${s.installed ? 'Switchboard installed' : 'not installed'}`;
      out(`${s.id.padEnd(15)} ${s.name.padEnd(15)} ${state}\n${' '.repeat(16)}${s.configPath}\n`);
    }
    return;
  }
  if (options.client === undefined) {
    throw new Error(
      `${options.command} needs a client: claude-desktop, claude-code, cursor, vscode, windsurf, zed or codex`,
    );
  }
  const client = options.client;
  switch (options.command) {
    case 'install': {
      const pointed = await endpointContext(options, ctx, client);
      return describeWrite('Switchboard added to', await installClient(pointed, client, scope), out);
    }
    case 'uninstall':
      return describeWrite('Switchboard removed from', await uninstallClient(ctx, client, scope), out);
    case 'undo':
      return describeWrite('Restored', await undoLastWrite(ctx, client, scope), out);
    case 'snippet': {
      const snippet = await clientSnippet(await endpointContext(options, ctx, client), client, scope);
      return out(`# add to ${snippet.path}\n${snippet.text}`);
    }
    case 'import':
      return runImport(options, ctx, client, scope);
  }
}

/** The context pointing `client` at the endpoint `--server` or `--profile` names (checked against the config). */
async function endpointContext(
  options: ClientCommandOptions,
  ctx: ReturnType<typeof defaultClientsContext>,
  client: string,
): Promise<ReturnType<typeof defaultClientsContext>> {
  if (options.servers.length > 1) throw new Error(`${options.command} takes one --server`);
  if (ctx.gateway) {
    if (options.servers.length > 0 || options.profile !== undefined)
      throw new Error(
        `--server and --profile name endpoints of a local Switchboard; the gateway serves ${ctx.url} only`,
      );
    return ctx;
  }
  const scope = await checkedScope({ server: options.servers[0], profile: options.profile }, options.config);
  return contextFor(ctx, client, scope);
}

async function runImport(
  options: ClientCommandOptions,
  ctx: ReturnType<typeof defaultClientsContext>,
  client: string,
  scope: { project?: string },
): Promise<void> {
  const { out } = options;
  // Secrets go to the OS keychain; without one they become ${VAR} references, and we say so.
  const { sink, status } = await secretSinkFor(options.secrets ?? new KeytarStore(), ctx.platform.env);
  if (!status.available && !options.json) {
    out(
      `note: the OS keychain is not available (${status.reason ?? 'unknown reason'}): secrets are imported as \${VAR} references\n`,
    );
  }
  const importOptions = { ...scope, switchboardConfig: options.config, secrets: sink };
  if (!options.all && options.servers.length === 0) {
    const candidates = await listImportable(ctx, client, importOptions);
    if (options.json) return out(`${JSON.stringify(candidates, null, 2)}\n`);
    if (candidates.length === 0) return out('no servers to import\n');
    for (const c of candidates) {
      const state = c.skipReason
        ? `cannot import: ${c.skipReason}`
        : c.inSwitchboard === 'same'
          ? `already in Switchboard as ${c.id}`
          : `would be imported as ${c.id}`;
      out(`${c.name}: ${state}\n`);
      for (const s of c.secrets) {
        out(
          `  ${s.field}: secret, ${s.reference?.startsWith('keychain:') ? 'moved to the keychain' : 'imported'} as ${s.reference}${s.resolves ? '' : ' (set that variable for it to work)'}\n`,
        );
      }
      for (const w of c.warnings) out(`  warning: ${w}\n`);
    }
    return out('Run again with --all or --server NAME (and --replace to point the client at Switchboard instead).\n');
  }
  const outcome = await importServers(ctx, client, {
    ...importOptions,
    ...(options.all ? {} : { names: options.servers }),
    replace: options.replace,
  });
  if (options.json) return out(`${JSON.stringify(outcome, null, 2)}\n`);
  for (const item of outcome.imported) {
    out(`imported ${item.name} as ${item.id}\n`);
    if (item.sandboxBlocked)
      out(
        `  sandboxed, as every new server is, but not started here: ${item.sandboxBlocked}. Install that, or set "sandbox": false on ${item.id} to run it with your rights\n`,
      );
    for (const s of item.secrets) {
      out(`  ${s.field} -> ${s.reference}${s.resolves ? '' : ` (not set: export it before starting Switchboard)`}\n`);
    }
  }
  for (const item of outcome.skipped) out(`skipped ${item.name}: ${item.reason}\n`);
  if (outcome.client) describeWrite('Replaced by the Switchboard entry in', outcome.client, out);
}

/** The client commands. */
export const clientsCli: CliCommand = {
  section: 'clients',
  positionals: true,
  commands: clientsSpecs,
  run: ({ command, positionals, values, config, port }) =>
    runClientCommand({
      command: command as ClientCommandOptions['command'],
      client: positionals[0],
      project: values.project,
      port,
      config,
      explicitConfig: values.config !== undefined,
      explicitPort: values.port !== undefined,
      json: values.json,
      servers: values.server ?? [],
      profile: values.profile,
      all: values.all,
      replace: values.replace,
      launcher: selfLauncher(),
      out: (text) => void process.stdout.write(text),
    }),
};
