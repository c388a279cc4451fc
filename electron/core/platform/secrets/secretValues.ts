/**
 * The values no output may show: every header value of a remote backend,
 * secret-looking env values, secrets inline in URLs and arguments. The audit
 * log, the logs and the CLI redact them (secretForms.ts, redaction.ts).
 */
import { expandMap } from '../config/expand.js';
import { inlineSecrets } from '../config/inlineSecrets.js';
import type { BackendConfig } from '../config/schema.js';
import { plainValues, valueMapsOf } from './resolve.js';

const SECRET_NAME = /token|key|secret|password|passwd|auth|cookie|credential/i;

/**
 * Values that must never reach the audit log: every header value of a remote
 * backend, secret-looking env values of stdio backends, secrets inline in a
 * URL or the arguments (see inlineSecrets.ts), and `extra` (the frontend
 * token, keychain values).
 */
export function secretValues(
  backends: readonly BackendConfig[],
  environment: NodeJS.ProcessEnv,
  extra: string[],
): string[] {
  const values = [...extra];
  for (const backend of backends) {
    for (const { field, values: map } of valueMapsOf(backend)) {
      const raw = plainValues(map);
      let expanded: Record<string, string>;
      try {
        expanded = expandMap(raw, environment, backend.id);
      } catch {
        expanded = raw;
      }
      for (const [name, value] of Object.entries(expanded)) {
        if (field === 'headers' || SECRET_NAME.test(name)) values.push(value);
      }
    }
    // Secrets written into the URL (query, user-info) or the command line (`--token X`).
    values.push(...inlineSecrets(backend));
  }
  return values.filter((value) => value.length > 0);
}

/**
 * `secretValues` for the audit log, which asks on every entry it writes:
 * recomputed only when the backend list (replaced, never mutated, on each
 * change), the extra values or the environment's revision change.
 */
export function cachedSecretValues(
  environment: NodeJS.ProcessEnv,
): (backends: readonly BackendConfig[], extra: string[], environmentRevision?: number) => string[] {
  let last: { backends: readonly BackendConfig[]; extra: string; revision: number; values: string[] } | undefined;
  return (backends, extra, revision = 0) => {
    const key = extra.join('\u0000');
    if (last?.backends !== backends || last.extra !== key || last.revision !== revision) {
      last = { backends, extra: key, revision, values: secretValues(backends, environment, extra) };
    }
    return last.values;
  };
}
