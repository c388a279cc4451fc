/**
 * OAuth for remote backends against real parts: an oidc-provider
 * authorization server and an OAuth-protected SDK MCP server of ours
 * (test/fixtures/oauth), the login completed over plain HTTP, tokens in a
 * real keychain (gnome-keyring under keyring-run.mjs). Tests that need the
 * keychain skip, saying why, only when no Secret Service answers.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BackendHealth } from '../../../shared/model/health.js';
import { ConfigStore, KeytarStore, type VaultTokens } from '../../../electron/core/platform/index.js';
import type { Logger } from '../../../electron/core/api/index.js';
import { keychainForTests } from '../../helpers/keychain.js';
import { startAuthServer, type AuthServer } from '../../fixtures/oauth/authServer.mjs';
import { startProtectedServer, type ProtectedServer } from '../../fixtures/oauth/protectedServer.mjs';
import { firstText, startProxy, type Harness } from '../../helpers/harness.js';
import { completeAuthorization } from '../../helpers/oauthBrowser.js';

const SERVICE = `mcp-switchboard-oauth-test-${process.pid}`;
const store = new KeytarStore({ service: SERVICE, timeoutMs: 5000 });
const { status, required, titleSuffix: skipReason } = await keychainForTests(store);
if (!status.available && !required) console.warn(`oauth.test.ts: keychain tests skipped: ${status.reason ?? ''}`);

const ACCESS_TTL_S = 4;
let as: AuthServer;
let rs: ProtectedServer;
let harness: Harness | undefined;
const dirs: string[] = [];
const logs: string[] = [];
const logger: Logger = {
  info: (message) => logs.push(message),
  warn: (message) => logs.push(message),
  error: (message) => logs.push(message),
};

beforeAll(async () => {
  as = await startAuthServer({ accessTokenTtl: ACCESS_TTL_S });
  rs = await startProtectedServer({ issuer: as.issuer });
});

afterEach(async () => {
  await harness?.close();
  harness = undefined;
  rs.setNotBefore(0);
  if (status.available) for (const name of await store.list()) await store.delete(name);
});

afterAll(async () => {
  await rs?.close();
  await as?.close();
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

function healthOf(id = 'prot'): BackendHealth {
  const found = harness?.core.health().find((entry) => entry.id === id);
  if (!found) throw new Error(`no backend "${id}"`);
  return found;
}

async function tempConfig(): Promise<ConfigStore> {
  const dir = await mkdtemp(join(tmpdir(), 'sb-oauth-'));
  dirs.push(dir);
  return new ConfigStore(join(dir, 'config.json'));
}

async function proxyWithProtected(options: { store?: ConfigStore; opened?: string[] } = {}): Promise<Harness> {
  const config = options.store;
  const opened = options.opened ?? [];
  const proxy = await startProxy(config ? {} : { mcpServers: { prot: { url: rs.url } } }, {
    secrets: store,
    ...(config ? { store: config } : {}),
    deps: { logger, openUrl: async (url) => void opened.push(url) },
  });
  if (config) await proxy.core.addBackend('prot', { url: rs.url }).catch(() => undefined);
  return proxy;
}

/** Runs the whole authorization through the "browser"; resolves with the health after reconnecting. */
async function authorize(proxy: Harness): Promise<BackendHealth> {
  const { authorizationUrl, done } = await proxy.core.auth.startAuthorization('prot');
  const page = await completeAuthorization(authorizationUrl);
  expect(page.status, page.body).toBe(200);
  expect(page.body).toContain('You can close this window');
  return done;
}

async function storedTokens(): Promise<VaultTokens> {
  const raw = await store.get('oauth:prot:tokens');
  if (!raw) throw new Error('no tokens in the keychain');
  return JSON.parse(raw) as VaultTokens;
}

