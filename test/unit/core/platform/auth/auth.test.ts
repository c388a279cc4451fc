/**
 * Pure pieces of OAuth for remote backends: token summaries, expiry, which
 * backends use OAuth, recognizing authorization failures, and the loopback
 * redirect listener (state check, page, timeout, abort) over real HTTP.
 */
import { InsufficientScopeError, SdkErrorCode, SdkHttpError, UnauthorizedError } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { authorizationProblem, authorizationRequired } from '../../../../../electron/core/platform/auth/authErrors.js';
import { BackendAuth } from '../../../../../electron/core/platform/auth/backendAuth.js';
import { usesOAuth } from '../../../../../electron/core/platform/auth/authRegistry.js';
import { startLoopbackListener } from '../../../../../electron/core/platform/auth/loopback.js';
import {
  isOAuthSecretName,
  summarizeTokens,
  vaultAccount,
  withExpiry,
} from '../../../../../electron/core/platform/auth/vault.js';
import { AuthorizationRequiredError } from '../../../../../electron/core/platform/auth/vaultProvider.js';
import { parseBackend } from '../../../../../electron/core/platform/config/schema.js';
import type { SecretStore } from '../../../../../electron/core/platform/secrets/secretStore.js';

describe('token summaries', () => {
  it('adds expires_at from expires_in and summarizes without any token', () => {
    const tokens = withExpiry({ access_token: 'AT', token_type: 'Bearer', expires_in: 60, scope: 'a b' }, 1_000);
    expect(tokens.expires_at).toBe(61_000);
    const summary = summarizeTokens({ ...tokens, refresh_token: 'RT' }, 2_000);
    expect(summary).toEqual({ state: 'authorized', expiresAt: new Date(61_000).toISOString(), scope: 'a b' });
    expect(JSON.stringify(summary)).not.toMatch(/AT|RT/);
  });

  it('an expired token without a refresh token is expired; none without tokens', () => {
    expect(summarizeTokens({ access_token: 'x', token_type: 'Bearer', expires_at: 5 }, 10).state).toBe('expired');
    expect(
      summarizeTokens({ access_token: 'x', token_type: 'Bearer', expires_at: 5, refresh_token: 'r' }, 10).state,
    ).toBe('authorized');
    expect(summarizeTokens(undefined)).toEqual({ state: 'none' });
  });

  it('keychain accounts are oauth:<id>:<kind>, reserved', () => {
    expect(vaultAccount('linear', 'tokens')).toBe('oauth:linear:tokens');
    expect(isOAuthSecretName('oauth:linear:client')).toBe(true);
    expect(isOAuthSecretName('github-token')).toBe(false);
  });
});

describe('which backends use OAuth', () => {
  const backend = (entry: unknown) => {
    const { backend: parsed, problems } = parseBackend('b', entry);
    if (!parsed) throw new Error(JSON.stringify(problems));
    return parsed;
  };

  it('remote ones without an Authorization header; the oauth options validate', () => {
    expect(usesOAuth(backend({ url: 'https://x.example/mcp' }))).toBe(true);
    expect(usesOAuth(backend({ url: 'https://x.example/mcp', headers: { authorization: 'Bearer k' } }))).toBe(false);
    expect(usesOAuth(backend({ command: 'node' }))).toBe(false);
    const configured = backend({
      url: 'https://x.example/mcp',
      oauth: { clientId: 'id', clientSecret: { secret: 'x-secret' }, scope: 'read' },
    });
    expect(configured).toMatchObject({ oauth: { clientId: 'id', scope: 'read' } });
    expect(parseBackend('b', { url: 'https://x.example/mcp', oauth: { clientSecret: 'plain' } }).problems).not.toEqual(
      [],
    );
    expect(
      parseBackend('b', { url: 'https://x.example/mcp', oauth: { clientMetadataUrl: 'http://x' } }).problems,
    ).not.toEqual([]);
  });
});

