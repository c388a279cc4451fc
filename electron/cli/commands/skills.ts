/**
 * `mcp-switchboard skills install|uninstall <client>`: writes the skills
 * (SEP-2640) a client's profile may use into the folder that client reads
 * skills from (Claude Code's ~/.claude/skills, ...), through the running
 * Switchboard, or removes the ones we wrote (core/install/clientApps/skillsInstall.ts).
 * The running Switchboard keeps what was installed in sync from then on.
 */
import {
  defaultClientsContext,
  installSkills,
  isSkillsClient,
  SKILLS_CLIENTS,
  uninstallSkills,
} from '../../core/install/index.js';
import { RUNNING_INSTANCE } from '../optionHelp.js';
import type { CliCommand, CommandSpec } from '../command.js';
import { fail, selfLauncher, stdio } from '../io.js';

/** The command, in help order. */
export const skillsSpecs: readonly CommandSpec[] = [
  {
    name: 'skills',
    usage: ['skills install|uninstall <client> [--config FILE] [--port N]'],
    text: [
      "install: write the skills the client's profile may use into its skills folder, each file verified",
      'by its digest, and keep them in sync while Switchboard runs; uninstall: remove only the ones we wrote.',
      `Clients: ${SKILLS_CLIENTS.join(', ')} (folders: docs/skills.md).`,
    ],
    options: { ...RUNNING_INSTANCE },
    examples: ['skills install claude-code', 'skills install codex', 'skills uninstall claude-code'],
  },
];

const USAGE = 'usage: mcp-switchboard skills install|uninstall <client>\n';

/** The `skills` command. */
export const skillsCli: CliCommand = {
  section: 'clients',
  positionals: true,
  commands: skillsSpecs,
  run: async ({ positionals, runningTarget }) => {
    const { out, err } = stdio();
    const [action, client] = positionals;
    if ((action !== 'install' && action !== 'uninstall') || client === undefined) {
      err(USAGE);
      return 2;
    }
    if (!isSkillsClient(client)) {
      return fail(`${client} reads no skills from disk; skills install supports: ${SKILLS_CLIENTS.join(', ')}`);
    }
    const target = await runningTarget(true);
    const ctx = defaultClientsContext({
      port: target.port,
      launcher: selfLauncher(),
      switchboardConfig: target.config,
    });
    try {
      if (action === 'uninstall') {
        const { folder, removed } = await uninstallSkills(ctx, client);
        out(`${removed.length} skill(s) removed from ${folder}${removed.length ? `: ${removed.join(', ')}` : ''}\n`);
        return 0;
      }
      const outcome = await installSkills(ctx, client, { signal: AbortSignal.timeout(120_000) });
      out(
        `${outcome.folder}: ${outcome.installed.length} skill(s) written${outcome.installed.length ? `: ${outcome.installed.join(', ')}` : ''}\n`,
      );
      if (outcome.unchanged.length) out(`unchanged: ${outcome.unchanged.join(', ')}\n`);
      if (outcome.removed.length) out(`removed (no longer offered): ${outcome.removed.join(', ')}\n`);
      for (const skipped of outcome.skipped) out(`skipped ${skipped.name}: ${skipped.reason}\n`);
      return 0;
    } catch (error) {
      err(`mcp-switchboard: ${error instanceof Error ? error.message : String(error)}\n`);
      return 1;
    }
  },
};
