/**
 * The CLI's `secret` commands: `set <name>` (the value from stdin, never
 * argv, where other users could read it from the process list), `delete
 * <name>` and `list` (names only). OAuth state (accounts `oauth:…`) is the
 * core's, not the user's: it is not listed and cannot be set here.
 */
import { isOAuthSecretName, type SecretStore } from '../../core/platform/index.js';
import { keychain } from '../cliConfig.js';
import type { CliCommand, CommandSpec } from '../command.js';
import { readStdin, stdio } from '../io.js';

/** The command, in help order. */
export const secretSpecs: readonly CommandSpec[] = [
  {
    name: 'secret',
    usage: ['secret set <name> | secret delete <name> | secret list'],
    text: ['Keychain secrets for {"secret": "<name>"} values; set reads the value from stdin.'],
    options: {},
    examples: ['secret set LINEAR_TOKEN < token.txt', 'secret list', 'secret delete LINEAR_TOKEN'],
  },
];

/** Accounts that are not the user's secrets: OAuth state, and Switchboard's own (the client token key). */
function isReserved(name: string): boolean {
  return isOAuthSecretName(name) || name.startsWith('switchboard:');
}

/** What the commands need from the CLI. */
export interface SecretCommandContext {
  keychain: SecretStore;
  /** Reads all of stdin. */
  readStdin: () => Promise<string>;
  out: (text: string) => void;
  err: (text: string) => void;
}

/** Runs `secret <action> [name]`; resolves to the exit code. */
export async function secretCommand(
  context: SecretCommandContext,
  action: string | undefined,
  name: string | undefined,
): Promise<0 | 1 | 2> {
  const status = await context.keychain.status();
  if (!status.available) {
    context.err(`mcp-switchboard: the OS keychain is not available: ${status.reason ?? 'unknown reason'}\n`);
    return 1;
  }
  if (action === 'list') {
    for (const secret of (await context.keychain.list()).filter((entry) => !isReserved(entry))) {
      context.out(`${secret}\n`);
    }
    return 0;
  }
  if ((action !== 'set' && action !== 'delete') || !name) {
    context.err('usage: mcp-switchboard secret set <name> (value on stdin) | secret delete <name> | secret list\n');
    return 2;
  }
  if (isOAuthSecretName(name)) {
    context.err(`mcp-switchboard: "${name}": names starting with "oauth:" are reserved for OAuth tokens\n`);
    return 2;
  }
  if (isReserved(name)) {
    context.err(`mcp-switchboard: "${name}": names starting with "switchboard:" are Switchboard's own\n`);
    return 2;
  }
  if (action === 'delete') {
    const existed = await context.keychain.delete(name);
    context.out(existed ? `Deleted secret "${name}".\n` : `No secret "${name}".\n`);
    return existed ? 0 : 1;
  }
  // One trailing newline (from `echo` or a terminal) is not part of the value.
  const value = (await context.readStdin()).replace(/\r?\n$/, '');
  if (value === '') {
    context.err(
      'mcp-switchboard: no value on stdin (pipe it in, e.g. `printf %s "$TOKEN" | mcp-switchboard secret set NAME`)\n',
    );
    return 2;
  }
  await context.keychain.set(name, value);
  context.out(`Stored secret "${name}" in the OS keychain (${status.backend}).\n`);
  return 0;
}

/** The `secret` command. */
export const secretCli: CliCommand = {
  section: 'auth',
  positionals: true,
  commands: secretSpecs,
  run: ({ positionals }) =>
    secretCommand({ keychain: keychain(), readStdin, ...stdio() }, positionals[0], positionals[1]),
};