describe('recognizing authorization failures', () => {
  it('maps the SDK errors and ours, through causes', () => {
    expect(authorizationProblem(new AuthorizationRequiredError('gone'))).toEqual({ reason: 'gone', stepUp: false });
    expect(authorizationProblem(new InsufficientScopeError({ requiredScope: 'a b' }))).toMatchObject({
      scope: 'a b',
      stepUp: true,
    });
    expect(authorizationProblem(new UnauthorizedError())).toMatchObject({ stepUp: false });
    const http = new SdkHttpError(SdkErrorCode.ClientHttpAuthentication, '401 again', { status: 401, statusText: '' });
    expect(authorizationProblem(new Error('wrapped', { cause: http }))).toMatchObject({ stepUp: false });
    expect(authorizationProblem(new Error('other'))).toBeUndefined();
    const error = authorizationRequired('lin', { reason: 'r', stepUp: false });
    expect(error.code).toBe('authorization_required');
    expect(error.message).toContain('mcp-switchboard authorize lin');
  });
});

describe('the loopback redirect listener', () => {
  it('listens on 127.0.0.1, refuses a wrong state, accepts the right one with a closing page', async () => {
    const listener = await startLoopbackListener({ state: 'right-state', timeoutMs: 10_000 });
    expect(listener.redirectUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    const wrong = await fetch(`${listener.redirectUrl}?code=c&state=wrong`);
    expect(wrong.status).toBe(400);
    const missing = await fetch(`${listener.redirectUrl}?code=c`);
    expect(missing.status).toBe(400);
    const right = await fetch(`${listener.redirectUrl}?code=the-code&state=right-state&iss=https%3A%2F%2Fas`);
    expect(right.status).toBe(200);
    expect(await right.text()).toContain('You can close this window');
    await expect(listener.response).resolves.toEqual({ code: 'the-code', iss: 'https://as' });
  });

  it('an error from the authorization server fails the flow with its reason', async () => {
    const listener = await startLoopbackListener({ state: 's', timeoutMs: 10_000 });
    const page = await fetch(`${listener.redirectUrl}?state=s&error=access_denied&error_description=no`);
    expect(page.status).toBe(400);
    await expect(listener.response).rejects.toThrow('the authorization server refused: access_denied: no');
  });

  it('times out, and stops on abort', async () => {
    const slow = await startLoopbackListener({ state: 's', timeoutMs: 50 });
    await expect(slow.response).rejects.toThrow(/no authorization within/);
    const controller = new AbortController();
    const aborted = await startLoopbackListener({ state: 's', signal: controller.signal });
    controller.abort();
    await expect(aborted.response).rejects.toThrow('authorization was cancelled');
    await expect(fetch(aborted.redirectUrl)).rejects.toThrow();
  });
});

describe('a backend when the keychain cannot be read', () => {
  it('sends no token and does not ask the keychain again before every request', async () => {
    const { backend } = parseBackend('remote', { url: 'https://x.example/mcp' });
    if (!backend || backend.transport === 'stdio') throw new Error('not a remote backend');
    let reads = 0;
    // A keychain that cannot be reached (no Secret Service): a fault the real one shows only without dbus.
    const unreachable: SecretStore = {
      get: () => {
        reads++;
        return Promise.reject(new Error('Cannot autolaunch D-Bus without X11 $DISPLAY'));
      },
      set: () => Promise.reject(new Error('unreachable')),
      delete: () => Promise.reject(new Error('unreachable')),
      list: () => Promise.reject(new Error('unreachable')),
      status: () => Promise.resolve({ available: false, backend: 'none', reason: 'unreachable' }),
    };
    const logger = { info: () => undefined, warn: () => undefined, error: () => undefined };
    const provider = new BackendAuth({ config: backend, secrets: unreachable, logger }).transportAuth();
    for (let request = 0; request < 20; request++) expect(await provider.token()).toBeUndefined();
    // The SDK asks before each request: a failing keychain call per proxied call was a sixth of serve's CPU.
    expect(reads).toBeLessThanOrEqual(2);
  });
});
