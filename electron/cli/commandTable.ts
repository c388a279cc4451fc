/**
 * Every command of `mcp-switchboard`, in `--help` order. main.ts dispatches
 * through this list and the help is generated from it, so a new command is a
 * module in commands/ and one line here.
 */
import { VERSION } from '../../shared/version.js';
import { defaultConfigPath } from '../core/platform/index.js';
import type { CliCommand, HelpSection } from './command.js';
import { usageLines } from './commandHelp.js';
import { auditCli } from './commands/audit.js';
import { authCli } from './commands/auth.js';
import { checkConfigCli } from './commands/checkConfig.js';
import { clientsCli } from './commands/clients.js';
import { configCli } from './commands/config.js';
import { connectionsCli } from './commands/connections.js';
import { connectCli } from './commands/connect.js';
import { exposureCli } from './commands/exposure.js';
import { profileCli } from './commands/profile.js';
import { overrideCli } from './commands/override.js';
import { registryCli } from './commands/registry.js';
import { reviewCli } from './commands/review.js';
import { sandboxCli } from './commands/sandbox.js';
import { secretCli } from './commands/secret.js';
import { serveCli } from './commands/serve.js';
import { skillsCli } from './commands/skills.js';
import { uiCli } from './commands/ui.js';

/** The commands, in help order within each section. */
export const COMMAND_TABLE: readonly CliCommand[] = [
  serveCli,
  uiCli,
  checkConfigCli,
  connectCli,
  authCli,
  connectionsCli,
  secretCli,
  configCli,
  exposureCli,
  overrideCli,
  reviewCli,
  sandboxCli,
  auditCli,
  clientsCli,
  skillsCli,
  profileCli,
  registryCli,
];

/** The command module answering to `name`, if any. */
export function findCommand(name: string): CliCommand | undefined {
  return COMMAND_TABLE.find((command) => command.commands.some((spec) => spec.name === name));
}

/** Each section's heading in `--help` (an empty one is a blank line). */
const SECTIONS: Record<HelpSection, string> = {
  usage: 'Usage:',
  auth: 'Remote servers with OAuth, and secrets (all in the OS keychain):',
  exposure: '',
  review: 'Quarantine, reviewed changes (ask the running Switchboard) and the audit log:',
  clients: 'Clients (claude-desktop, claude-code, cursor, vscode, windsurf, zed, codex):',
  registry: 'MCP registries (registry.url in the config; default the official MCP Registry):',
};

/** The whole `--help` text. */
export function usageText(): string {
  const lines = [`mcp-switchboard ${VERSION}: many MCP servers, one local MCP endpoint.`];
  for (const [section, heading] of Object.entries(SECTIONS)) {
    lines.push('', ...(heading ? [heading] : []));
    for (const command of COMMAND_TABLE.filter((candidate) => candidate.section === section)) {
      for (const spec of command.commands) {
        lines.push(...usageLines(spec.usage, '  '), ...spec.text.map((line) => `      ${line}`));
      }
    }
  }
  lines.push(
    '',
    `Config: ${defaultConfigPath()} unless --config is given.`,
    "mcp-switchboard help <command> (or <command> --help): that command's options and examples.",
    '',
  );
  return lines.join('\n');
}
