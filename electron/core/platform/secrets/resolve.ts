/**
 * Resolving a backend's env and header values at connect time: `${VAR}`
 * strings are expanded from the environment, `{"secret": NAME}` references
 * are read from the keychain. A failure names the field and the secret, never
 * a value, and fails only that backend.
 */
import { ErrorCode, SwitchboardError } from '../../../../shared/errors.js';
import { expandMap } from '../config/expand.js';
import type { BackendConfig } from '../config/schema.js';
import type { Logger } from '../deps.js';
import { isSecretReference, type ConfigValue, type SecretStore } from './secretStore.js';

/** One value map of a backend and the path of its field. */
export interface ValueMap {
  field: 'env' | 'headers' | 'launch.env';
  values: Record<string, ConfigValue>;
}

/** A backend's env (stdio), or headers (remote) and the env of the server it launches (`launch.env`). */
export function valueMapsOf(backend: BackendConfig): ValueMap[] {
  if (backend.transport === 'stdio') return [{ field: 'env', values: backend.env }];
  const headers: ValueMap = { field: 'headers', values: backend.headers };
  return backend.launch ? [headers, { field: 'launch.env', values: backend.launch.env }] : [headers];
}

/** Names of the secrets a backend refers to (env, headers, OAuth client secret), each once. */
export function secretNames(backend: BackendConfig): string[] {
  const names = new Set<string>();
  for (const { values } of valueMapsOf(backend)) {
    for (const value of Object.values(values)) if (isSecretReference(value)) names.add(value.secret);
  }
  if (backend.transport !== 'stdio' && backend.oauth?.clientSecret) names.add(backend.oauth.clientSecret.secret);
  const exchangeSecret = backend.transport !== 'stdio' ? backend.tokenExchange?.clientSecret : undefined;
  if (isSecretReference(exchangeSecret)) names.add(exchangeSecret.secret);
  return [...names];
}

/** The string values of a map (secret references left out), e.g. for `${VAR}` checks. */
export function plainValues(values: Record<string, ConfigValue>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(values)) if (typeof value === 'string') out[key] = value;
  return out;
}

/**
 * Resolves every value of a map. Throws `config_invalid` naming the field
 * when a variable is unset, a secret is missing or the keychain is not
 * available (there is no fallback).
 */
export async function resolveValues(
  values: Record<string, ConfigValue>,
  environment: NodeJS.ProcessEnv,
  secrets: SecretStore | undefined,
  fieldPath: string,
): Promise<Record<string, string>> {
  const out = expandMap(plainValues(values), environment, fieldPath);
  for (const [key, value] of Object.entries(values)) {
    if (!isSecretReference(value)) continue;
    const field = `${fieldPath}.${key}`;
    const details = { field, secret: value.secret };
    if (!secrets) {
      throw new SwitchboardError(
        ErrorCode.ConfigInvalid,
        `${field}: secret "${value.secret}" cannot be read: the OS keychain is not available: no secret store is configured`,
        details,
      );
    }
    let resolved: string | undefined;
    try {
      resolved = await secrets.get(value.secret);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new SwitchboardError(
        ErrorCode.ConfigInvalid,
        `${field}: secret "${value.secret}" cannot be read: the OS keychain is not available: ${reason}`,
        details,
      );
    }
    if (resolved === undefined) {
      throw new SwitchboardError(
        ErrorCode.ConfigInvalid,
        `${field}: secret "${value.secret}" is not in the OS keychain`,
        details,
      );
    }
    out[key] = resolved;
  }
  return out;
}

/** One line per secret reference of the config that cannot be resolved (for `check-config`). */
export async function unresolvedSecrets(backends: BackendConfig[], secrets: SecretStore): Promise<string[]> {
  const problems: string[] = [];
  const referenced = backends.filter((backend) => secretNames(backend).length > 0);
  if (referenced.length === 0) return problems;
  const status = await secrets.status();
  for (const backend of referenced) {
    for (const [key, value] of valueMapsOf(backend).flatMap(({ field, values }) =>
      Object.entries(values).map(([name, v]) => [`${field}.${name}`, v] as const),
    )) {
      if (!isSecretReference(value)) continue;
      const path = `mcpServers.${backend.id}.${key}`;
      if (!status.available) {
        problems.push(`${path}: secret "${value.secret}": the OS keychain is not available: ${status.reason ?? ''}`);
      } else if ((await secrets.get(value.secret).catch(() => undefined)) === undefined) {
        problems.push(`${path}: secret "${value.secret}" is not in the OS keychain`);
      }
    }
  }
  return problems;
}

/**
 * Deletes the secrets `removed` referred to that none of `remaining` does; a
 * failure is logged by secret name only.
 */
export async function deleteUnreferenced(
  secrets: SecretStore | undefined,
  removed: BackendConfig,
  remaining: BackendConfig[],
  logger: Logger,
): Promise<void> {
  if (!secrets) return;
  const used = new Set(remaining.flatMap((backend) => secretNames(backend)));
  for (const name of secretNames(removed).filter((candidate) => !used.has(candidate))) {
    await secrets.delete(name).catch((error: unknown) => {
      const reason = error instanceof Error ? error.message : String(error);
      logger.warn(`could not delete secret "${name}" from the OS keychain: ${reason}`);
    });
  }
}
