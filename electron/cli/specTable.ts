/**
 * Every command's declaration (name, usage, options, examples), in `--help`
 * order, without the code that runs them: `<command> --help` and the
 * argument errors find a command here without loading the core. commandTable.ts
 * pairs each with how it runs (a unit test keeps the two lists the same).
 */
import type { CommandSpec } from './command.js';
import { auditSpecs } from './commandSpecs/audit.js';
import { authSpecs } from './commandSpecs/auth.js';
import { checkConfigSpecs } from './commandSpecs/checkConfig.js';
import { clientsSpecs } from './commandSpecs/clients.js';
import { configSpecs } from './commandSpecs/config.js';
import { connectionsSpecs } from './commandSpecs/connections.js';
import { connectSpecs } from './commandSpecs/connect.js';
import { exposureSpecs } from './commandSpecs/exposure.js';
import { profileSpecs } from './commandSpecs/profile.js';
import { overrideSpecs } from './commandSpecs/override.js';
import { registrySpecs } from './commandSpecs/registry.js';
import { reviewSpecs } from './commandSpecs/review.js';
import { secretSpecs } from './commandSpecs/secret.js';
import { serveSpecs } from './commandSpecs/serve.js';
import { uiSpecs } from './commandSpecs/ui.js';

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
  ...auditSpecs,
  ...clientsSpecs,
  ...profileSpecs,
  ...registrySpecs,
];

/** Every command name `mcp-switchboard` knows, in help order. */
export const COMMAND_NAMES: readonly string[] = COMMAND_SPECS.map((spec) => spec.name);

/** The declaration of the command `name` (its options and help), if any. */
export function findSpec(name: string): CommandSpec | undefined {
  return COMMAND_SPECS.find((spec) => spec.name === name);
}
