/**
 * What `connections` takes and says in `--help`: the one declaration the
 * parser checks options against and the help is printed from. Imports
 * nothing heavy, so `connections --help` answers before the core loads.
 */
import type { CommandSpec } from '../command.js';
import { JSON_OUTPUT } from '../optionHelp.js';

/** The command. */
export const connectionsSpecs: readonly CommandSpec[] = [
  {
    name: 'connections',
    usage: ['connections [--revoke <server>] [--json]'],
    text: [
      'Your own connections to servers with per-caller credentials, as the running Switchboard',
      'holds them: signed in or not (with your sign-in link), expiry and scope; --revoke forgets one.',
    ],
    options: {
      revoke: 'Forget your tokens for this server and close your connection to it.',
      ...JSON_OUTPUT,
    },
    examples: ['connections', 'connections --revoke github', 'connections --json'],
  },
];
