/**
 * What `exposure` take and say in `--help`: the one declaration the parser
 * checks options against and the help is printed from. Imports nothing heavy,
 * so `<command> --help` answers before the core loads.
 */
import type { CommandSpec } from '../command.js';
import { RUNNING_INSTANCE } from '../optionHelp.js';

/** The command, in help order. */
export const exposureSpecs: readonly CommandSpec[] = [
  {
    name: 'exposure',
    usage: ['exposure <client|default> [all|search|search+load|auto] [--config FILE]'],
    text: [
      'Show or set how a client gets its tools: all of them, or search_tools and call_tool',
      '(search), or all while they fit its maxTools/maxToolTokens and search beyond (auto).',
    ],
    options: { ...RUNNING_INSTANCE },
    examples: ['exposure cursor', 'exposure cursor search', 'exposure default auto'],
  },
];
