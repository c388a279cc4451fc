/**
 * One run of the user's authorization for a remote backend (authorization
 * code with PKCE, RFC 7636; resource indicators, RFC 8707; state checked at
 * the loopback, RFC 6749 §10.12): a loopback listener, then the SDK's `auth()`
 * builds the authorization URL (discovering and registering as needed) and,
 * once the browser comes back, exchanges the code for tokens. BackendAuth
 * owns the state around it (challenge, step-up scope, what was lost).
 */
import { randomBytes } from 'node:crypto';
import { auth, type FetchLike } from '@modelcontextprotocol/client';
import { ErrorCode, SwitchboardError } from '../../../../shared/errors.js';
import type { RemoteBackendConfig } from '../config/schema.js';
import { startLoopbackListener } from './loopback.js';
import type { OAuthVault } from './vault.js';
import type { VaultProvider } from './vaultProvider.js';

/** A started flow: the URL for the browser, and the end of the flow. */
export interface AuthorizationFlow {
  authorizationUrl: string;
  /** Settles once the redirect came back and the tokens are in the keychain. */
  done: Promise<void>;
}

/** What one flow needs from its BackendAuth. */
export interface AuthorizationFlowHost {
  config: RemoteBackendConfig;
  vault: OAuthVault;
  /** How long the user has to finish in the browser. */
  timeoutMs: number;
  /** Ends the flow: the timeout, the caller's signal, disposal. */
  signal: AbortSignal;
  /** The scope to ask for (configured, challenged, stepped up). */
  scope(): Promise<string | undefined>;
  /** Where the server's last challenge said its resource metadata is (RFC 9728 §5.1). */
  resourceMetadataUrl(): URL | undefined;
  /** An interactive provider for this flow's redirect URL and state. */
  provider(flow: { redirectUrl: string; state: string }): Promise<VaultProvider>;
  fetchFn(signal: AbortSignal): FetchLike;
  /** The tokens are saved. */
  finished(): void;
}

/**
 * Starts the flow; resolves as soon as the authorization URL is known. `done`
 * settles when the tokens are saved; either fails with `authorization_failed`.
 */
export async function startAuthorizationFlow(context: AuthorizationFlowHost): Promise<AuthorizationFlow> {
  const { config, vault, timeoutMs, signal } = context;
  const registered = config.oauth?.clientId ? undefined : await vault.client();
  const redirectUris = (registered as { redirect_uris?: string[] } | undefined)?.redirect_uris;
  const registeredPort = Number(new URL(redirectUris?.[0] ?? 'http://127.0.0.1:0').port) || undefined;
  const state = randomBytes(32).toString('base64url');
  const listener = await startLoopbackListener({ state, port: registeredPort, timeoutMs, signal });
  try {
    const scope = await context.scope();
    // A registration for another redirect port may be refused by servers that do not follow
    // RFC 8252 §7.3, and one for a narrower scope by any (RFC 7591 §2): register again.
    const registeredScope = (registered as { scope?: string } | undefined)?.scope?.split(' ');
    const narrower = registeredScope && scope?.split(' ').some((wanted) => !registeredScope.includes(wanted));
    if (registered && !registered.client_id.startsWith('https://') && (registeredPort !== listener.port || narrower)) {
      await vault.delete(['client']);
    }
    const provider = await context.provider({ redirectUrl: listener.redirectUrl, state });
    const fetchFn = context.fetchFn(signal);
    const serverUrl = config.url;
    const resourceMetadataUrl = context.resourceMetadataUrl();
    await auth(provider, { serverUrl, scope, resourceMetadataUrl, fetchFn, forceReauthorization: true });
    const url = provider.authorizationUrl;
    if (!url) throw new Error('the authorization server did not need the user');
    const done = listener.response
      .then(async ({ code, iss }) => {
        await auth(provider, { serverUrl, resourceMetadataUrl, authorizationCode: code, iss, fetchFn });
        await vault.delete(['verifier']);
        context.finished();
      })
      .catch((error: unknown) => {
        throw flowError(config.id, error);
      })
      .finally(() => listener.close());
    return { authorizationUrl: url.href, done };
  } catch (error) {
    listener.close();
    throw flowError(config.id, error);
  }
}

function flowError(id: string, error: unknown): SwitchboardError {
  if (error instanceof SwitchboardError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new SwitchboardError(ErrorCode.AuthorizationFailed, `authorization of "${id}" failed: ${message}`, {
    backend: id,
  });
}
