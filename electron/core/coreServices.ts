/**
 * The core's optional services (`CoreServices`), and their file-backed
 * versions for a headless or desktop run: the config store, client token
 * digests, tool pins (config dir) and the audit log (state dir). Kept here so
 * the CLI and the Electron shell build them alike.
 */
import { join } from 'node:path';
import { CatalogCache } from './catalog/catalogCache.js';
import { fileWriter, type ConfigStore } from './config/configStore.js';
import { expandMap } from './config/expand.js';
import { stderrLogger } from './deps.js';
import { inlineSecrets } from './config/inlineSecrets.js';
import { defaultConfigDir, defaultStateDir } from './config/paths.js';
import type { BackendConfig } from './config/schema.js';
import { AuditLog } from './policy/auditLog.js';
import { ClientTokens } from './policy/clientTokens.js';
import { PinStore } from './policy/pinStore.js';
import { plainValues, valueMapOf } from './secrets/resolve.js';
import type { SecretStore } from './secrets/secretStore.js';

/** Optional services of the core: persistence, client tokens, tool pins, the audit log. */
export interface CoreServices {
  store?: ConfigStore | undefined;
  tokens?: ClientTokens | undefined;
  pins?: PinStore | undefined;
  audit?: AuditLog | undefined;
  /** The OS keychain, for `{"secret": NAME}` env and header values. */
  secrets?: SecretStore | undefined;
  /** Each backend's last catalog, published at start before the backends run. */
  catalogCache?: CatalogCache | undefined;
}

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
    const { field, values: map } = valueMapOf(backend);
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
    // Secrets written into the URL (query, user-info) or the command line (`--token X`).
    values.push(...inlineSecrets(backend));
  }
  return values.filter((value) => value.length > 0);
}

/**
 * `secretValues` for the audit log, which asks on every entry it writes:
 * recomputed only when the backend list (replaced, never mutated, on each
 * change) or the extra values change.
 */
export function cachedSecretValues(
  environment: NodeJS.ProcessEnv,
): (backends: readonly BackendConfig[], extra: string[]) => string[] {
  let last: { backends: readonly BackendConfig[]; extra: string; values: string[] } | undefined;
  return (backends, extra) => {
    const key = extra.join('\u0000');
    if (last?.backends !== backends || last.extra !== key) {
      last = { backends, extra: key, values: secretValues(backends, environment, extra) };
    }
    return last.values;
  };
}

/**
 * Opens the services; `secrets` is asked each time the audit log writes;
 * `keychain` resolves `{"secret": NAME}` values.
 */
export async function openCoreServices(
  store: ConfigStore,
  secrets: () => string[],
  keychain?: SecretStore,
): Promise<CoreServices> {
  const configDir = defaultConfigDir();
  const tokens = new ClientTokens(join(configDir, 'client-tokens.json'), fileWriter, keychain);
  await tokens.load();
  const audit = new AuditLog({ dir: join(defaultStateDir(), 'audit'), redact: secrets });
  const pins = new PinStore(join(configDir, 'tool-pins.json'), { audit });
  await pins.load();
  const catalogCache = new CatalogCache(join(defaultStateDir(), 'catalogs'), { logger: stderrLogger });
  return { store, tokens, pins, audit, secrets: keychain, catalogCache };
}
