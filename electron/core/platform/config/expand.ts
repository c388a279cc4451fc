/**
 * `${VAR}` and `${VAR:-default}` expansion for env values and headers, the way
 * Claude Code expands them. Expansion happens at connect time, so a missing
 * variable fails only the backend that needs it.
 */
import { ErrorCode, SwitchboardError } from '../../../../shared/errors.js';

const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/** Names of the variables a value refers to that are not set and have no default. */
export function missingVariables(value: string, environment: NodeJS.ProcessEnv): string[] {
  const missing: string[] = [];
  for (const match of value.matchAll(REFERENCE)) {
    const [, name, fallback] = match;
    if (name !== undefined && environment[name] === undefined && fallback === undefined) missing.push(name);
  }
  return missing;
}

/**
 * Expands every value of a map. Throws `config_invalid` naming the field
 * (e.g. `mcpServers.github.env.GITHUB_TOKEN`) when a variable is not set.
 */
export function expandMap(
  values: Record<string, string>,
  environment: NodeJS.ProcessEnv,
  fieldPath: string,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(values)) {
    const missing = missingVariables(value, environment);
    if (missing.length > 0) {
      throw new SwitchboardError(
        ErrorCode.ConfigInvalid,
        `${fieldPath}.${key}: environment variable ${missing.map((name) => `\${${name}}`).join(', ')} is not set`,
        { field: `${fieldPath}.${key}`, missing },
      );
    }
    out[key] = value.replace(
      REFERENCE,
      (_all, name: string, fallback: string | undefined) => environment[name] ?? fallback ?? '',
    );
  }
  return out;
}
