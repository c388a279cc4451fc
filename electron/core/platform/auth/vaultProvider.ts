/**
 * The SDK's `OAuthClientProvider` for one backend, backed by the keychain
 * vault. The SDK's `auth()` does the protocol (RFC 9728 / RFC 8414 discovery,
 * RFC 7591 registration or a Client ID Metadata Document, PKCE per RFC 7636,
 * RFC 8707 resource indicators, refresh); this class only keeps its state.
 *
 * Two modes. `interactive` belongs to one authorization flow: it has the
 * loopback redirect URL and the flow's `state`, and captures the
 * authorization URL instead of opening anything. `background` serves the
 * backend's connection: it may refresh, but whenever the SDK would need the
 * user (no client yet, or a new authorization request) it throws
 * {@link AuthorizationRequiredError}, so nothing ever happens behind the
 * user's back (no registration, no browser).
 */
import { randomBytes } from 'node:crypto';
import type {
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import { ErrorCode, SwitchboardError } from '../../../../shared/errors.js';
import type { RemoteBackendConfig } from '../config/schema.js';
import type { SecretStore } from '../secrets/secretStore.js';
import { withExpiry, type OAuthVault, type VaultTokens } from './vault.js';

/** The user has to (re)authorize the backend; `reason` says why. */
export class AuthorizationRequiredError extends Error {
  constructor(
    readonly reason: string,
    readonly scope?: string,
  ) {
    super(`authorization required: ${reason}`);
    this.name = 'AuthorizationRequiredError';
  }
}

/** A client registered by hand (config `oauth.clientId`, secret from the keychain). */
export interface StaticClient {
  client_id: string;
  client_secret?: string;
}

/**
 * The config's hand-registered client, its secret read from the keychain
 * (undefined: none configured, the client is registered dynamically).
 */
export async function staticClientOf(
  config: RemoteBackendConfig,
  secrets: SecretStore | undefined,
): Promise<StaticClient | undefined> {
  const oauth = config.oauth;
  if (!oauth?.clientId) return undefined;
  if (!oauth.clientSecret) return { client_id: oauth.clientId };
  const secret = await secrets?.get(oauth.clientSecret.secret);
  if (secret === undefined) {
    throw new SwitchboardError(
      ErrorCode.ConfigInvalid,
      `mcpServers.${config.id}.oauth.clientSecret: secret "${oauth.clientSecret.secret}" is not in the OS keychain`,
    );
  }
  return { client_id: oauth.clientId, client_secret: secret };
}

/** Options of a {@link VaultProvider}. */
export interface VaultProviderOptions {
  vault: OAuthVault;
  mode: 'interactive' | 'background';
  /** The loopback redirect URL (interactive). */
  redirectUrl?: string;
  /** The `state` of the flow (interactive). */
  state?: string;
  staticClient?: StaticClient | undefined;
  /** Scope from the config, the default of the registration. */
  scope?: string | undefined;
  clientMetadataUrl?: string | undefined;
  /** Tokens were saved (memory caches follow). */
  onTokens?: (tokens: VaultTokens) => void;
  /** Why the stored tokens were dropped by the SDK (e.g. a refused refresh), for the reason shown. */
  invalidationReason?: () => string | undefined;
}

/** Redirect URL in background mode: never used for a request (see the class comment). */
const BACKGROUND_REDIRECT = 'http://127.0.0.1/callback';

/** One backend's OAuth client state, for the SDK. */
export class VaultProvider implements OAuthClientProvider {
  /** The authorization URL the SDK built (interactive mode). */
  authorizationUrl: URL | undefined;
  private tokensDropped = false;

  constructor(private readonly options: VaultProviderOptions) {}

  get redirectUrl(): string {
    return this.options.redirectUrl ?? BACKGROUND_REDIRECT;
  }

  get clientMetadataUrl(): string | undefined {
    return this.options.clientMetadataUrl;
  }

  /** RFC 7591 §2 client metadata: a native public client with a loopback redirect (RFC 8252). */
  get clientMetadata(): OAuthClientMetadata {
    const metadata: OAuthClientMetadata = {
      client_name: 'MCP Switchboard',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      application_type: 'native',
    };
    if (this.options.scope) metadata.scope = this.options.scope;
    return metadata;
  }

  /** The flow's `state` (background mode: a throwaway, the request is never sent). */
  state(): string {
    return this.options.state ?? randomBytes(16).toString('base64url');
  }

  async clientInformation(): Promise<StoredOAuthClientInformation | undefined> {
    if (this.options.staticClient) return this.options.staticClient;
    const client = await this.options.vault.client();
    if (!client && this.options.mode === 'background') throw new AuthorizationRequiredError('not authorized yet');
    return client;
  }

  async saveClientInformation(client: StoredOAuthClientInformation): Promise<void> {
    // A configured client is the config's; only registered ones are kept.
    if (this.options.staticClient) return;
    await this.options.vault.saveClient(client);
  }

  async tokens(): Promise<StoredOAuthTokens | undefined> {
    return this.options.vault.tokens();
  }

  async saveTokens(tokens: StoredOAuthTokens): Promise<void> {
    const kept = withExpiry(tokens);
    await this.options.vault.saveTokens(kept);
    this.tokensDropped = false;
    this.options.onTokens?.(kept);
  }

  redirectToAuthorization(authorizationUrl: URL): void {
    if (this.options.mode === 'background') {
      const reason = this.tokensDropped
        ? (this.options.invalidationReason?.() ?? 'the authorization server refused the saved tokens')
        : 'the saved tokens cannot be refreshed';
      throw new AuthorizationRequiredError(reason);
    }
    this.authorizationUrl = authorizationUrl;
  }

  async saveCodeVerifier(codeVerifier: string): Promise<void> {
    if (this.options.mode === 'background') return;
    await this.options.vault.saveVerifier(codeVerifier);
  }

  async codeVerifier(): Promise<string> {
    const verifier = await this.options.vault.verifier();
    if (verifier === undefined) throw new AuthorizationRequiredError('the PKCE code verifier of this flow is gone');
    return verifier;
  }

  async saveDiscoveryState(state: OAuthDiscoveryState): Promise<void> {
    await this.options.vault.saveDiscovery(state);
  }

  async discoveryState(): Promise<OAuthDiscoveryState | undefined> {
    return this.options.vault.discovery();
  }

  /** The SDK drops credentials the server refused (e.g. `invalid_grant` on refresh). */
  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    const vault = this.options.vault;
    if (scope === 'all') await vault.delete();
    else if (scope === 'client') await vault.delete(this.options.staticClient ? [] : ['client']);
    else if (scope === 'tokens') await vault.delete(['tokens']);
    else if (scope === 'verifier') await vault.delete(['verifier']);
    else await vault.delete(['discovery']);
    if (scope === 'all' || scope === 'tokens') this.tokensDropped = true;
  }
}
