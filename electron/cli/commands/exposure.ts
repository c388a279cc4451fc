/**
 * `mcp-switchboard exposure <client|default> [all|search|search+load|code|auto]`: shows or sets
 * how a client gets its tools (see core/install/clientApps/profileExposure.ts).
 */
import { EXPOSURE_CHOICES, EXPOSURES, isExposure } from '../../../shared/model/exposure.js';
import { readProfileExposure, writeProfileExposure } from '../../core/install/index.js';
import { RUNNING_INSTANCE } from '../optionHelp.js';
import type { CliCommand, CommandSpec } from '../command.js';
import { fail, stdio, type Write } from '../io.js';

/** The command, in help order. */
export const exposureSpecs: readonly CommandSpec[] = [
  {
    name: 'exposure',
    usage: ['exposure <client|default> [all|search|search+load|code|auto] [--config FILE]'],
    text: [
      'Show or set how a client gets its tools: all of them, or search_tools and call_tool',
      '(search), or all while they fit its maxTools/maxToolTokens and search beyond (auto).',
    ],
    options: { ...RUNNING_INSTANCE },
    examples: ['exposure cursor', 'exposure cursor search', 'exposure default auto'],
  },
];

const USAGE = `usage: mcp-switchboard exposure <client|default> [${EXPOSURES.join('|')}]\n`;

/** What the command needs from the CLI. */
export interface ExposureCommandContext {
  configPath: string;
  out: Write;
  err: Write;
}

/** Runs the command; resolves to the exit code (2 for a usage error). */
export async function exposureCommand(
  context: ExposureCommandContext,
  client: string | undefined,
  mode: string | undefined,
): Promise<0 | 1 | 2> {
  if (!client) {
    context.err(USAGE);
    return 2;
  }
  if (mode !== undefined && !isExposure(mode)) {
    context.err(`mcp-switchboard: exposure must be ${EXPOSURE_CHOICES}, not "${mode}"\n${USAGE}`);
    return 2;
  }
  const setting = await readProfileExposure(context.configPath, client);
  if (!setting.found) {
    context.err(`mcp-switchboard: no client profile "${client}" (known: ${setting.known.join(', ') || 'none'})\n`);
    return 1;
  }
  const current = setting.own ?? (client === 'default' ? 'all' : `default (${setting.fallback})`);
  if (mode === undefined) {
    context.out(`${client}: ${current}\n`);
    return 0;
  }
  await writeProfileExposure(context.configPath, client, mode);
  context.out(`${client}: ${mode} (was ${current})\n`);
  return 0;
}

/** The `exposure` command. */
export const exposureCli: CliCommand = {
  section: 'exposure',
  positionals: true,
  commands: exposureSpecs,
  run: async ({ positionals, runningTarget }) => {
    const context = { configPath: (await runningTarget(true)).config, ...stdio() };
    return exposureCommand(context, positionals[0], positionals[1]).catch((e: Error) => fail(e.message));
  },
};
