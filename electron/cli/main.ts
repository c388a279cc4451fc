/**
 * The `mcp-switchboard` command. Headless: it runs the core in plain Node and
 * never loads Electron. Parses the command line once, checks what every
 * command shares (options, --port), and runs the command from the table.
 */
import { parseArgs } from 'node:util';
import { DEFAULT_PORT } from '../../shared/endpoint.js';
import { VERSION } from '../../shared/version.js';
import { resolveTarget } from '../core/install/index.js';
import { defaultConfigPath, defaultStateDir } from '../core/platform/index.js';
import { SHORT_USAGE, unknownCommand, unknownOption } from './args.js';
import { OPTIONS, VALUED, type Invocation } from './command.js';
import { findCommand, usageText } from './commandTable.js';
import { fail } from './io.js';

/** Runs the CLI with the given arguments (without node and script). */
export async function main(argv: string[]): Promise<void> {
  const usage = usageText();
  const [command, ...rest] = argv;
  if (command === undefined) {
    // Nothing asked: the usage, and a failure exit (a script that lost its arguments must notice).
    process.stderr.write(usage);
    process.exit(2);
  }
  if (command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(usage);
    return;
  }
  if (command === '--version' || command === '-v') {
    process.stdout.write(`${VERSION}\n`);
    return;
  }
  const unknown = unknownOption(command.startsWith('-') ? argv : rest, Object.keys(OPTIONS), VALUED);
  if (unknown) fail(`${unknown}\n${SHORT_USAGE}`);
  let parsed;
  try {
    parsed = parseArgs({ args: rest, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    fail(`${(error as Error).message}\n${SHORT_USAGE}`);
  }
  const { values, positionals } = parsed;
  const config = values.config ?? defaultConfigPath();
  const port = Number(values.port ?? DEFAULT_PORT);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    fail(`--port must be a whole number from 0 to 65535, not "${values.port}"`);
  const found = findCommand(command);
  // A command that takes none (or an unknown one) fails on a positional argument first, as it always has.
  if (!found?.positionals && positionals.length > 0) fail(`unexpected argument "${positionals[0]}"\n\n${usage}`);
  if (!found) fail(`${unknownCommand(command)}\n${SHORT_USAGE}`);
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