describe('a 401 from a remote backend', () => {
  it('puts it in needs-authorization (not down), without retrying in a loop', async () => {
    harness = await startProxy(
      { proxy: { reconnectInitialMs: 20, reconnectMaxMs: 50 }, mcpServers: { prot: { url: rs.url } } },
      { ...(status.available ? { secrets: store } : {}), deps: { logger } },
    );
    const health = healthOf();
    expect(health.status).toBe('needs-authorization');
    expect(health.lastError?.code).toBe('authorization_required');
    expect(health.auth).toMatchObject({ state: 'needs-authorization' });
    expect(health.auth?.reason).toContain('requires authorization');
    expect(health.nextRetryAt).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(healthOf().restarts).toBe(0);
    expect(harness.core.readiness().counts['needs-authorization']).toBe(1);
  });
});

describe.skipIf(!status.available && !required)(`OAuth with a real authorization server${skipReason}`, () => {
  it('authorize: URL opened, login, tokens in the keychain only, backend up, tools work through the proxy', async () => {
    const config = await tempConfig();
    const opened: string[] = [];
    harness = await proxyWithProtected({ store: config, opened });
    expect(healthOf().status).toBe('needs-authorization');
    const { authorizationUrl, done } = await harness.core.auth.startAuthorization('prot', { openBrowser: true });
    expect(opened).toEqual([authorizationUrl]);
    const url = new URL(authorizationUrl);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('resource')).toBe(rs.url);
    expect(url.searchParams.get('redirect_uri')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    const page = await completeAuthorization(authorizationUrl);
    expect(page.body).toContain('You can close this window');
    const health = await done;
    expect(health.status).toBe('up');
    expect(health.auth).toMatchObject({ state: 'authorized' });
    expect(health.auth?.scope).toContain('mcp:read');
    expect(Date.parse(health.auth?.expiresAt ?? '')).toBeGreaterThan(Date.now());
    const client = await harness.connect();
    expect(firstText(await client.callTool({ name: 'prot__whoami', arguments: {} }))).toBe('test-user mcp:read');

    // No token value anywhere but the keychain: config file, logs, health.
    const tokens = await storedTokens();
    const secrets = [tokens.access_token, tokens.refresh_token ?? '', ...rs.tokensSeen].filter(Boolean);
    expect(secrets.length).toBeGreaterThan(1);
    const haystacks = [
      await readFile(config.path, 'utf8'),
      logs.join('\n'),
      JSON.stringify(harness.core.health()),
      JSON.stringify(await harness.core.auth.authStatus()),
    ];
    for (const haystack of haystacks) for (const secret of secrets) expect(haystack).not.toContain(secret);
  });

  it('an expiring access token is refreshed silently: no new login', async () => {
    harness = await proxyWithProtected();
    await authorize(harness);
    const before = { ...as.stats };
    const first = await storedTokens();
    const client = await harness.connect();
    await new Promise((resolve) => setTimeout(resolve, (ACCESS_TTL_S - 0.8) * 1000));
    expect(firstText(await client.callTool({ name: 'prot__whoami', arguments: {} }))).toContain('test-user');
    expect(as.stats.refreshGrants).toBeGreaterThan(before.refreshGrants);
    expect(as.stats.authorizationCodeGrants).toBe(before.authorizationCodeGrants);
    expect((await storedTokens()).access_token).not.toBe(first.access_token);
    expect(healthOf().status).toBe('up');
  });

  it('a 401 later on is answered by one refresh, then the call goes through', async () => {
    harness = await proxyWithProtected();
    await authorize(harness);
    const client = await harness.connect();
    const refreshes = as.stats.refreshGrants;
    rs.setNotBefore(Math.floor(Date.now() / 1000) + 1);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(firstText(await client.callTool({ name: 'prot__whoami', arguments: {} }))).toContain('test-user');
    expect(as.stats.refreshGrants).toBe(refreshes + 1);
    expect(healthOf().status).toBe('up');
  });

  it('a revoked refresh token leads back to needs-authorization, with the reason', async () => {
    harness = await proxyWithProtected();
    await authorize(harness);
    const client = await harness.connect();
    expect(await as.revokeRefreshToken((await storedTokens()).refresh_token ?? '')).toBe(true);
    rs.setNotBefore(Math.floor(Date.now() / 1000) + 60);
    await expect(client.callTool({ name: 'prot__whoami', arguments: {} })).rejects.toThrow(/authoriz/);
    const health = healthOf();
    expect(health.status).toBe('needs-authorization');
    expect(health.auth?.state).toBe('needs-authorization');
    expect(health.auth?.reason).toMatch(/refused the refresh token \(invalid_grant/);
    expect(health.counts.tools).toBe(0);
  });

  it('a redirect with the wrong state is refused at the loopback; the right one completes', async () => {
    harness = await proxyWithProtected();
    const { authorizationUrl, done } = await harness.core.auth.startAuthorization('prot');
    const redirectUri = new URL(authorizationUrl).searchParams.get('redirect_uri') ?? '';
    const landed = await completeAuthorization(authorizationUrl, { stopAt: redirectUri });
    const callback = new URL(landed.url);
    const forged = new URL(callback);
    forged.searchParams.set('state', 'not-the-state');
    const refused = await fetch(forged);
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain('does not belong');
    const accepted = await fetch(callback);
    expect(accepted.status).toBe(200);
    expect((await done).status).toBe('up');
  });

  it('a 403 insufficient_scope asks for the wider scope (step-up); authorizing again grants it', async () => {
    harness = await proxyWithProtected();
    await authorize(harness);
    const client = await harness.connect();
    await expect(client.callTool({ name: 'prot__admin', arguments: {} })).rejects.toThrow(/mcp:write/);
    const health = healthOf();
    expect(health.status).toBe('needs-authorization');
    expect(health.auth?.reason).toContain('mcp:write');
    // The current grant still serves what it allows.
    expect(firstText(await client.callTool({ name: 'prot__whoami', arguments: {} }))).toContain('mcp:read');
    const again = await authorize(harness);
    expect(again.status).toBe('up');
    expect(again.auth?.scope).toContain('mcp:write');
    const next = await harness.connect();
    expect(firstText(await next.callTool({ name: 'prot__admin', arguments: {} }))).toBe('admin ok');
  });

  it('sign-out revokes at the authorization server and deletes the tokens and client', async () => {
    harness = await proxyWithProtected();
    await authorize(harness);
    const revocations = as.stats.revocations;
    const logged = logs.length;
    expect(await harness.core.auth.signOut('prot')).toEqual({ revoked: true });
    // Said once, not once by the auth's listener and again by the core.
    expect(logs.slice(logged).filter((line) => line.includes('needs authorization'))).toHaveLength(1);
    expect(as.stats.revocations).toBeGreaterThan(revocations);
    expect((await store.list()).filter((name) => name.startsWith('oauth:prot:'))).toEqual([]);
    expect(healthOf().status).toBe('needs-authorization');
    expect(healthOf().auth?.reason).toBe('signed out');
  });

  it('tokens survive a restart of the core; removing the backend deletes them', async () => {
    const config = await tempConfig();
    harness = await proxyWithProtected({ store: config });
    await authorize(harness);
    const logins = as.stats.authorizationCodeGrants;
    await harness.close();
    const saved = JSON.parse(await readFile(config.path, 'utf8')) as Record<string, unknown>;
    harness = await startProxy(saved, { store: config, secrets: store, deps: { logger } });
    expect(healthOf().status).toBe('up');
    expect(as.stats.authorizationCodeGrants).toBe(logins);
    expect(await harness.core.auth.authStatus()).toEqual([
      { id: 'prot', auth: expect.objectContaining({ state: 'authorized' }) as unknown },
    ]);
    await harness.core.removeBackend('prot');
    expect((await store.list()).filter((name) => name.startsWith('oauth:prot:'))).toEqual([]);
  });
});
