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
    syntax: optionSyntax(name, spec.values?.[name]),
    description,
  }));
  rows.push({ syntax: '-h, --help', description: 'Show this help (the command does not run).' });
  const width = Math.max(...rows.map((row) => row.syntax.length));
  return rows.map((row) => `  ${row.syntax.padEnd(width)}  ${row.description}`);
}

/**
 * Usage lines as printed: each form after `lead` + `mcp-switchboard ` (`lead` of the first
 * form its own), a line that continues a form (it starts with spaces) indented under the form's
 * arguments instead, so that it cannot be read as a command of its own.
 */
export function usageLines(usage: readonly string[], lead: string, firstLead = lead): string[] {
  const prefix = `${lead}mcp-switchboard `;
  return usage.map((line, index) => {
    if (/^\s/.test(line)) return `${' '.repeat(prefix.length + 2)}${line.trimStart()}`;
    return `${index === 0 ? firstLead : lead}mcp-switchboard ${line}`;
  });
}

/** The whole help of one command. */
export function commandHelp(spec: CommandSpec): string {
  const lines = [
    ...usageLines(spec.usage.length > 0 ? spec.usage : [spec.name], '       ', 'Usage: '),
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
