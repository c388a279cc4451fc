/**
 * `connections [--revoke <server>]`: the calling user's connections to
 * servers with per-caller credentials. It asks the running Switchboard (the
 * tokens, the sign-in links and the upstream connections are its), over its
 * UI bridge with the main token, and says so when none runs.
 */
import type { ConnectionView } from '../../../shared/model/connectionViews.js';
import { defaultConfigDir, defaultStateDir } from '../../core/platform/index.js';
import { JSON_OUTPUT } from '../optionHelp.js';
import type { CliCommand, CommandSpec } from '../command.js';
import { askRunning, type RunningCommandContext } from '../askRunning.js';
import { stdio } from '../io.js';
import { callRunning } from '../runningBridge.js';

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

/** What the command needs from the CLI. */
export type ConnectionsCommandContext = RunningCommandContext;

/** One connection as a line for people. */
export function connectionLine(view: ConnectionView): string {
  if (!view.connected) {
    return `${view.server}: not signed in${view.signInUrl ? `; sign in at ${view.signInUrl}` : ''}`;
  }
  const parts = [`${view.server}: signed in`];
  if (view.expiresAt) parts.push(`token expires ${view.expiresAt}`);
  if (view.scope) parts.push(`scope "${view.scope}"`);
  return parts.join(', ');
}

/** `connections [--revoke <server>] [--json]`. */
export async function connectionsCommand(
  context: ConnectionsCommandContext,
  options: { revoke?: string | undefined; json: boolean },
): Promise<number> {
  if (options.revoke !== undefined) {
    const result = await askRunning(context, 'connections.revoke', { server: options.revoke });
    if (!result) return 1;
    if (options.json) context.out(`${JSON.stringify(result)}\n`);
    else context.out(`${options.revoke}: ${result.revoked ? 'your tokens are forgotten' : 'you were not signed in'}\n`);
    return 0;
  }
  const views = await askRunning(context, 'connections.list');
  if (!views) return 1;
  if (options.json) context.out(`${JSON.stringify(views, null, 2)}\n`);
  else if (views.length === 0) context.out('no server has per-caller credentials\n');
  else context.out(`${views.map(connectionLine).join('\n')}\n`);
  return 0;
}

/** The `connections` command. */
export const connectionsCli: CliCommand = {
  section: 'auth',
  positionals: false,
  commands: connectionsSpecs,
  run: async ({ values }) => {
    const context: ConnectionsCommandContext = {
      ...stdio(),
      call: (method, params) =>
        callRunning(
          { stateDir: defaultStateDir(), configDir: defaultConfigDir(), environment: process.env },
          method,
          params,
        ),
    };
    return connectionsCommand(context, { revoke: values.revoke, json: values.json });
  },
};
