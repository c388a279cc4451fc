/**
 * Secrets met while importing a client's servers. A client file often holds
 * API keys in `env` or an `Authorization` header; Switchboard's config.json
 * must not receive them as plain text. With the OS keychain available, a
 * secret moves there and the config refers to it (`{"secret": NAME}`);
 * without one, it becomes a `${VAR}` reference the user sets in the
 * environment (said so, never a silent plain-text fallback).
 */
import type { SecretReference, SecretStore, SecretStoreStatus } from '../../platform/secrets/secretStore.js';
import { secretLookingName } from '../../../../shared/secretNames.js';
import { clientError } from './clientFiles.js';
import { ClientErrorCode } from './clientAppTypes.js';

const SECRET_VALUE = /^(bearer|basic|token)\s+\S|^(ghp_|gho_|ghu_|ghs_|github_pat_|sk-|xox[abpr]-|glpat-|AKIA|AIza)/i;
/** `${VAR}` or `${VAR:-default}`, which config.json may hold as is. */
const REFERENCE = /\$\{[A-Za-z_][A-Za-z0-9_]*(:-[^}]*)?\}/g;

/** Whether an env value or header looks like a secret (by its name, or by the shape of its value). */
export function looksSecret(field: 'env' | 'headers', name: string, value: string): boolean {
  const literal = value.replace(REFERENCE, '').trim();
  if (literal === '' || /^(bearer|basic|token)$/i.test(literal)) return false; // only references: nothing to hide
  if (SECRET_VALUE.test(literal)) return true;
  return secretLookingName(field, name);
}

/** One secret to keep out of config.json. */
export interface SecretRequest {
  backendId: string;
  field: 'env' | 'headers';
  /** The variable or header name. */
  name: string;
  value: string;
}

/** What replaces a secret in config.json. */
export interface KeptSecret {
  /** The value written instead (`${GITHUB_TOKEN}`, `Bearer ${LINEAR_TOKEN}`, `{"secret": "github.GITHUB_TOKEN"}`). */
  replacement: string | SecretReference;
  /** The reference alone, for display. */
  reference: string;
  /** The backend will find the value as things stand (the variable is set to it). */
  resolves: boolean;
  /** Stores the value where the replacement points; run only when the import is carried out (not when listing). */
  save?: () => Promise<void>;
}

/** Where secrets go during import. */
export interface SecretSink {
  keep(request: SecretRequest): Promise<KeptSecret>;
}

/**
 * The keychain sink: each secret becomes `{"secret": "<backend>.<name>"}` and
 * its value goes to the OS keychain when the import is carried out. The name
 * starts with the backend ID, so removing the backend deletes it.
 */
export function keychainSink(store: SecretStore): SecretSink {
  return {
    async keep({ backendId, name, value }) {
      const secret = `${backendId}.${name}`;
      return {
        replacement: { secret },
        reference: `keychain:${secret}`,
        resolves: true,
        save: () => store.set(secret, value),
      };
    },
  };
}

function variableName(text: string): string {
  const name = text.toUpperCase().replace(/[^A-Z0-9_]/g, '_');
  return /^[A-Z_]/.test(name) ? name : `_${name}`;
}

/**
 * The sink used until the keychain exists: each secret becomes a `${VAR}`
 * reference. An env entry keeps its own name (`GITHUB_TOKEN` ->
 * `${GITHUB_TOKEN}`), which most users already export; a header becomes
 * `<BACKEND>_<HEADER>`, keeping an auth scheme such as `Bearer ` in front.
 * Nothing secret is written anywhere.
 */
export function environmentReferenceSink(environment: NodeJS.ProcessEnv): SecretSink {
  return {
    async keep({ backendId, field, name, value }) {
      const scheme = field === 'headers' ? (/^(bearer|basic|token)\s+/i.exec(value)?.[0] ?? '') : '';
      const secret = value.slice(scheme.length);
      const variable = field === 'env' ? variableName(name) : variableName(`${backendId}_${name}`);
      const reference = `\${${variable}}`;
      return { replacement: `${scheme}${reference}`, reference, resolves: environment[variable] === secret };
    },
  };
}

/**
 * Where secrets go: the OS keychain (`store`) when it is available, else
 * `${VAR}` references checked against `environment`. The keychain's status
 * comes along, so a caller can say why secrets became references.
 */
export async function secretSinkFor(
  store: SecretStore | undefined,
  environment: NodeJS.ProcessEnv,
): Promise<{ sink: SecretSink; status: SecretStoreStatus }> {
  const status: SecretStoreStatus = store
    ? await store.status()
    : { available: false, backend: 'none', reason: 'no keychain configured' };
  return {
    sink: status.available && store ? keychainSink(store) : environmentReferenceSink(environment),
    status,
  };
}

/** A sink that refuses every secret (import then skips such servers, saying why). */
export const refuseSecretsSink: SecretSink = {
  async keep(request) {
    throw clientError(
      ClientErrorCode.SecretNotImported,
      `${request.field}.${request.name} looks secret and would be written to config.json in plain text`,
      { backend: request.backendId, field: `${request.field}.${request.name}` },
    );
  },
};
