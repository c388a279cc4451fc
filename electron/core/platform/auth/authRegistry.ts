/**
 * The core's OAuth side: one {@link BackendAuth} per remote backend that may
 * use OAuth, created on first use and dropped when the backend goes or its
 * entry changes, plus the offline status read from the keychain.
 */
import type { BackendAuthSummary } from '../../../../shared/model/health.js';
import type { BackendConfig, RemoteBackendConfig } from '../config/schema.js';
import type { Logger } from '../deps.js';
import type { SecretStore } from '../secrets/secretStore.js';
import { BackendAuth } from './backendAuth.js';
import { OAuthVault, summarizeTokens } from './vault.js';

/**
 * Whether a backend may use shared OAuth: a remote one whose config does not set an
 * `Authorization` header itself (that header is the user's choice of credential),
 * and not a per-caller one (each caller's OAuth is callerCredentials.ts's) or a
 * token-exchange one (each caller's token is exchanged: tokenExchange.ts).
 */
export function usesOAuth(config: BackendConfig): config is RemoteBackendConfig {
  if (config.transport === 'stdio' || (config.credentials ?? 'shared') !== 'shared') return false;
  return !Object.keys(config.headers).some((name) => name.toLowerCase() === 'authorization');
}

/** One backend's OAuth state as the keychain has it (offline). */
export interface AuthStatusEntry {
  id: string;
  auth: BackendAuthSummary;
}

/**
 * Each OAuth-capable backend's state from the keychain alone, no network:
 * `none` without tokens, else `authorized` or `expired` with expiry and scope.
 * A keychain that cannot be read gives `needs-authorization` with the reason.
 */
export async function readAuthStatus(
  backends: readonly BackendConfig[],
  secrets: SecretStore | undefined,
): Promise<AuthStatusEntry[]> {
  const entries: AuthStatusEntry[] = [];
  for (const backend of backends.filter(usesOAuth)) {
    try {
      entries.push({ id: backend.id, auth: summarizeTokens(await new OAuthVault(secrets, backend.id).tokens()) });
    } catch (error) {
      const reason = `the OS keychain is not available: ${error instanceof Error ? error.message : String(error)}`;
      entries.push({ id: backend.id, auth: { state: 'needs-authorization', reason } });
    }
  }
  return entries;
}

/** The OAuth clients of the core's backends. */
export class AuthRegistry {
  private readonly auths = new Map<string, BackendAuth>();

  constructor(
    private readonly secrets: () => SecretStore | undefined,
    private readonly logger: Logger,
  ) {}

  /** The backend's OAuth client (created on first use), or undefined when it does not use OAuth. */
  authFor(config: BackendConfig | undefined): BackendAuth | undefined {
    if (!config || !usesOAuth(config)) return undefined;
    let auth = this.auths.get(config.id);
    if (!auth) {
      auth = new BackendAuth({ config, secrets: this.secrets(), logger: this.logger });
      this.auths.set(config.id, auth);
    }
    return auth;
  }

  /**
   * A backend's entry changed: its client is made again from the new entry;
   * the keychain state is deleted when the server URL changed (the tokens
   * were for another resource, RFC 8707).
   */
  async replaced(previous: BackendConfig | undefined, next: BackendConfig): Promise<void> {
    const auth = this.auths.get(next.id);
    this.auths.delete(next.id);
    auth?.dispose();
    const moved = previous?.transport !== 'stdio' && (next.transport === 'stdio' || previous?.url !== next.url);
    if (previous && moved) await new OAuthVault(this.secrets(), next.id).delete().catch(() => undefined);
  }

  /** A backend was removed: its OAuth state leaves the keychain. */
  async removed(id: string): Promise<void> {
    const auth = this.auths.get(id);
    this.auths.delete(id);
    auth?.dispose();
    await new OAuthVault(this.secrets(), id).delete().catch((error: unknown) => {
      const reason = error instanceof Error ? error.message : String(error);
      this.logger.warn(`could not delete the OAuth state of "${id}" from the OS keychain: ${reason}`);
    });
  }

  /** Ends every flow and refresh in progress. */
  dispose(): void {
    for (const auth of this.auths.values()) auth.dispose();
    this.auths.clear();
  }
}
