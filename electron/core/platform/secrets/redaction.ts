/**
 * The one redaction step of a process: every secret it knows (keychain values
 * it read or wrote, OAuth tokens, the frontend token, every header value and
 * secret-looking env value of the backends in force, secrets inline in URLs
 * and arguments, secret-looking variables of its own environment), with their
 * variants (secretVariants.ts) and well-known token shapes, taken out of
 * whatever reaches a sink: the audit log, both UI pipes (bridge and IPC), the
 * log, and CLI output (`doctor`, `auth-status`, `check-config`, `--json`
 * included). Each sink asks at the moment it writes, so a secret learned later
 * (a keychain read, a backend added at runtime) is covered from then on.
 */
import { expandMap } from '../config/expand.js';
import { inlineSecrets } from '../config/inlineSecrets.js';
import type { BackendConfig } from '../config/schema.js';
import type { Logger } from '../deps.js';
import { plainValues, valueMapsOf } from './resolve.js';
import { cachedSecretForms, redactDeep, redactText } from './secretForms.js';

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
function cachedSecretValues(
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

/** Names of this process's own variables whose values are credentials (`GITHUB_TOKEN`, `OPENAI_API_KEY`). */
const ENV_SECRET_NAME = /(^|_)(TOKEN|SECRET|PASSWORD|PASSWD|API_?KEY|ACCESS_?KEY|PRIVATE_?KEY|CREDENTIALS?|PAT)(_|$)/i;

/** Values of secret-looking variables in `environment` (including `SWITCHBOARD_TOKEN`, `SWITCHBOARD_CLIENT_TOKEN`). */
export function environmentSecrets(environment: NodeJS.ProcessEnv): string[] {
  return Object.entries(environment)
    .filter(([name, value]) => value !== undefined && ENV_SECRET_NAME.test(name))
    .map(([, value]) => value as string);
}

/** Where a redaction learns the secrets; each is asked again whenever a sink writes. */
export interface RedactionHost {
  /** The backends in force (a new array on each change, so a cache can tell). */
  backends: () => readonly BackendConfig[];
  environment: NodeJS.ProcessEnv;
  /** Counts the changes of `environment` (the login shell's variables arrive after start: StdioPath). */
  environmentRevision?: () => number;
  /** Further values: the frontend token, the keychain's known values. */
  extra?: () => string[];
}

/** The redaction step every sink of one process goes through. */
export interface Redaction {
  /** Every secret value known now (cached: the same array until one changes). */
  values(): string[];
  /** A JSON value with every secret taken out of its strings and keys. */
  value(value: unknown): unknown;
  /** A text with every secret taken out. */
  text(text: string): string;
  /** `inner`, with every message redacted first. */
  logger(inner: Logger): Logger;
  /** A writer (stdout, stderr) that redacts what it is given. */
  writer(inner: (text: string) => void): (text: string) => void;
}

/** Builds the redaction for one process from its secret sources. */
export function createRedaction(sources: RedactionHost): Redaction {
  let learned: { revision: number; own: string[] } | undefined;
  const own = (): string[] => {
    const revision = sources.environmentRevision?.() ?? 0;
    if (learned?.revision !== revision) learned = { revision, own: environmentSecrets(sources.environment) };
    return learned.own;
  };
  const cached = cachedSecretValues(sources.environment);
  // A change of the environment changes `own` or not; `${VAR}` expansions read it too, so it is part of the key.
  const values = (): string[] =>
    cached(sources.backends(), [...own(), ...(sources.extra?.() ?? [])], sources.environmentRevision?.() ?? 0);
  const forms = cachedSecretForms(values);
  const text = (input: string): string => redactText(input, forms());
  return {
    values,
    value: (input) => redactDeep(input, forms()),
    text,
    logger: (inner) => ({
      info: (message) => inner.info(text(message)),
      warn: (message) => inner.warn(text(message)),
      error: (message) => inner.error(text(message)),
    }),
    writer: (inner) => (input) => inner(text(input)),
  };
}
