/** The command table drives both dispatch and --help: every command is found by each name and documented. */
import { describe, expect, it } from 'vitest';
import { unknownCommand } from '../../../electron/cli/args.js';
import { COMMAND_TABLE, findCommand, usageText } from '../../../electron/cli/commandTable.js';
import { COMMAND_NAMES, COMMAND_SPECS, findSpec } from '../../../electron/cli/specTable.js';

const names = COMMAND_NAMES;

describe('the command table', () => {
  it('answers each name with one command, and no name twice', () => {
    expect(new Set(names).size).toBe(names.length);
    for (const command of COMMAND_TABLE) {
      for (const spec of command.commands) {
        expect(findCommand(spec.name)).toBe(command);
        expect(findSpec(spec.name)).toBe(spec);
      }
    }
    expect(findCommand('serv')).toBeUndefined();
    expect(findSpec('serv')).toBeUndefined();
  });

  it('runs the same commands, in the same order, as the declarations --help is answered from', () => {
    expect(COMMAND_TABLE.flatMap((command) => command.commands)).toEqual(COMMAND_SPECS);
  });

  it('lists every command in --help, each usage line under its section', () => {
    const help = usageText();
    // A usage line names it (`outdated [--json]  |  update <id>` names two).
    for (const name of names) expect(help).toMatch(new RegExp(`^  mcp-switchboard (.* )?${name}\\b`, 'm'));
    expect(help.indexOf('mcp-switchboard serve ')).toBeLessThan(help.indexOf('Remote servers with OAuth'));
    expect(help.indexOf('mcp-switchboard import ')).toBeGreaterThan(help.indexOf('Clients ('));
    expect(help.indexOf('mcp-switchboard search ')).toBeGreaterThan(help.indexOf('MCP registries'));
  });

  it('starts a line with mcp-switchboard only for a command: a long usage continues indented', () => {
    const lines = usageText().split('\n');
    const commandLines = lines.filter((line) => line.startsWith('  mcp-switchboard'));
    for (const line of commandLines) expect(names, line).toContain(/^ {2}mcp-switchboard (\S+)/.exec(line)?.[1]);
    const override = lines.findIndex((line) => line.startsWith('  mcp-switchboard override '));
    expect(lines[override + 1]).toMatch(/^ {20}\[--read-only\|--no-read-only \.\.\.\] /);
    expect(lines[override + 2]).toMatch(/^ {20}\[--clear\] /);
  });

  it('shows every option of install on its line, --config FILE too', () => {
    const install = usageText()
      .split('\n')
      .find((line) => line.startsWith('  mcp-switchboard install '));
    for (const option of Object.keys(findSpec('install')!.options)) expect(install).toContain(`--${option} `);
    expect(install).toContain('[--config FILE]');
  });

  it('suggests any command of the table for a typo', () => {
    expect(unknownCommand('exposre')).toBe('unknown command "exposre" (did you mean exposure?)');
    expect(unknownCommand('outdatd')).toBe('unknown command "outdatd" (did you mean outdated?)');
  });
});
