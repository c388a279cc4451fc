/**
 * `connections [--revoke <server>]`: the calling user's connections to
 * servers with per-caller credentials; with `--all`, everyone's (who, since
 * when, expiry: the operator's view of a team gateway), and `--revoke
 * <server> --caller <key>` revokes one person's. It asks the running
 * Switchboard (the tokens, the sign-in links and the upstream connections are
 * its), over its UI bridge with the main token, and says so when none runs.
 */
import type { CallerConnectionView, ConnectionView } from '../../../shared/model/connectionViews.js';
import { JSON_OUTPUT } from '../optionHelp.js';
import type { CliCommand, CommandSpec } from '../command.js';
import { askRunning, type RunningCommandContext } from '../askRunning.js';
import { stdio } from '../io.js';
import { callUsersRunning } from '../runningBridge.js';

/** The command. */
export const connectionsSpecs: readonly CommandSpec[] = [
  {
    name: 'connections',
    usage: [
      'connections [--revoke <server>] [--json]',
      'connections --all [--json] | --revoke <server> --caller <key>',
    ],
    text: [
      'Your own connections to servers with per-caller credentials, as the running Switchboard',
      'holds them: signed in or not (with your sign-in link), expiry and scope; --revoke forgets one.',
      "--all lists everyone's (a team gateway's people: who, since when, expiry; never a token);",
      "--revoke with --caller forgets that person's tokens (the key --all shows) and closes their connection.",
    ],
    options: {
      revoke: "Forget your tokens for this server (with --caller: that caller's) and close the connection.",
      all: "Everyone's connections, not only yours.",
      caller: 'With --revoke: whose tokens to forget (a key from connections --all).',
      ...JSON_OUTPUT,
    },
    examples: [
      'connections',
      'connections --revoke github',
      'connections --all',
      'connections --revoke github --caller "principal:https://login.example.com#alice"',
    ],
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

/** One caller's connection as a line for an operator. */
export function callerLine(view: CallerConnectionView): string {
  const parts = [`${view.server}: ${view.person}`];
  if (view.since) parts.push(`since ${view.since}`);
  if (view.expiresAt) parts.push(`token expires ${view.expiresAt}`);
  if (view.scope) parts.push(`scope "${view.scope}"`);
  return `${parts.join(', ')}\n  caller ${view.caller}`;
}

/** `connections [--all] [--revoke <server> [--caller <key>]] [--json]`. */
export async function connectionsCommand(
  context: ConnectionsCommandContext,
  options: { revoke?: string | undefined; caller?: string | undefined; all: boolean; json: boolean },
): Promise<number> {
  if (options.caller !== undefined && options.revoke === undefined) {
    context.err('--caller goes with --revoke <server> (see connections --all for the keys)\n');
    return 2;
  }
  if (options.revoke !== undefined && options.caller !== undefined) {
    const params = { server: options.revoke, caller: options.caller };
    const result = await askRunning(context, 'connections.revokeCaller', params);
    if (!result) return 1;
    if (options.json) context.out(`${JSON.stringify(result)}\n`);
    else
      context.out(
        `${options.revoke}: ${result.revoked ? `the tokens of ${options.caller} are forgotten` : `${options.caller} was not signed in`}\n`,
      );
    return 0;
  }
  if (options.all) {
    const everyone = await askRunning(context, 'connections.everyone');
    if (!everyone) return 1;
    if (options.json) context.out(`${JSON.stringify(everyone, null, 2)}\n`);
    else if (everyone.length === 0) context.out('nobody is signed in to a server with per-caller credentials\n');
    else context.out(`${everyone.map(callerLine).join('\n')}\n`);
    return 0;
  }
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
      call: callUsersRunning,
    };
    return connectionsCommand(context, {
      revoke: values.revoke,
      caller: values.caller,
      all: values.all,
      json: values.json,
    });
  },
};
