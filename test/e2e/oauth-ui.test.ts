/**
 * End to end: a user authorizes a remote OAuth server from the headless UI
 * with a real browser login. `mcp-switchboard serve` (the built bin, real
 * keychain under keyring-run.mjs, SWITCHBOARD_NO_BROWSER=1 so nothing opens
 * xdg-open) has the protected MCP fixture as a remote backend; Chromium clicks
 * Authorize, follows the card's sign-in link into a new tab of the same
 * context, signs in and consents on the oidc-provider fixture's pages, lands
 * on the loopback page, and the card goes Up; a tool of the server is called
 * from the Catalog. No token value ever reaches the browser (WebSocket frames,
 * HTTP bodies), the config file or serve's output. Sign out returns the card
 * to Needs authorization and empties the keychain.
 */
import { readFile } from 'node:fs/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { vaultAccount, type VaultTokens, KeytarStore } from '../../electron/core/platform/index.js';
import { keychainForTests } from '../helpers/keychain.js';
import { startAuthServer, type AuthServer } from '../fixtures/oauth/authServer.mjs';
import { startProtectedServer, type ProtectedServer } from '../fixtures/oauth/protectedServer.mjs';
import { chromiumForTests, collectCspErrors, launchChromium } from './browser.js';
import { AppPage } from './pages/AppPage.js';
import { CatalogPage } from './pages/CatalogPage.js';
import { OAuthSignInPage } from './pages/OAuthSignInPage.js';
import { ServersPage } from './pages/ServersPage.js';
import { serveUi, type ServedUi } from './serveUi.js';

const SLOW = { timeout: 30_000 };
const ID = 'prot';
const LOGIN = 'ui-user';

const SERVICE = `mcp-switchboard-oauth-ui-test-${process.pid}`;
const store = new KeytarStore({ service: SERVICE, timeoutMs: 5000 });
const keychain = await keychainForTests(store);
const { status } = keychain;
const skip = chromiumForTests().skip ?? keychain.skip;
if (skip) console.warn(`oauth-ui.test.ts: skipped: ${skip}`);

