/**
 * The core's file-backed services for a headless or desktop run: the config
 * store, client token digests, tool pins (config dir) and the audit log
 * (state dir). Kept here so the CLI and the Electron shell build them alike.
 */
import { join } from 'node:path';
import type { ConfigStore } from './config/configStore.js';
import { expandMap } from './config/expand.js';
import { defaultConfigDir, defaultStateDir } from './config/paths.js';
import type { SwitchboardConfig } from './config/schema.js';
import { AuditLog } from './policy/auditLog.js';
import { ClientTokens } from './policy/clientTokens.js';
import { PinStore } from './policy/pinStore.js';
import { plainValues } from './secrets/resolve.js';
import type { SecretStore } from './secrets/secretStore.js';
import type { CoreServices } from './switchboard.js';

const SECRET_NAME = /token|key|secret|password|passwd|auth|cookie|credential/i;

/**
 * Values that must never reach the audit log: every header value of a remote
 * backend, secret-looking env values of stdio backends, and `extra` (the
 * frontend token).
 */
export function secretValues(config: SwitchboardConfig, environment: NodeJS.ProcessEnv, extra: string[]): string[] {
  const values = [...extra];
  for (const backend of config.backends) {
    const raw = plainValues(backend.transport === 'stdio' ? backend.env : backend.headers);
    let expanded: Record<string, string>;
    try {
      expanded = expandMap(raw, environment, backend.id);
    } catch {
      expanded = raw;
    }
    for (const [name, value] of Object.entries(expanded)) {
      if (backend.transport !== 'stdio' || SECRET_NAME.test(name)) values.push(value);
    }
  }
  return values.filter((value) => value.length > 0);
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
  const tokens = new ClientTokens(join(configDir, 'client-tokens.json'));
  await tokens.load();
  const audit = new AuditLog({ dir: join(defaultStateDir(), 'audit'), redact: secrets });
  const pins = new PinStore(join(configDir, 'tool-pins.json'), { audit });
  await pins.load();
  return { store, tokens, pins, audit, secrets: keychain };
}
