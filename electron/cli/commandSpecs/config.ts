/**
 * What `config` take and say in `--help`: the one declaration the parser
 * checks options against and the help is printed from. Imports nothing heavy,
 * so `<command> --help` answers before the core loads.
 */
import type { CommandSpec } from '../command.js';
import { RUNNING_INSTANCE } from '../optionHelp.js';

/** The command, in help order. */
export const configSpecs: readonly CommandSpec[] = [
  {
    name: 'config',
    usage: ['config backups | config restore [N] [--config FILE]'],
    text: ['The last 20 copies of the config kept before each write (1 is the newest); restore puts one back.'],
    options: { ...RUNNING_INSTANCE },
    examples: ['config backups', 'config restore 2'],
  },
];
