/**
 * The `mcp-switchboard` command. Headless: it runs the core in plain Node and
 * never loads Electron. Answers help first (`--help` wins over every other
 * argument and never runs a command), then parses the command line against
 * the options the command declares, and runs the command from the table.
 */
import { parseArgs } from 'node:util';
import { DEFAULT_PORT } from '../../shared/endpoint.js';
import { VERSION } from '../../shared/version.js';
import { resolveTarget } from '../core/install/index.js';
import { defaultConfigPath, defaultStateDir } from '../core/platform/index.js';
import { optionNotTaken, SHORT_USAGE, unknownCommand, unknownOption } from './args.js';
import { OPTIONS, VALUED, type CommandSpec, type Invocation } from './command.js';
import { findCommand, usageText } from './commandTable.js';
import { answerCommandHelp } from './helpRequest.js';
import { fail } from './io.js';
import { COMMAND_NAMES, findSpec } from './specTable.js';

const PARSER_OPTIONS = Object.keys(OPTIONS);

const stdout = (text: string): void => void process.stdout.write(text);

/** What a command given an argument it cannot use prints under the error. */
const commandUsage = (spec: CommandSpec): string =>
  `usage: mcp-switchboard ${spec.usage[0] ?? spec.name}; mcp-switchboard ${spec.name} --help describes its options`;

/** Runs the CLI with the given arguments (without node and script). */
export async function main(argv: string[]): Promise<void> {
  const usage = usageText();
  const [command, ...rest] = argv;
  if (command === undefined) {
    // Nothing asked: the usage, and a failure exit (a script that lost its arguments must notice).
    process.stderr.write(usage);
    process.exit(2);
  }
  // `<command> --help` and `help <command>` (bin/ answers them before loading this module; main answers them too).
  if (answerCommandHelp(argv, stdout)) return;
  if (command === '--help' || command === '-h' || (command === 'help' && rest.length === 0)) return stdout(usage);
  if (command === 'help') {
    const problem = rest.length === 1 ? unknownCommand(rest[0]!) : `help takes one command, not "${rest.join(' ')}"`;
    fail(`${problem}\n${SHORT_USAGE}`);
  }
  if (command === '--version' || command === '-v') {
    process.stdout.write(`${VERSION}\n`);
    return;
  }
  if (command.startsWith('-')) {
    fail(`${unknownOption(argv, PARSER_OPTIONS, VALUED) ?? `${command} goes after a command`}\n${SHORT_USAGE}`);
  }
  const spec = findSpec(command);
  const found = findCommand(command);
  if (!spec || !found) fail(`${unknownCommand(command, [...COMMAND_NAMES, 'help'])}\n${SHORT_USAGE}`);
  const notTaken = optionNotTaken(command, rest, Object.keys(spec.options), PARSER_OPTIONS, VALUED);
  if (notTaken) fail(`${notTaken}\n${commandUsage(spec)}`);
  let parsed;
  try {
    // Every option of the parser, for their defaults; the check above let through only the command's own.
    parsed = parseArgs({ args: rest, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    fail(`${(error as Error).message}\n${commandUsage(spec)}`);
  }
  const { values, positionals } = parsed;
  const config = values.config ?? defaultConfigPath();
  const port = Number(values.port ?? DEFAULT_PORT);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    fail(`--port must be a whole number from 0 to 65535, not "${values.port}"`);
  if (!found.positionals && positionals.length > 0) fail(`unexpected argument "${positionals[0]}"\n\n${usage}`);
  const invocation: Invocation = {
    command,
    positionals,
    values,
    config,
    port,
    usage,
    runningTarget: (say) =>
      resolveTarget({
        config,
        port,
        stateDir: defaultStateDir(),
        explicitConfig: values.config !== undefined,
        explicitPort: values.port !== undefined,
      }).then((target) => {
        if (target.notice && say) process.stderr.write(`${target.notice}\n`);
        return target;
      }),
  };
  const code = await found.run(invocation);
  if (code !== undefined) process.exit(code);
}
