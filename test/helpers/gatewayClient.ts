/**
 * A real SDK client signing in to a gateway-mode `serve` as a person: the
 * SDK's own OAuth client does discovery (the 401's resource_metadata, the
 * Protected Resource Metadata, the authorization server's metadata), dynamic
 * registration and PKCE; the fixture authorization server's login and
 * consent pages are completed over HTTP (oauthBrowser.ts) as `login`.
 * We check the callback's `state` ourselves (the SDK does not).
 */
import {
  Client,
  StreamableHTTPClientTransport,
  UnauthorizedError,
  type OAuthClientProvider,
} from '@modelcontextprotocol/client';
import { randomUUID } from 'node:crypto';
import { completeAuthorization } from './oauthBrowser.js';

const REDIRECT = 'http://127.0.0.1:9/callback';

type Provider = OAuthClientProvider & { authorizationUrl?: URL; accessToken(): string | undefined };

/** An in-memory OAuth client provider (what a client app keeps on disk). */
function memoryProvider(scope: string | undefined): Provider {
  let info: Awaited<ReturnType<OAuthClientProvider['clientInformation']>>;
  let tokens: Awaited<ReturnType<OAuthClientProvider['tokens']>>;
  let verifier = '';
  const state = randomUUID();
  const provider: Provider = {
    get redirectUrl() {
      return REDIRECT;
    },
    get clientMetadata() {
      return {
        client_name: 'gateway test client',
        redirect_uris: [REDIRECT],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
        ...(scope ? { scope } : {}),
      };
    },
    state: () => state,
    clientInformation: () => info,
    saveClientInformation: (value) => void (info = value),
    tokens: () => tokens,
    saveTokens: (value) => void (tokens = value),
    redirectToAuthorization: (url) => void (provider.authorizationUrl = url),
    saveCodeVerifier: (value) => void (verifier = value),
    codeVerifier: () => verifier,
    accessToken: () => tokens?.access_token,
  };
  return provider;
}

/** A signed-in client and its access token. */
export interface SignedIn {
  client: Client;
  accessToken: string;
}

/**
 * Signs `login` in to the gateway at `url` (scopes: `scope`, else what the
 * server advertises) and connects a client of `era`.
 */
export async function signIn(
  url: string,
  login: string,
  options: { era?: 'legacy' | 'modern'; scope?: string; capabilities?: Record<string, unknown> } = {},
): Promise<SignedIn> {
  const provider = memoryProvider(options.scope);
  const make = () =>
    new Client(
      { name: `gateway-${login}`, version: '1.0.0' },
      {
        ...(options.capabilities ? { capabilities: options.capabilities } : {}),
        ...(options.era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}),
      },
    );
  const first = new StreamableHTTPClientTransport(new URL(url), { authProvider: provider });
  const refused = await make()
    .connect(first)
    .then(
      () => undefined,
      (error: unknown) => error,
    );
  if (!(refused instanceof UnauthorizedError)) throw new Error(`expected a sign-in, got ${String(refused)}`);
  if (!provider.authorizationUrl) throw new Error('the client was not sent to sign in');
  const landed = await completeAuthorization(provider.authorizationUrl.href, { login, stopAt: REDIRECT });
  const callback = new URL(landed.url);
  if (callback.searchParams.get('state') !== (await provider.state!())) throw new Error('state mismatch');
  if (!callback.searchParams.get('code')) throw new Error(`no code: ${landed.url} ${landed.body.slice(0, 200)}`);
  // The whole callback: the SDK checks its `iss` against the authorization server's (RFC 9207).
  await first.finishAuth(callback.searchParams);
  const client = make();
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { authProvider: provider }));
  return { client, accessToken: provider.accessToken()! };
}

/** Registers the gateway's UI as a public client of the identity provider (dynamic registration); its client id. */
export async function registerUi(issuer: string, redirectUri: string): Promise<string> {
  const answer = await fetch(`${issuer}/reg`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_name: 'Switchboard UI',
      redirect_uris: [redirectUri],
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    }),
  });
  const body = (await answer.json()) as { client_id?: string };
  if (!body.client_id) throw new Error(`registration failed: ${JSON.stringify(body)}`);
  return body.client_id;
}
