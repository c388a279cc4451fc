/**
 * Where secrets live: the OS keychain (see keytarStore.ts), never the config
 * file. The config refers to a secret by name (`{"secret": "github-token"}`)
 * and the core resolves it when a backend connects.
 */

/** A config value that names a secret instead of holding it. */
export interface SecretReference {
  secret: string;
}

/** An env or header value in the config: a string (may hold `${VAR}`) or a secret reference. */
export type ConfigValue = string | SecretReference;

/** Whether the keychain can be used, and which one it is. */
export interface SecretStoreStatus {
  available: boolean;
  /** e.g. `keytar (Secret Service)`; `none` when nothing could be loaded. */
  backend: string;
  /** Why it is not available (absent when it is). */
  reason?: string;
}

/**
 * Named secrets. Every method rejects (with a message that never contains a
 * secret value) when the keychain is not available.
 */
export interface SecretStore {
  /** The secret's value, or undefined when there is no secret of that name. */
  get(name: string): Promise<string | undefined>;
  /** Creates or replaces a secret. */
  set(name: string, value: string): Promise<void>;
  /** Deletes a secret; resolves to whether it existed. */
  delete(name: string): Promise<boolean>;
  /** Names of every stored secret. */
  list(): Promise<string[]>;
  /** Whether the keychain is reachable (never rejects). */
  status(): Promise<SecretStoreStatus>;
}

/** Whether a config value is a secret reference. */
export function isSecretReference(value: unknown): value is SecretReference {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { secret?: unknown }).secret === 'string' &&
    Object.keys(value).length === 1
  );
}
