/**
 * `mcp-switchboard config backups` and `config restore [N]`: the kept copies
 * of config.json (see core/platform/config/configBackups.ts), newest first, and putting one back
 * through the same lock and atomic write as every other change.
 */
import { SwitchboardError } from '../../../shared/errors.js';
import { openConfigStore, defaultStateDir } from '../../core/platform/index.js';
import { RUNNING_INSTANCE } from '../optionHelp.js';
import type { CliCommand, CommandSpec } from '../command.js';
import { stdio } from '../io.js';

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

/** Where the command writes. */
export interface ConfigCommandContext {
  /** The config file (the running instance's unless --config was given). */
  config: string;
  stateDir: string;
  out: (text: string) => void;
  err: (text: string) => void;
}

/** Runs `config <action> [N]`; resolves with the exit code. */
export async function configCommand(
  context: ConfigCommandContext,
  action: string | undefined,
  argument: string | undefined,
): Promise<number> {
  const store = openConfigStore(context.config, { stateDir: context.stateDir });
  try {
    if (action === 'backups') {
      const backups = await store.backups();
      if (backups.length === 0) context.out(`no backups of ${context.config} yet\n`);
      for (const backup of backups) {
        context.out(`${String(backup.index).padStart(2)}  ${backup.savedAt}  ${backup.size} bytes  ${backup.path}\n`);
      }
      return 0;
    }
    if (action === 'restore') {
      const index = argument === undefined ? 1 : Number(argument);
      if (!Number.isInteger(index) || index < 1) {
        context.err(`mcp-switchboard: config restore takes a backup number (1 is the newest), not "${argument}"\n`);
        return 2;
      }
      const restored = await store.restore(index);
      context.out(
        `restored ${context.config} from backup ${restored.index} (${restored.savedAt}); the file it replaced is now backup 1\n`,
      );
      return 0;
    }
  } catch (error) {
    if (!(error instanceof SwitchboardError)) throw error;
    context.err(`mcp-switchboard: ${error.message}\n`);
    return 1;
  }
  context.err('usage: mcp-switchboard config backups | config restore [N]\n');
  return 2;
}

/** The `config` command. */
export const configCli: CliCommand = {
  section: 'auth',
  positionals: true,
  commands: configSpecs,
  run: async ({ positionals, runningTarget }) => {
    const context = { config: (await runningTarget(true)).config, stateDir: defaultStateDir(), ...stdio() };
    return configCommand(context, positionals[0], positionals[1]);
  },
};
