/**
 * The CLI's config-side pieces: loading the config or exiting with one line
 * per problem, the keychain it uses, and the redaction every CLI output
 * passes (see core/platform/secrets/redaction.ts).
 */
import {
  formatProblems,
  loadConfigFile,
  type SwitchboardConfig,
  KeytarStore,
  createRedaction,
  type Redaction,
} from '../core/platform/index.js';

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

/**
 * Says once, at `serve` start, that keytar cannot be loaded and what to do
 * (otherwise it would surface only when a secret or a sign-in is needed).
 */
export async function warnIfNoKeytar(warn: (message: string) => void): Promise<void> {
  const problem = await keychain().loadProblem();
  if (problem)
    warn(`the OS keychain is not available: ${problem}. {"secret": ...} values and OAuth sign-in fail until it is.`);
}
