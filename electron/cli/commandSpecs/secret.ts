/**
 * What `secret` take and say in `--help`: the one declaration the parser
 * checks options against and the help is printed from. Imports nothing heavy,
 * so `<command> --help` answers before the core loads.
 */
import type { CommandSpec } from '../command.js';

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
