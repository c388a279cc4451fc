/**
 * One command's `--help` (`mcp-switchboard <command> --help`, `help
 * <command>`): its usage, what it does, every option it takes with one line
 * each, and examples, all printed from the command's one declaration, the
 * same one the parser checks options against.
 */
import type { CommandSpec, OptionName } from './command.js';
import { optionSyntax } from './optionHelp.js';

/** The option lines, their descriptions aligned in one column. */
function optionLines(spec: CommandSpec): string[] {
  const rows = (Object.entries(spec.options) as [OptionName, string][]).map(([name, description]) => ({
    syntax: optionSyntax(name),
    description,
  }));
  rows.push({ syntax: '-h, --help', description: 'Show this help (the command does not run).' });
  const width = Math.max(...rows.map((row) => row.syntax.length));
  return rows.map((row) => `  ${row.syntax.padEnd(width)}  ${row.description}`);
}

/** The whole help of one command. */
export function commandHelp(spec: CommandSpec): string {
  const [first, ...more] = spec.usage;
  const lines = [
    `Usage: mcp-switchboard ${first ?? spec.name}`,
    ...more.map((usage) => `       mcp-switchboard ${usage}`),
    '',
    ...spec.text,
    '',
    'Options:',
    ...optionLines(spec),
    '',
    spec.examples.length > 1 ? 'Examples:' : 'Example:',
    ...spec.examples.map((example) => `  mcp-switchboard ${example}`),
    '',
  ];
  return lines.join('\n');
}
