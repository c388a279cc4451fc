/**
 * What the client commands (`clients`, `install`, `uninstall`, `undo`,
 * `snippet`, `import`) take and say in `--help`: the one declaration the
 * parser checks options against and the help is printed from. Imports nothing
 * heavy, so `<command> --help` answers before the core loads.
 */
import { DEFAULT_PORT } from '../../../shared/endpoint.js';
import type { CommandSpec } from '../command.js';
import { ENTRY_ENDPOINT, ENTRY_PORT, JSON_OUTPUT, PROJECT, RUNNING_INSTANCE } from '../optionHelp.js';

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
    usage: [`install <client> [--server ID | --profile NAME] [--project DIR] [--port ${DEFAULT_PORT}]`],
    text: [
      "Add the Switchboard entry to the client's config (backed up first; other entries untouched).",
      "With --server or --profile it points at that server's or profile's own endpoint instead of /mcp.",
    ],
    options: { ...ENTRY_ENDPOINT, ...PROJECT, ...RUNNING_INSTANCE, ...ENTRY_PORT },
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
