/**
 * What the registry commands (`search`, `add`, `outdated`, `update`) take and
 * say in `--help`: the one declaration the parser checks options against and
 * the help is printed from. Imports nothing heavy, so `<command> --help`
 * answers before the core loads.
 */
import type { CommandSpec } from '../command.js';
import { CONFIG_FILE, JSON_OUTPUT } from '../optionHelp.js';

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
