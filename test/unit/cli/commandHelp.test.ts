/**
 * `mcp-switchboard <command> --help` for every command: usage, what it does,
 * each option with one line, and an example, printed from the declaration the
 * parser checks options against, so the help and the parser cannot drift:
 * every option the help or an example writes is one the command takes, and
 * every option it takes is in its help.
 */
import { parseArgs } from 'node:util';
import { describe, expect, it } from 'vitest';
import { optionNotTaken } from '../../../electron/cli/args.js';
import { OPTIONS, VALUED, type CommandSpec } from '../../../electron/cli/command.js';
import { commandHelp } from '../../../electron/cli/commandHelp.js';
import { answerCommandHelp, asksForHelp } from '../../../electron/cli/helpRequest.js';
import { optionSyntax } from '../../../electron/cli/optionHelp.js';
import { COMMAND_SPECS, findSpec } from '../../../electron/cli/specTable.js';

const SPECS: readonly CommandSpec[] = COMMAND_SPECS;
const PARSER_OPTIONS = Object.keys(OPTIONS);
const optionsWritten = (text: string): string[] =>
  [...text.matchAll(/(?<![\w-])--([a-z][a-z0-9-]*)/g)].map((match) => match[1]!);
/** A command line as a shell splits it (the examples quote nothing). */
const argsOf = (example: string): string[] =>
  example.split(/\s+/).filter((word) => word !== '<' && !word.endsWith('.txt'));

describe.each(SPECS.map((spec) => [spec.name, spec] as const))('%s --help', (name, spec) => {
  const help = commandHelp(spec);

  it('shows its usage, what it does, each option with its description, and an example', () => {
    const lines = help.split('\n');
    expect(lines[0]).toBe(`Usage: mcp-switchboard ${spec.usage[0]}`);
    for (const line of spec.text) expect(help).toContain(line);
    const start = lines.indexOf('Options:') + 1;
    const options = lines.slice(start, lines.indexOf('', start));
    expect(options.length).toBeGreaterThan(0);
    for (const [option, description] of Object.entries(spec.options)) {
      expect(description.length, `${name} --${option}`).toBeGreaterThan(10);
      expect(options).toContainEqual(
        expect.stringMatching(
          new RegExp(
            `^  ${escape(optionSyntax(option as keyof typeof OPTIONS, spec.values?.[option as keyof typeof OPTIONS]))} +${escape(description)}$`,
          ),
        ),
      );
    }
    expect(options.at(-1)).toMatch(/^ {2}-h, --help +Show this help/);
    expect(spec.examples.length).toBeGreaterThan(0);
    for (const example of spec.examples) expect(help).toContain(`\n  mcp-switchboard ${example}\n`);
  });

  it('writes (usage, text, examples) only options it takes, and takes only options its help lists', () => {
    const takes = Object.keys(spec.options);
    const written = [...spec.usage, ...spec.text, ...spec.examples].flatMap(optionsWritten);
    expect(written.filter((option) => !takes.includes(option))).toEqual([]);
    for (const option of takes) expect(PARSER_OPTIONS, `${name} --${option}`).toContain(option);
    // The parser's check is made from the same declaration: each option listed is taken, any other refused.
    for (const option of takes) {
      const args = VALUED.includes(option) ? [`--${option}`, 'x'] : [`--${option}`];
      expect(optionNotTaken(name, args, takes, PARSER_OPTIONS, VALUED), `--${option}`).toBeUndefined();
    }
    for (const option of PARSER_OPTIONS.filter((candidate) => !takes.includes(candidate))) {
      expect(optionNotTaken(name, [`--${option}`], takes, PARSER_OPTIONS, VALUED)).toBe(
        `${name} does not take --${option}`,
      );
    }
  });

  it('lists an option as repeatable (`--x V ...`) exactly when its usage writes it so', () => {
    const usage = spec.usage.join(' ');
    for (const option of Object.keys(spec.options).filter((name) => VALUED.includes(name))) {
      const written = new RegExp(`--${option} [^\\s|\\]]+( \\.\\.\\.)?`).exec(usage);
      if (!written) continue;
      const listed = optionSyntax(option as keyof typeof OPTIONS, spec.values?.[option as keyof typeof OPTIONS]);
      expect(listed.endsWith(' ...'), `${name}: usage "${written[0]}", options "${listed}"`).toBe(
        written[1] !== undefined,
      );
    }
  });

  it('prints a usage line that continues a form indented, never as a command of its own', () => {
    const usage = help.slice(0, help.indexOf('\n\n')).split('\n');
    expect(usage[0]).toMatch(/^Usage: mcp-switchboard \S/);
    for (const line of usage.slice(1)) expect(line).toMatch(/^ {7}mcp-switchboard \S|^ {25}\S/);
  });

  it('gives examples the parser accepts for this command', () => {
    for (const example of spec.examples) {
      const [command, ...args] = argsOf(example);
      expect(command).toBe(name);
      expect(optionNotTaken(name, args, Object.keys(spec.options), PARSER_OPTIONS, VALUED), example).toBeUndefined();
      expect(() => parseArgs({ args, options: OPTIONS, allowPositionals: true, strict: true }), example).not.toThrow();
    }
  });
});

describe('asking for help', () => {
  it('is --help or -h anywhere before a lone --', () => {
    expect(asksForHelp(['cursor', '--help'])).toBe(true);
    expect(asksForHelp(['--port', '1', '-h'])).toBe(true);
    expect(asksForHelp(['--bogus', '--help'])).toBe(true);
    expect(asksForHelp(['cursor'])).toBe(false);
    expect(asksForHelp(['--', '--help'])).toBe(false);
  });

  it('is answered for a known command only, as <command> --help or help <command>', () => {
    const printed: string[] = [];
    const write = (text: string): void => void printed.push(text);
    expect(answerCommandHelp(['install', 'cursor', '--stdio', '--help'], write)).toBe(true);
    expect(answerCommandHelp(['help', 'install'], write)).toBe(true);
    expect(printed).toEqual([commandHelp(findSpec('install')!), commandHelp(findSpec('install')!)]);
    // Left to main: the whole usage, an unknown command, help of two commands, no help asked.
    for (const argv of [
      ['help'],
      ['--help'],
      ['instal', '--help'],
      ['help', 'instal'],
      ['help', 'a', 'b'],
      ['install'],
    ]) {
      expect(answerCommandHelp(argv, write), argv.join(' ')).toBe(false);
    }
    expect(printed).toHaveLength(2);
  });

  it('says install and snippet take one --server ID, import several --server NAME', () => {
    const optionLine = (command: string) =>
      commandHelp(findSpec(command)!)
        .split('\n')
        .find((line) => line.startsWith('  --server '));
    expect(optionLine('install')).toMatch(/^ {2}--server ID {2,}Point the client/);
    expect(optionLine('snippet')).toMatch(/^ {2}--server ID {2,}Point the client/);
    expect(commandHelp(findSpec('import')!)).toMatch(/\n {2}--server NAME \.\.\. /);
  });

  it('says an option of another command as not taken, and a typo with the nearest option', () => {
    const install = findSpec('install')!;
    const takes = Object.keys(install.options);
    expect(optionNotTaken('install', ['cursor', '--stdio'], takes, PARSER_OPTIONS, VALUED)).toBe(
      'install does not take --stdio',
    );
    expect(optionNotTaken('install', ['--projet', '.'], takes, PARSER_OPTIONS, VALUED)).toBe(
      'unknown option --projet (did you mean --project?)',
    );
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
