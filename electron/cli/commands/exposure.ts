/**
 * `mcp-switchboard exposure <client|default> [all|search|search+load|auto]`: shows or sets
 * how a client gets its tools (see core/install/clientApps/profileExposure.ts).
 */
import { EXPOSURE_CHOICES, EXPOSURES, isExposure } from '../../../shared/model/exposure.js';
import { readProfileExposure, writeProfileExposure } from '../../core/install/index.js';
import { exposureSpecs } from '../commandSpecs/exposure.js';
import type { CliCommand } from '../command.js';
import { fail, stdio, type Write } from '../io.js';

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
