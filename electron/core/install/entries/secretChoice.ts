/**
 * Where a registry entry's secrets go when there is no OS keychain: the user
 * chooses (the UI asks), between a `${VAR}` reference they set in the
 * environment Switchboard starts with (nothing secret written anywhere), and
 * the value itself in config.json in plain text (with a warning). Asking is
 * an error that names the variables each secret would become, raised before
 * anything is written.
 */
import { ErrorCode, SwitchboardError } from '../../../../shared/errors.js';
import { environmentReferenceSink, type SecretSink } from '../clientApps/secrets.js';

/** What the user chose for secrets without a keychain. */
export type SecretStorage = 'reference' | 'config';

/** The sink that keeps each value in config.json as it is (the user chose so, warned). */
export const plainConfigSink: SecretSink = {
  async keep({ value }) {
    return { replacement: value, reference: 'config.json (plain text)', resolves: true };
  },
};

/** The sink for `storage`, without a keychain. */
export function sinkWithoutKeychain(storage: SecretStorage, environment: NodeJS.ProcessEnv): SecretSink {
  return storage === 'config' ? plainConfigSink : environmentReferenceSink(environment);
}

/**
 * The refusal that asks the user to choose, naming for each secret the
 * variable it would become (`data.variables`: `{field, variable, set}`).
 */
export async function secretChoiceNeeded(
  backendId: string,
  secrets: { field: 'env' | 'headers'; name: string; value: string }[],
  environment: NodeJS.ProcessEnv,
): Promise<SwitchboardError> {
  const sink = environmentReferenceSink(environment);
  const variables = [];
  for (const secret of secrets) {
    const kept = await sink.keep({ backendId, ...secret });
    const variable = kept.reference.replace(/^\$\{|\}$/g, '');
    variables.push({ field: `${secret.field}.${secret.name}`, variable, set: environment[variable] !== undefined });
  }
  return new SwitchboardError(
    ErrorCode.InputInvalid,
    `there is no OS keychain for ${variables.map((v) => v.field).join(', ')}: choose an environment variable (${variables
      .map((v) => v.variable)
      .join(', ')}) or keeping it in config.json in plain text`,
    { field: 'secretStorage', variables },
  );
}
