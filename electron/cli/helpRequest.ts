/**
 * `mcp-switchboard <command> --help` and `help <command>`, answered before
 * anything else: bin/ asks here first, so help never runs the command (no
 * login shell, no config read, no core loaded) and prints at once. `--help`
 * or `-h` anywhere before a lone `--` wins over every other argument.
 */
import { commandHelp } from './commandHelp.js';
import { findSpec } from './specTable.js';

/** Whether `args` ask for help (`--help` or `-h` anywhere before a lone `--`). */
export function asksForHelp(args: readonly string[]): boolean {
  const end = args.indexOf('--');
  return (end < 0 ? args : args.slice(0, end)).some((arg) => arg === '--help' || arg === '-h');
}

/** The command whose help `argv` asks for, if it asks for one of a known command. */
function helpAskedFor(argv: readonly string[]): string | undefined {
  const [first, ...rest] = argv;
  if (first === 'help') return rest.length === 1 ? rest[0] : undefined;
  return first !== undefined && asksForHelp(rest) ? first : undefined;
}

/** Prints the help `argv` asks for and says true; false when it asks for none of a known command (main answers). */
export function answerCommandHelp(argv: readonly string[], write: (text: string) => void): boolean {
  const name = helpAskedFor(argv);
  const spec = name === undefined ? undefined : findSpec(name);
  if (!spec) return false;
  write(commandHelp(spec));
  return true;
}
