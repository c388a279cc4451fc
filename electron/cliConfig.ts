/**
 * The CLI's config-side pieces: loading the config or exiting with one line
 * per problem, `check-config`, the keychain it uses, and the redaction every
 * CLI output passes (see core/secrets/redaction.ts).
 */
import { formatProblems, loadConfigFile } from './core/config/load.js';
import { commandWarnings } from './core/config/commandCheck.js';
import { missingVariables } from './core/config/expand.js';
import type { SwitchboardConfig } from './core/config/schema.js';
import { KeytarStore } from './core/secrets/keytarStore.js';
import { createRedaction, type Redaction } from './core/secrets/redaction.js';
import { plainValues, unresolvedSecrets, valueMapOf } from './core/secrets/resolve.js';

/** The keychain; SWITCHBOARD_KEYCHAIN_SERVICE names another service (tests, several installs). */
export function keychain(): KeytarStore {
  const service = process.env['SWITCHBOARD_KEYCHAIN_SERVICE'];
  return new KeytarStore(service ? { service } : {});
}

/** CLI output's redaction: the config's secrets, this environment's, and keychain values read so far. */
export function cliRedaction(config: SwitchboardConfig | undefined, store?: KeytarStore): Redaction {
  const backends = config?.backends ?? [];
  return createRedaction({
    backends: () => backends,
    environment: process.env,
    extra: () => store?.knownValues() ?? [],
  });
}

/** The validated config at `path`, or exit 1 after one line per problem. */
export async function loadOrExit(path: string, allowMissing: boolean): Promise<SwitchboardConfig> {
  const result = await loadConfigFile(path, { allowMissing });
  if (!result.ok) {
    const err = cliRedaction(undefined).writer((text) => void process.stderr.write(text));
    for (const line of formatProblems(result.error.path, result.error.problems)) err(`${line}\n`);
    process.exit(1);
  }
  return result.result.config;
}

/** `check-config`: validation plus environment variables that are referenced but unset. */
export async function checkConfig(path: string): Promise<void> {
  const config = await loadOrExit(path, false);
  const problems: string[] = [];
  for (const backend of config.backends) {
    const { field, values } = valueMapOf(backend);
    for (const [key, value] of Object.entries(plainValues(values))) {
      for (const name of missingVariables(value, process.env)) {
        problems.push(`${path}: mcpServers.${backend.id}.${field}.${key}: environment variable \${${name}} is not set`);
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

/**
 * Says once, at `serve` start, that keytar cannot be loaded and what to do
 * (otherwise it would surface only when a secret or a sign-in is needed).
 */
export async function warnIfNoKeytar(warn: (message: string) => void): Promise<void> {
  const problem = await keychain().loadProblem();
  if (problem)
    warn(`the OS keychain is not available: ${problem}. {"secret": ...} values and OAuth sign-in fail until it is.`);
}
