/**
 * The SDK's `OAuthClientProvider` for one caller of one per-caller backend:
 * the caller's tokens and the backend's registered client come from the
 * encrypted caller store (callerTokenStore.ts); the PKCE verifier of a flow
 * is kept sealed with the flow until its callback (callerSignIn.ts); the
 * discovery state, shared by the backend's callers, stays in memory. The redirect URI is
 * serve's own `/connections/callback` (no loopback listener: the person
 * signing in may be on another machine). In background mode (refresh) any
 * need of the user throws AuthorizationRequiredError instead of redirecting.
 */
import { randomBytes } from 'node:crypto';
import type {
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import type { RemoteBackendConfig } from '../config/schema.js';
import type { CallerTokenStore } from './callerTokenStore.js';
import { withExpiry } from './vault.js';
import { AuthorizationRequiredError, type StaticClient } from './vaultProvider.js';

/** Options of a {@link CallerProvider}. */
export interface CallerProviderOptions {
  store: CallerTokenStore;
  config: RemoteBackendConfig;
  caller: string;
  mode: 'interactive' | 'background';
  /** serve's `/connections/callback` URL. */
  redirectUrl: string;
  state?: string;
  /** The PKCE verifier of a flow started earlier (its callback, perhaps on another replica). */
  codeVerifier?: string;
  staticClient?: StaticClient | undefined;
  /** The backend's discovery state, shared by its callers' providers. */
  discovery: Map<string, OAuthDiscoveryState>;
  /** Interactive mode: who is signing in (email, else subject), kept with their tokens for administrators. */
  person?: string | undefined;
}

/** One caller's OAuth client state for one backend, for the SDK. */
export class CallerProvider implements OAuthClientProvider {
  /** The authorization URL the SDK built (interactive mode). */
  authorizationUrl: URL | undefined;
  private verifier: string | undefined;

  constructor(private readonly options: CallerProviderOptions) {
    this.verifier = options.codeVerifier;
  }

  /** The PKCE verifier the SDK saved for this flow (kept until its callback). */
  get savedVerifier(): string | undefined {
    return this.verifier;
  }

  private get backend(): string {
    return this.options.config.id;
  }

  get redirectUrl(): string {
    return this.options.redirectUrl;
  }

  get clientMetadataUrl(): string | undefined {
    return this.options.config.oauth?.clientMetadataUrl;
  }

  /** RFC 7591 §2 client metadata: a public client redirected to serve's own callback. */
  get clientMetadata(): OAuthClientMetadata {
    const metadata: OAuthClientMetadata = {
      client_name: 'MCP Switchboard',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
    const scope = this.options.config.oauth?.scope;
    if (scope) metadata.scope = scope;
    return metadata;
  }

  state(): string {
    return this.options.state ?? randomBytes(16).toString('base64url');
  }

  /** The configured client, else the registered one, if it was registered for this redirect URI. */
  async clientInformation(): Promise<StoredOAuthClientInformation | undefined> {
    if (this.options.staticClient) return this.options.staticClient;
    const client = await this.options.store.client(this.backend);
    const uris = (client as { redirect_uris?: string[] } | undefined)?.redirect_uris;
    if (client && this.options.mode === 'interactive' && uris && !uris.includes(this.redirectUrl)) return undefined;
    if (!client && this.options.mode === 'background') throw new AuthorizationRequiredError('not signed in yet');
    return client;
  }

  async saveClientInformation(client: StoredOAuthClientInformation): Promise<void> {
    if (this.options.staticClient) return;
    await this.options.store.saveClient(this.backend, client);
  }

  tokens(): Promise<StoredOAuthTokens | undefined> {
    return this.options.store.tokens(this.backend, this.options.caller);
  }

  async saveTokens(tokens: StoredOAuthTokens): Promise<void> {
    const { mode, person } = this.options;
    // A sign-in records who and when; a refresh keeps what the sign-in recorded.
    const signedIn = mode === 'interactive' ? { at: Date.now(), ...(person ? { person } : {}) } : undefined;
    await this.options.store.saveTokens(this.backend, this.options.caller, withExpiry(tokens), signedIn);
  }

  redirectToAuthorization(authorizationUrl: URL): void {
    if (this.options.mode === 'background')
      throw new AuthorizationRequiredError('the saved tokens cannot be refreshed');
    this.authorizationUrl = authorizationUrl;
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.verifier = codeVerifier;
  }

  codeVerifier(): string {
    if (this.verifier === undefined)
      throw new AuthorizationRequiredError('the PKCE code verifier of this flow is gone');
    return this.verifier;
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.options.discovery.set(this.backend, state);
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.options.discovery.get(this.backend);
  }

  /** The SDK drops what the server refused (e.g. `invalid_grant` on refresh): the caller signs in again. */
  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    const { store } = this.options;
    if (scope === 'all' || scope === 'tokens') await store.deleteTokens(this.backend, this.options.caller);
    if ((scope === 'all' || scope === 'client') && !this.options.staticClient) await store.deleteClient(this.backend);
    if (scope === 'all' || scope === 'discovery') this.options.discovery.delete(this.backend);
    if (scope === 'verifier') this.verifier = undefined;
  }
}
