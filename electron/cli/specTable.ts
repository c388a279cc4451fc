/**
 * Every command's declaration (name, usage, options, examples), in `--help`
 * order, as each command's module exports it beside its handler. bin/ answers
 * `<command> --help` from this list through dist/cli/help.js, a build of its own
 * that keeps the declarations and leaves the handlers and the core out
 * (build/vite.help.config.ts). commandTable.ts pairs each with how it runs (a
 * unit test keeps the two lists the same).
 */
import type { CommandSpec } from './command.js';
import { auditSpecs } from './commands/audit.js';
import { authSpecs } from './commands/auth.js';
import { checkConfigSpecs } from './commands/checkConfig.js';
import { clientsSpecs } from './commands/clients.js';
import { configSpecs } from './commands/config.js';
import { connectionsSpecs } from './commands/connections.js';
import { connectSpecs } from './commands/connect.js';
import { exposureSpecs } from './commands/exposure.js';
import { profileSpecs } from './commands/profile.js';
import { overrideSpecs } from './commands/override.js';
import { registrySpecs } from './commands/registry.js';
import { reviewSpecs } from './commands/review.js';
import { sandboxSpecs } from './commands/sandbox.js';
import { secretSpecs } from './commands/secret.js';
import { serveSpecs } from './commands/serve.js';
import { skillsSpecs } from './commands/skills.js';
import { uiSpecs } from './commands/ui.js';

/** Every command, in help order. */
export const COMMAND_SPECS: readonly CommandSpec[] = [
  ...serveSpecs,
  ...uiSpecs,
  ...checkConfigSpecs,
  ...connectSpecs,
  ...authSpecs,
  ...connectionsSpecs,
  ...secretSpecs,
  ...configSpecs,
  ...exposureSpecs,
  ...overrideSpecs,
  ...reviewSpecs,
  ...sandboxSpecs,
  ...auditSpecs,
  ...clientsSpecs,
  ...skillsSpecs,
  ...profileSpecs,
  ...registrySpecs,
];

/** Every command name `mcp-switchboard` knows, in help order. */
export const COMMAND_NAMES: readonly string[] = COMMAND_SPECS.map((spec) => spec.name);

/** The declaration of the command `name` (its options and help), if any. */
export function findSpec(name: string): CommandSpec | undefined {
  return COMMAND_SPECS.find((spec) => spec.name === name);
}
