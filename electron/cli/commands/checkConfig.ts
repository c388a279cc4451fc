/**
 * `mcp-switchboard check-config`: validates the config, then says which
 * environment variables and keychain secrets it references are missing, one
 * line per problem (exit 1 when there are any).
 */
import { commandWarnings } from '../../core/backends/index.js';
import { missingVariables, plainValues, unresolvedSecrets, valueMapsOf } from '../../core/platform/index.js';
import { cliRedaction, keychain, loadOrExit } from '../cliConfig.js';
import { CONFIG_FILE } from '../optionHelp.js';
import type { CliCommand, CommandSpec } from '../command.js';

/** The command, in help order. */
export const checkConfigSpecs: readonly CommandSpec[] = [
  {
    name: 'check-config',
    usage: ['check-config [--config FILE]'],
    text: ['Validate the config; print one line per problem and exit 1 if there are any.'],
    options: { ...CONFIG_FILE },
    examples: ['check-config', 'check-config --config ./switchboard.json'],
  },
];

/** `check-config`: validation plus environment variables that are referenced but unset. */
async function checkConfig(path: string): Promise<void> {
  const config = await loadOrExit(path, false);
  const problems: string[] = [];
  for (const backend of config.backends) {
    for (const { field, values } of valueMapsOf(backend)) {
      for (const [key, value] of Object.entries(plainValues(values))) {
        for (const name of missingVariables(value, process.env)) {
          problems.push(
            `${path}: mcpServers.${backend.id}.${field}.${key}: environment variable \${${name}} is not set`,
          );
        }
      }
    }
  }
  const store = keychain();
  for (const line of await unresolvedSecrets(config.backends, store)) problems.push(`${path}: ${line}`);
  if (config.backends.length > config.proxy.maxBackends) {
    problems.push(
      `${path}: mcpServers: ${config.backends.length} backends exceed proxy.maxBackends (${config.proxy.maxBackends})`,
    );
  }
  const err = cliRedaction(config, store).writer((text) => void process.stderr.write(text));
  for (const line of commandWarnings(config, process.env)) err(`${path}: warning: ${line}\n`);
  for (const line of problems) err(`${line}\n`);
  if (problems.length > 0) process.exit(1);
  process.stdout.write(`${path}: OK (${config.backends.length} backends)\n`);
}

/** The `check-config` command. */
export const checkConfigCli: CliCommand = {
  section: 'usage',
  positionals: false,
  commands: checkConfigSpecs,
  run: ({ config }) => checkConfig(config),
};
