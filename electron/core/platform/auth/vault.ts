/**
 * Where a backend's OAuth state lives: the OS keychain (the SecretStore, same
 * service as every other Switchboard secret), one entry per kind under the
 * account `oauth:<backend id>:<kind>`. Nothing of it goes to the config file,
 * logs or health; summaries carry only state, expiry and scope.
 */
import type {
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import type { BackendAuthSummary } from '../../../../shared/model/health.js';
import type { SecretStore } from '../secrets/secretStore.js';

/** Tokens as we keep them: the SDK's, plus when the access token expires (epoch ms). */
export type VaultTokens = StoredOAuthTokens & { expires_at?: number };

/** The kinds of entry kept per backend. */
export type VaultKind = 'tokens' | 'client' | 'verifier' | 'discovery';

const KINDS: readonly VaultKind[] = ['tokens', 'client', 'verifier', 'discovery'];

/** Prefix of the keychain accounts that hold OAuth state (reserved: `secret set` refuses it). */
export const OAUTH_SECRET_PREFIX = 'oauth:';

/** The keychain account of one kind of entry of one backend. */
export function vaultAccount(backendId: string, kind: VaultKind): string {
  return `${OAUTH_SECRET_PREFIX}${backendId}:${kind}`;
}

/** Whether a keychain account name holds OAuth state (not a user secret). */
export function isOAuthSecretName(name: string): boolean {
  return name.startsWith(OAUTH_SECRET_PREFIX);
}

/** Adds `expires_at` from `expires_in` (RFC 6749 §5.1) when the tokens are fresh from the server. */
export function withExpiry(tokens: StoredOAuthTokens, now = Date.now()): VaultTokens {
  const kept = tokens as VaultTokens;
  if (tokens.expires_in === undefined) return kept;
  return { ...kept, expires_at: now + tokens.expires_in * 1000 };
}

/** What the keychain's tokens say, offline: state, expiry and scope (never a token). */
export function summarizeTokens(tokens: VaultTokens | undefined, now = Date.now()): BackendAuthSummary {
  if (!tokens) return { state: 'none' };
  const summary: BackendAuthSummary = { state: 'authorized' };
  if (tokens.expires_at !== undefined) summary.expiresAt = new Date(tokens.expires_at).toISOString();
  if (tokens.scope) summary.scope = tokens.scope;
  if (tokens.expires_at !== undefined && tokens.expires_at <= now && !tokens.refresh_token) summary.state = 'expired';
  return summary;
}

/** JSON entries in the keychain for one backend. */
export class OAuthVault {
  constructor(
    private readonly secrets: SecretStore | undefined,
    readonly backendId: string,
  ) {}

  /** Whether there is a keychain at all (reads answer "nothing" without one). */
  get available(): boolean {
    return this.secrets !== undefined;
  }

  private async read<T>(kind: VaultKind): Promise<T | undefined> {
    if (!this.secrets) return undefined;
    const raw = await this.secrets.get(vaultAccount(this.backendId, kind));
    if (raw === undefined) return undefined;
    try {
      return JSON.parse(raw) as T;
    } catch {
      return undefined;
    }
  }

  private async write(kind: VaultKind, value: unknown): Promise<void> {
    if (!this.secrets) {
      throw new Error('the OS keychain is not available: OAuth tokens are never stored in plain text');
    }
    await this.secrets.set(vaultAccount(this.backendId, kind), JSON.stringify(value));
  }

  tokens(): Promise<VaultTokens | undefined> {
    return this.read<VaultTokens>('tokens');
  }

  saveTokens(tokens: VaultTokens): Promise<void> {
    return this.write('tokens', tokens);
  }

  client(): Promise<StoredOAuthClientInformation | undefined> {
    return this.read<StoredOAuthClientInformation>('client');
  }

  saveClient(client: StoredOAuthClientInformation): Promise<void> {
    return this.write('client', client);
  }

  async verifier(): Promise<string | undefined> {
    return this.read<string>('verifier');
  }

  saveVerifier(verifier: string): Promise<void> {
    return this.write('verifier', verifier);
  }

  discovery(): Promise<OAuthDiscoveryState | undefined> {
    return this.read<OAuthDiscoveryState>('discovery');
  }

  saveDiscovery(state: OAuthDiscoveryState): Promise<void> {
    return this.write('discovery', state);
  }

  /** Deletes some kinds of entry (all by default); a missing keychain deletes nothing. */
  async delete(kinds: readonly VaultKind[] = KINDS): Promise<void> {
    const secrets = this.secrets;
    if (!secrets) return;
    for (const kind of kinds) await secrets.delete(vaultAccount(this.backendId, kind));
  }
}
