/**
 * What a CLI command is: the names it answers to, the options each takes
 * with their `--help` (one declaration for both), and how it runs. Each
 * command module exports one; commandTable.ts lists them in help order, and
 * main.ts dispatches through that list.
 */
import type { Target } from '../core/install/index.js';

/** Every option the parser knows; each command takes the ones its {@link CommandSpec} lists. */
export const OPTIONS = {
  config: { type: 'string' },
  host: { type: 'string' }, // no default: serve's is 127.0.0.1; `sandbox allow --host` must tell a given one apart
  port: { type: 'string' }, // no default: a given --port is told apart from none (running-instance target)
  stdio: { type: 'boolean', default: false },
  quiet: { type: 'boolean', default: false },
  project: { type: 'string' },
  json: { type: 'boolean', default: false },
  server: { type: 'string', multiple: true },
  all: { type: 'boolean', default: false },
  replace: { type: 'boolean', default: false },
  'no-browser': { type: 'boolean', default: false },
  'no-open': { type: 'boolean', default: false },
  env: { type: 'string', multiple: true },
  header: { type: 'string', multiple: true },
  arg: { type: 'string', multiple: true },
  id: { type: 'string' },
  cursor: { type: 'string' },
  'no-check': { type: 'boolean', default: false },
  unsandboxed: { type: 'boolean', default: false },
  'dry-run': { type: 'boolean', default: false },
  'secret-storage': { type: 'string' },
  tool: { type: 'string' },
  'confirm-high': { type: 'boolean', default: false },
  'hold-flagged': { type: 'boolean', default: false },
  'start-unsandboxed': { type: 'boolean', default: false },
  profile: { type: 'string' },
  servers: { type: 'boolean', default: false },
  out: { type: 'string' },
  yes: { type: 'boolean', default: false },
  as: { type: 'string' },
  'log-format': { type: 'string' },
  name: { type: 'string' },
  title: { type: 'string' },
  description: { type: 'string' },
  'read-only': { type: 'boolean', default: false },
  'no-read-only': { type: 'boolean', default: false },
  destructive: { type: 'boolean', default: false },
  'no-destructive': { type: 'boolean', default: false },
  idempotent: { type: 'boolean', default: false },
  'no-idempotent': { type: 'boolean', default: false },
  'open-world': { type: 'boolean', default: false },
  'no-open-world': { type: 'boolean', default: false },
  fix: { type: 'string', multiple: true },
  default: { type: 'string', multiple: true },
  unset: { type: 'string', multiple: true },
  clear: { type: 'boolean', default: false },
  prompt: { type: 'boolean', default: false },
  resource: { type: 'boolean', default: false },
  'tls-cert': { type: 'string' },
  'tls-key': { type: 'string' },
  'insecure-no-auth-on-network': { type: 'boolean', default: false },
  since: { type: 'string' },
  client: { type: 'string' },
  principal: { type: 'string' },
  revoke: { type: 'string' },
  caller: { type: 'string' },
  read: { type: 'string' },
  write: { type: 'string' },
  window: { type: 'string' },
  call: { type: 'string', multiple: true },
  accept: { type: 'boolean', default: false },
} as const;

/** The options that take a value (the argument after one is never an option). */
export const VALUED = Object.entries(OPTIONS).flatMap(([name, option]) => (option.type === 'string' ? [name] : []));

/** The parsed options, as node:util's parseArgs returns them for {@link OPTIONS}. */
export interface OptionValues {
  config?: string | undefined;
  host?: string | undefined;
  port?: string | undefined;
  stdio: boolean;
  quiet: boolean;
  project?: string | undefined;
  json: boolean;
  server?: string[] | undefined;
  all: boolean;
  replace: boolean;
  'no-browser': boolean;
  'no-open': boolean;
  env?: string[] | undefined;
  header?: string[] | undefined;
  arg?: string[] | undefined;
  id?: string | undefined;
  cursor?: string | undefined;
  'no-check': boolean;
  unsandboxed: boolean;
  'dry-run': boolean;
  'secret-storage'?: string | undefined;
  tool?: string | undefined;
  'confirm-high': boolean;
  'hold-flagged': boolean;
  'start-unsandboxed': boolean;
  profile?: string | undefined;
  servers: boolean;
  out?: string | undefined;
  yes: boolean;
  as?: string | undefined;
  'log-format'?: string | undefined;
  name?: string | undefined;
  title?: string | undefined;
  description?: string | undefined;
  'read-only': boolean;
  'no-read-only': boolean;
  destructive: boolean;
  'no-destructive': boolean;
  idempotent: boolean;
  'no-idempotent': boolean;
  'open-world': boolean;
  'no-open-world': boolean;
  fix?: string[] | undefined;
  default?: string[] | undefined;
  unset?: string[] | undefined;
  clear: boolean;
  prompt: boolean;
  resource: boolean;
  'tls-cert'?: string | undefined;
  'tls-key'?: string | undefined;
  'insecure-no-auth-on-network': boolean;
  since?: string | undefined;
  client?: string | undefined;
  principal?: string | undefined;
  revoke?: string | undefined;
  caller?: string | undefined;
  read?: string | undefined;
  write?: string | undefined;
  window?: string | undefined;
  call?: string[] | undefined;
  accept: boolean;
}

/** One command line, parsed and checked. */
export interface Invocation {
  /** The command name as typed (one of the command's names). */
  command: string;
  positionals: string[];
  values: OptionValues;
  /** --config, or the default config file. */
  config: string;
  /** --port, or the default port. */
  port: number;
  /** The whole `--help` text (some argument errors end with it). */
  usage: string;
  /** The running instance's config and port unless flags say otherwise; `say` prints its notice to stderr. */
  runningTarget: (say: boolean) => Promise<Target>;
}

/** The name of an option of {@link OPTIONS}. */
export type OptionName = keyof typeof OPTIONS;

/** The `--help` sections, in order. */
export type HelpSection = 'usage' | 'auth' | 'exposure' | 'review' | 'clients' | 'registry';

/**
 * One command, declared once: the parser accepts exactly the options it
 * lists, and its `--help` (usage, what it does, each option, examples) is
 * printed from the same declaration.
 */
export interface CommandSpec {
  /** The name typed after `mcp-switchboard`. */
  name: string;
  /**
   * Its usage lines, without the leading `mcp-switchboard ` (two for a command with two forms); a
   * line that starts with spaces continues the form above it (printed indented, without the name).
   */
  usage: readonly string[];
  /** What it does, in a few lines. */
  text: readonly string[];
  /** Every option it takes, each with a one-line description; any other option is an error. */
  options: Readonly<Partial<Record<OptionName, string>>>;
  /**
   * The placeholder of an option's value where this command's differs from the usual one
   * (optionHelp.ts); the option then takes one value here, though another command repeats it
   * (install's `--server ID`, import's `--server NAME ...`).
   */
  values?: Readonly<Partial<Record<OptionName, string>>>;
  /** At least one whole command line a user could type, without the leading `mcp-switchboard `. */
  examples: readonly string[];
}

/** A command of `mcp-switchboard` (or a family of commands sharing one module). */
export interface CliCommand {
  /** The commands it runs, in help order. */
  commands: readonly CommandSpec[];
  section: HelpSection;
  /** Whether it takes positional arguments (a command without any fails on one). */
  positionals: boolean;
  /** Runs it; a number is the exit code to leave with, none means return and let the process end or keep serving. */
  run: (invocation: Invocation) => Promise<number | void>;
}
