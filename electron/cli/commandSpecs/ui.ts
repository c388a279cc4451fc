/**
 * What `ui` take and say in `--help`: the one declaration the parser checks
 * options against and the help is printed from. Imports nothing heavy, so
 * `<command> --help` answers before the core loads.
 */
import type { CommandSpec } from '../command.js';

/** The command, in help order. */
export const uiSpecs: readonly CommandSpec[] = [
  {
    name: 'ui',
    usage: ['ui [--no-browser]'],
    text: ["Print (and open) a fresh one-time login link to the running Switchboard's UI."],
    options: { 'no-browser': 'Only print the link; do not open a browser.' },
    examples: ['ui', 'ui --no-browser'],
  },
];
