/**
 * What `--help` shows of an option besides its description: the value it
 * takes (`--config FILE`), and the descriptions several commands share, so
 * that `--config` means the same thing in every command that says it.
 */
import { DEFAULT_PORT } from '../../shared/endpoint.js';
import { OPTIONS, type OptionName } from './command.js';

/** The placeholder of each option that takes a value. */
const VALUE_NAMES: Partial<Record<OptionName, string>> = {
  config: 'FILE',
  host: 'HOST',
  port: 'PORT',
  project: 'DIR',
  server: 'NAME',
  env: 'K=V',
  header: 'K=V',
  arg: 'K=V',
  id: 'ID',
  cursor: 'CURSOR',
  'secret-storage': 'reference|config',
  tool: 'NAME',
  profile: 'NAME',
  out: 'FILE',
  as: 'NEWID',
  name: 'NAME',
  title: 'TEXT',
  description: 'TEXT',
  fix: 'ARG=JSON',
  default: 'ARG=JSON',
  unset: 'ARG',
  since: 'ISO',
  client: 'ID',
  principal: 'P',
  read: 'PATH',
  write: 'PATH',
};

/**
 * How an option is written in help: `--config FILE`, `--env KEY=VALUE ...` (repeatable), `--json`;
 * with the `placeholder` a command gives it, one value (`--server ID`).
 */
export function optionSyntax(name: OptionName, placeholder?: string): string {
  const option = OPTIONS[name];
  if (option.type === 'boolean') return `--${name}`;
  if (placeholder !== undefined) return `--${name} ${placeholder}`;
  const repeat = 'multiple' in option && option.multiple ? ' ...' : '';
  return `--${name} ${VALUE_NAMES[name] ?? 'VALUE'}${repeat}`;
}

/** `--config` of a command that reads or writes the config file itself. */
export const CONFIG_FILE = { config: 'Switchboard config file (default: the config of this user).' } as const;

/**
 * `--config` and `--port` of a command that acts on the running Switchboard
 * unless told otherwise (a flag that disagrees with it is honoured, with a warning).
 */
export const RUNNING_INSTANCE = {
  config: "Switchboard config file (default: the running Switchboard's, else this user's).",
  port: `Port of the Switchboard meant (default: the running one's, else ${DEFAULT_PORT}).`,
} as const;

/** `--server` and `--profile` of a client entry: which endpoint the client is pointed at. */
export const ENTRY_ENDPOINT = {
  server: "Point the client at this server's own endpoint (/servers/ID/mcp): its tools under their own names.",
  profile: "Point the client at this profile's endpoint (/profiles/NAME/mcp), with that profile's token.",
} as const;

/** The value `--server` takes in a client entry: one server's ID (import's `--server` repeats). */
export const ENTRY_VALUES = { server: 'ID' } as const;

/** `--json` of a command that can print for programs. */
export const JSON_OUTPUT = { json: 'Print JSON instead of text.' } as const;

/** `--port` of a client entry: the port the client is pointed at. */
export const ENTRY_PORT = {
  port: `Port the client entry points at (default: the running Switchboard's, else ${DEFAULT_PORT}).`,
} as const;

/** `--project` of a client command: a project-scoped client config. */
export const PROJECT = {
  project: "The project directory, for a client's project-scoped config (.cursor/, .vscode/...).",
} as const;
