/**
 * Sign-out's revocation: the backend's stored tokens are revoked where its
 * authorization server advertises a revocation endpoint (RFC 7009; RFC 8414
 * §2), with the client they were issued to (registered by hand or
 * dynamically). Deleting the keychain entries is the caller's next step.
 */
import type { RemoteBackendConfig } from '../config/schema.js';
import type { SecretStore } from '../secrets/secretStore.js';
import { revocationEndpointOf, revokeTokens, type boundedFetch } from './authHttp.js';
import type { OAuthVault } from './vault.js';
import { staticClientOf } from './vaultProvider.js';

/** What revoking a backend's tokens takes. */
export interface RevocationContext {
  config: RemoteBackendConfig;
  secrets: SecretStore | undefined;
  vault: OAuthVault;
  fetchFn: ReturnType<typeof boundedFetch>;
  /** A token that could not be revoked (`hint`: access or refresh token), said once. */
  warn(hint: string, reason: string): void;
}

/** Revokes the stored tokens; resolves to whether the server revoked them (false: nothing to revoke, or no endpoint). */
export async function revokeStoredTokens(context: RevocationContext): Promise<boolean> {
  const { vault } = context;
  const [tokens, discovery] = await Promise.all([vault.tokens(), vault.discovery()]);
  const client =
    (await staticClientOf(context.config, context.secrets).catch(() => undefined)) ?? (await vault.client());
  const metadata = discovery?.authorizationServerMetadata;
  if (!tokens || !client || !revocationEndpointOf(metadata) || !metadata) return false;
  return revokeTokens(metadata, client, tokens, context.fetchFn, context.warn);
}
