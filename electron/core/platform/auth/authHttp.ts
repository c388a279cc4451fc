/**
 * HTTP for OAuth steps: every request the SDK's `auth()` makes through us is
 * bounded by a per-step timeout and the flow's AbortSignal, and token
 * endpoint errors (RFC 6749 §5.2) are noted so a refused refresh can be
 * explained. Plus token revocation (RFC 7009), which the SDK does not do.
 */
import {
  selectClientAuthMethod,
  type AuthorizationServerMetadata,
  type FetchLike,
  type OAuthTokens,
  type StoredOAuthClientInformation,
} from '@modelcontextprotocol/client';

/** Default bound of one OAuth network step. */
export const STEP_TIMEOUT_MS = 30_000;

/** Options of {@link boundedFetch}. */
export interface BoundedFetchOptions {
  signal?: AbortSignal | undefined;
  stepTimeoutMs?: number;
  /** Called with `error: description` when a token request is refused. */
  onTokenError?: (message: string) => void;
}

function isTokenRequest(init: RequestInit | undefined): boolean {
  return init?.body instanceof URLSearchParams && init.body.has('grant_type');
}

/** A fetch for the SDK: per-step timeout, the flow's signal, token errors noted. */
export function boundedFetch(options: BoundedFetchOptions = {}): FetchLike {
  const stepTimeoutMs = options.stepTimeoutMs ?? STEP_TIMEOUT_MS;
  return async (url, init) => {
    const signals = [AbortSignal.timeout(stepTimeoutMs)];
    if (options.signal) signals.push(options.signal);
    if (init?.signal) signals.push(init.signal);
    const response = await fetch(url, { ...init, signal: AbortSignal.any(signals) });
    if (!response.ok && options.onTokenError && isTokenRequest(init)) {
      const body = (await response
        .clone()
        .json()
        .catch(() => undefined)) as { error?: unknown; error_description?: unknown } | undefined;
      if (typeof body?.error === 'string') {
        const description = typeof body.error_description === 'string' ? `: ${body.error_description}` : '';
        options.onTokenError(`${body.error}${description}`);
      }
    }
    return response;
  };
}

/**
 * The RFC 7009 revocation endpoint from RFC 8414 §2 metadata (the SDK's
 * OpenID-flavoured metadata type does not declare the field).
 */
export function revocationEndpointOf(metadata: AuthorizationServerMetadata | undefined): string | undefined {
  const value = (metadata as { revocation_endpoint?: unknown } | undefined)?.revocation_endpoint;
  return typeof value === 'string' ? value : undefined;
}

/**
 * Revokes one token at the authorization server (RFC 7009 §2.1), with the
 * client authentication the server supports. Resolves when the server
 * answered 200 (which it also does for tokens it no longer knows, §2.2).
 */
export async function revokeToken(
  metadata: AuthorizationServerMetadata,
  client: StoredOAuthClientInformation,
  token: string,
  hint: 'refresh_token' | 'access_token',
  fetchFn: FetchLike,
): Promise<void> {
  const endpoint = revocationEndpointOf(metadata);
  if (!endpoint) throw new Error('the authorization server has no revocation endpoint');
  const body = new URLSearchParams({ token, token_type_hint: hint });
  const headers = new Headers({ 'content-type': 'application/x-www-form-urlencoded' });
  const supported =
    (metadata as { revocation_endpoint_auth_methods_supported?: string[] })
      .revocation_endpoint_auth_methods_supported ??
    metadata.token_endpoint_auth_methods_supported ??
    [];
  const method = selectClientAuthMethod(client, supported);
  if (method === 'client_secret_basic' && client.client_secret) {
    const credentials = `${encodeURIComponent(client.client_id)}:${encodeURIComponent(client.client_secret)}`;
    headers.set('authorization', `Basic ${Buffer.from(credentials).toString('base64')}`);
  } else {
    body.set('client_id', client.client_id);
    if (method === 'client_secret_post' && client.client_secret) body.set('client_secret', client.client_secret);
  }
  const response = await fetchFn(endpoint, { method: 'POST', headers, body });
  await response.body?.cancel();
  if (!response.ok) throw new Error(`the revocation endpoint answered HTTP ${response.status}`);
}

/**
 * Revokes the refresh token, then the access token (RFC 7009 §2.1), each on
 * its own: a failure is passed to `warn` and the other is still tried.
 * Resolves to whether the server revoked either.
 */
export async function revokeTokens(
  metadata: AuthorizationServerMetadata,
  client: StoredOAuthClientInformation,
  tokens: Pick<OAuthTokens, 'access_token' | 'refresh_token'>,
  fetchFn: FetchLike,
  warn: (hint: 'refresh_token' | 'access_token', reason: string) => void,
): Promise<boolean> {
  let revoked = false;
  const pairs = [
    [tokens.refresh_token, 'refresh_token'],
    [tokens.access_token, 'access_token'],
  ] as const;
  for (const [token, hint] of pairs) {
    if (!token) continue;
    try {
      await revokeToken(metadata, client, token, hint, fetchFn);
      revoked = true;
    } catch (error) {
      warn(hint, error instanceof Error ? error.message : String(error));
    }
  }
  return revoked;
}
