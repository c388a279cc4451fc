/**
 * What `check-config` take and say in `--help`: the one declaration the parser
 * checks options against and the help is printed from. Imports nothing heavy,
 * so `<command> --help` answers before the core loads.
 */
import type { CommandSpec } from '../command.js';
import { CONFIG_FILE } from '../optionHelp.js';

/** The command, in help order. */
export const checkConfigSpecs: readonly CommandSpec[] = [
  {
    name: 'check-config',
    usage: ['check-config [--config FILE]'],
    text: ['Validate the config; print one line per problem and exit 1 if there are any.'],
    options: { ...CONFIG_FILE },
    examples: ['check-config', 'check-config --config ./switchboard.json'],
  },
];