describe.skipIf(skip)(`OAuth sign-in from the UI in Chromium${skip ? ` (SKIPPED: ${skip})` : ''}`, () => {
  let as: AuthServer;
  let rs: ProtectedServer;
  let served: ServedUi;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let app: AppPage;
  let servers: ServersPage;
  let tokens: VaultTokens | undefined;
  const pageErrors: string[] = [];
  const cspErrors: string[] = [];
  /** Every WebSocket frame (the bridge) the pages received or sent, and every HTTP body they got. */
  const seen: { where: string; text: string }[] = [];
  const pendingBodies: Promise<unknown>[] = [];

  const storedTokens = async (): Promise<VaultTokens | undefined> => {
    const raw = await store.get(vaultAccount(ID, 'tokens'));
    return raw === undefined ? undefined : (JSON.parse(raw) as VaultTokens);
  };

  beforeAll(async () => {
    as = await startAuthServer();
    rs = await startProtectedServer({ issuer: as.issuer });
    served = await serveUi(
      { mcpServers: { [ID]: { url: rs.url } } },
      { env: () => ({ SWITCHBOARD_KEYCHAIN_SERVICE: SERVICE, SWITCHBOARD_NO_BROWSER: '1' }) },
    );
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    context.on('page', (opened) => {
      opened.on('pageerror', (error) => pageErrors.push(error.message));
      opened.on('websocket', (ws) => {
        ws.on('framereceived', ({ payload }) => seen.push({ where: `ws<- ${ws.url()}`, text: String(payload) }));
        ws.on('framesent', ({ payload }) => seen.push({ where: `ws-> ${ws.url()}`, text: String(payload) }));
      });
    });
    context.on('response', (response) => {
      pendingBodies.push(
        response
          .text()
          .then((text) => seen.push({ where: `http ${response.url()}`, text }))
          .catch(() => undefined), // redirects and aborted loads have no body
      );
    });
    page = await context.newPage();
    collectCspErrors(page, cspErrors);
    app = new AppPage(page);
    servers = new ServersPage(page);
    await app.login(served.loginUrl);
  }, 90_000);

  // A CSP violation fails the test during which it happened.
  afterEach(() => expect(cspErrors.splice(0)).toEqual([]));

  afterAll(async () => {
    await browser?.close();
    await served?.stop();
    await rs?.close();
    await as?.close();
    if (status.available) for (const name of await store.list()) await store.delete(name);
  });

  it('shows the server as needing authorization, with an Authorize button', async () => {
    const badge = servers.badge(ID);
    await badge.filter({ hasText: 'Needs authorization' }).waitFor(SLOW);
    expect(await badge.innerText()).toContain('⚑'); // icon and words, not colour alone
    expect(await badge.getAttribute('aria-label')).toBe('Status: Needs authorization');
    await servers
      .card(ID)
      .getByText(/requires authorization/)
      .first()
      .waitFor(SLOW);
    expect(await servers.card(ID).getByRole('button', { name: 'Authorize' }).isEnabled()).toBe(true);
    expect(await storedTokens()).toBeUndefined();
    await app.screenshots('oauth-needs-authorization');
  });

  it('signs in through the real browser from the card’s link, and the card goes Up', async () => {
    const link = await servers.authorize(ID);
    await link.waitFor(SLOW);
    const href = await link.getAttribute('href');
    const url = new URL(href ?? '');
    expect(url.origin).toBe(as.issuer);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('resource')).toBe(rs.url);
    expect(url.searchParams.get('redirect_uri')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);

    // The link opens a new tab of the same browser context (the user's browser).
    const [tab] = await Promise.all([context.waitForEvent('page', SLOW), link.click()]);
    const signIn = new OAuthSignInPage(tab);
    await signIn.signIn(LOGIN);
    expect(await signIn.done.innerText()).toBe('Authorization complete');
    expect(await signIn.message()).toContain(`is authorized. You can close this window.`);
    expect(new URL(tab.url()).hostname).toBe('127.0.0.1');
    await tab.close();

    await servers.badge(ID).filter({ hasText: 'Up' }).waitFor(SLOW);
    await servers
      .card(ID)
      .getByText(/^OAuth: signed in/)
      .waitFor(SLOW);
    await servers.card(ID).getByRole('button', { name: 'Sign out' }).waitFor();
    await servers.signInLink(ID).waitFor({ state: 'detached', ...SLOW });
    expect(as.stats.authorizationCodeGrants).toBe(1);
    tokens = await storedTokens();
    expect(tokens?.access_token).toBeTruthy();
    expect(tokens?.refresh_token).toBeTruthy();
    await app.screenshots('oauth-up');
  }, 90_000);

  it('calls the protected server’s tool from the Catalog', async () => {
    await app.open('Catalog');
    const catalog = new CatalogPage(page);
    await catalog.search.fill('whoami');
    await catalog.option(`${ID}__whoami`).click(SLOW);
    const result = await catalog.callTool(`${ID}__whoami`, {});
    await result.getByText(`${LOGIN} mcp:read`).waitFor(SLOW);
  });

  it('signs out from the UI: Needs authorization again, tokens gone from the keychain', async () => {
    await app.open('Servers');
    await servers.signOut(ID);
    await servers.badge(ID).filter({ hasText: 'Needs authorization' }).waitFor(SLOW);
    await servers
      .card(ID)
      .getByRole('button', { name: 'Sign out' })
      .waitFor({ state: 'detached', ...SLOW });
    await servers.card(ID).getByRole('button', { name: 'Authorize' }).waitFor();
    expect(await servers.signInLink(ID).count()).toBe(0);
    expect(await storedTokens()).toBeUndefined();
    expect(await store.get(vaultAccount(ID, 'client'))).toBeUndefined();
    expect(as.stats.revocations).toBeGreaterThan(0);
  });

  it('never let a token reach the browser, the config file or serve’s output', async () => {
    await Promise.allSettled(pendingBodies);
    const secrets = [tokens?.access_token, tokens?.refresh_token, ...rs.tokensSeen].filter(
      (value): value is string => typeof value === 'string' && value.length > 0,
    );
    expect(secrets.length).toBeGreaterThan(1);
    expect(seen.filter((entry) => entry.where.startsWith('ws<-')).length).toBeGreaterThan(10);
    const haystacks = [
      ...seen,
      { where: 'config file', text: await readFile(served.configPath, 'utf8') },
      { where: 'serve output', text: served.output() },
    ];
    const leaks = haystacks.flatMap(({ where, text }) =>
      secrets.filter((secret) => text.includes(secret)).map(() => where),
    );
    expect(leaks).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
