/**
 * What `connect` take and say in `--help`: the one declaration the parser
 * checks options against and the help is printed from. Imports nothing heavy,
 * so `<command> --help` answers before the core loads.
 */
import { DEFAULT_PORT } from '../../../shared/endpoint.js';
import type { CommandSpec } from '../command.js';

/** The command, in help order. */
export const connectSpecs: readonly CommandSpec[] = [
  {
    name: 'connect',
    usage: [`connect [--config FILE] [--port ${DEFAULT_PORT}]`],
    text: [
      'Speak MCP on stdin/stdout, bridged to the running Switchboard (started',
      'headless in the background if none runs). For clients that launch a command.',
    ],
    options: {
      config: "Config of the Switchboard to connect to or start (default: the running one's, else this user's).",
      port: `Port of the Switchboard to connect to or start (default: the running one's, else ${DEFAULT_PORT}).`,
    },
    examples: ['connect', `connect --port ${DEFAULT_PORT}`],
  },
];
