/**
 * The UI in gateway mode, end to end: a real `serve` whose UI signs people in
 * through an oidc-provider identity provider (its real login and consent
 * pages, in Chromium), with two people in different groups. alice is in the
 * admin group: she gets the management UI and filters the Request log by bob.
 * bob is not: he gets the self-service page with his identity, the tools his
 * group's profile gives him (one needing a scope), his connection to a
 * per-caller server and his own calls only; the bridge refuses his session
 * every management method; he connects to the per-caller server and revokes
 * it. alice revokes bob's connection from the Clients screen (his next call
 * asks him to sign in again). Then bob is made an administrator by an edit of the config file while
 * serve runs: his next sign-in gets the management UI, with no restart. One
 * identity provider, one protected upstream, one serve for the file.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAuthServer, type AuthServer } from '../fixtures/oauth/authServer.mjs';
import { startProtectedServer, type ProtectedServer } from '../fixtures/oauth/protectedServer.mjs';
import { BIN } from '../helpers/cli.js';
import { completeAuthorization } from '../helpers/oauthBrowser.js';
import { registerUi, signIn } from '../helpers/gatewayClient.js';
import { spawnServer, type SpawnedServer } from '../helpers/spawnServer.js';
import { chromiumForTests, launchChromium } from './browser.js';
import { AppPage } from './pages/AppPage.js';
import { freePort } from '../helpers/spawnServer.js';

const FIXTURE = join(import.meta.dirname, '../fixtures/servers/configurable.mjs');

/** Signs `login` in to the UI at `origin` through the identity provider's own pages. */
async function signInToUi(page: Page, origin: string, login: string): Promise<void> {
  await page.goto(`${origin}/`);
  await page.locator('input[name="login"]').fill(login);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Allow' }).click();
  await page.waitForURL(`${origin}/`);
}

const chromium = chromiumForTests();
describe.skipIf(chromium.skip)(`the UI in gateway mode, in Chromium${chromium.titleSuffix}`, () => {
  let as: AuthServer;
  let rs: ProtectedServer;
  /** The upstream's own authorization server (people sign in to it as themselves). */
  let upstreamAs: AuthServer;
  let serve: SpawnedServer;
  let browser: Browser;
  let dir: string;
  let origin: string;
  let configPath: string;
  /** The config file's content (an edit writes it again). */
  let config: { gateway: { ui: Record<string, unknown> } };
  const clients: Client[] = [];
  /** bob's MCP client (signed in to the gateway as bob). */
  let bobClient: Client;

  beforeAll(async () => {
    [as, upstreamAs] = await Promise.all([
      startAuthServer({
        userinfoClaims: true,
        resourceScopes: 'mcp:read notes:write',
        extraScopes: ['notes:write'],
        accounts: {
          alice: { email: 'alice@example.com', name: 'Alice Admin', groups: ['platform'] },
          bob: { email: 'bob@example.com', name: 'Bob Builder', groups: ['team-b'], scopes: ['mcp:read'] },
        },
      }),
      startAuthServer(),
    ]);
    rs = await startProtectedServer({ issuer: upstreamAs.issuer });
    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    const clientId = await registerUi(as.issuer, `${origin}/ui/callback`);
    dir = await mkdtemp(join(tmpdir(), 'switchboard-gateway-ui-'));
    for (const sub of ['home', 'xdg-config', 'xdg-state']) await mkdir(join(dir, sub));
    configPath = join(dir, 'config.json');
    const initial = {
      mcpServers: {
        notes: { command: process.execPath, args: [FIXTURE], env: { FIXTURE_TOOLS: 'read,write' } },
        prot: { url: rs.url, credentials: 'per-caller' },
      },
      policy: {
        backends: { notes: { toolScopes: { write: ['notes:write'] } } },
        clients: { admins: { name: 'Administrators' }, 'team-b': { name: 'Team B', backends: ['notes', 'prot'] } },
        groups: { platform: { profile: 'admins' }, 'team-b': { profile: 'team-b' } },
      },
      gateway: {
        resource: `${origin}/mcp`,
        authorizationServers: [as.issuer],
        scopesSupported: ['mcp:read', 'notes:write'],
        ui: { clientId, adminGroups: ['platform'] },
      },
    };
    config = initial;
    await writeFile(configPath, JSON.stringify(config));
    serve = await spawnServer(
      [BIN, 'serve', '--port', String(port), '--config', configPath, '--no-open'],
      /MCP endpoint: (\S+)\r?\n[\s\S]*?UI: (\S+)\r?\n/,
      {
        HOME: join(dir, 'home'),
        XDG_CONFIG_HOME: join(dir, 'xdg-config'),
        XDG_STATE_HOME: join(dir, 'xdg-state'),
        SWITCHBOARD_TOKEN: 'gateway-ui-token-0123456789',
        SWITCHBOARD_TOKEN_KEY: randomBytes(32).toString('base64'),
        SWITCHBOARD_NO_BROWSER: '1',
      },
      30_000,
    );
    // Calls of both people through /mcp, so the audit log names each.
    const resource = `${origin}/mcp`;
    const [alice, bob] = await Promise.all([signIn(resource, 'alice'), signIn(resource, 'bob')]);
    clients.push(alice.client, bob.client);
    bobClient = bob.client;
    // A list waits for the servers' start (the start-up grace); a call does not.
    await Promise.all([alice.client.listTools(), bob.client.listTools()]);
    await alice.client.callTool({ name: 'notes__write', arguments: { text: 'by alice' } });
    await bob.client.callTool({ name: 'notes__read', arguments: {} });
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await Promise.allSettled(clients.map((client) => client.close()));
    await browser?.close();
    await serve?.stop();
    await Promise.allSettled([as?.close(), rs?.close(), upstreamAs?.close()]);
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('sends a browser without a session to sign in', async () => {
    const answer = await fetch(`${origin}/`, { redirect: 'manual' });
    expect(answer.status).toBe(303);
    expect(answer.headers.get('location')).toBe('/ui/signin');
    const signin = await fetch(`${origin}/ui/signin`, { redirect: 'manual' });
    const location = new URL(signin.headers.get('location') ?? '');
    expect(location.origin).toBe(as.issuer);
    expect(location.searchParams.get('code_challenge_method')).toBe('S256');
    expect(location.searchParams.get('state')).toBeTruthy();
    expect(location.searchParams.get('nonce')).toBeTruthy();
    expect(signin.headers.get('set-cookie')).toMatch(/HttpOnly; SameSite=Lax/);
  });

  it('alice (admin group) gets the management UI and filters the Request log by bob', async () => {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 860 } })).newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await signInToUi(page, origin, 'alice');
    const app = new AppPage(page);
    await app.nav.waitFor();
    // At once, before the servers and profiles the filters list are fetched.
    await app.open('Request log');
    const rows = page.getByRole('region', { name: 'Request log' }).locator('tbody tr');
    await rows.filter({ hasText: 'alice@example.com' }).first().waitFor();
    await page.getByLabel('Filter by person').fill('bob@example.com');
    await page.getByLabel('Filter by person').press('Enter');
    await rows.filter({ hasText: 'alice@example.com' }).first().waitFor({ state: 'detached' });
    const texts = await rows.allInnerTexts();
    expect(texts.length).toBeGreaterThan(0);
    for (const text of texts) expect(text).toContain('bob@example.com');
    expect(errors).toEqual([]);
    await page.context().close();
  });

  describe('bob (not an admin)', () => {
    let page: Page;
    beforeAll(async () => {
      page = await (await browser.newContext({ viewport: { width: 1280, height: 860 } })).newPage();
      await signInToUi(page, origin, 'bob');
      await page.getByRole('heading', { name: 'Your access to MCP Switchboard' }).waitFor();
    });
    afterAll(() => page?.context().close());

    it('sees who he is, what he can use, his connections and his own calls only', async () => {
      expect(await page.getByRole('navigation', { name: 'Main' }).count()).toBe(0);
      const who = page.getByRole('region', { name: 'Who you are' });
      for (const text of ['bob', 'bob@example.com', 'Bob Builder', 'team-b', 'Team B (through one of your groups)'])
        await who.getByText(text, { exact: true }).waitFor();
      const tools = page.getByRole('group', { name: 'Server notes' });
      await tools.getByText('notes__read').waitFor();
      await expect(tools.locator('li').filter({ hasText: 'notes__write' }).innerText()).resolves.toContain(
        'needs scope notes:write',
      );
      const connection = page.getByRole('row', { name: 'Connection prot' });
      await connection.getByText('Not connected').waitFor();
      await connection.getByRole('link', { name: 'Sign in to prot' }).waitFor();
      const calls = page.getByRole('region', { name: 'My recent calls' }).locator('tbody tr');
      await calls.first().waitFor();
      const texts = await calls.allInnerTexts();
      expect(texts.some((text) => text.includes('read'))).toBe(true);
      expect(texts.some((text) => text.includes('write'))).toBe(false);
    });

    it('is refused every management method by the bridge itself, with forbidden', async () => {
      const answers = await page.evaluate(async () => {
        const ws = new WebSocket(`ws://${location.host}/bridge`);
        await new Promise((resolve) => ws.addEventListener('open', resolve, { once: true }));
        const ask = (id: number, method: string) =>
          new Promise<unknown>((resolve) => {
            const onMessage = (event: MessageEvent) => {
              const frame = JSON.parse(String(event.data)) as { id?: number };
              if (frame.id !== id) return;
              ws.removeEventListener('message', onMessage);
              resolve(frame);
            };
            ws.addEventListener('message', onMessage);
            ws.send(JSON.stringify({ id, method, params: {} }));
          });
        const result = {
          log: await ask(1, 'log.query'),
          backends: await ask(2, 'backends.list'),
          me: await ask(3, 'me.get'),
        };
        ws.close();
        return result;
      });
      expect(answers.log).toMatchObject({ ok: false, error: { code: 'forbidden' } });
      expect(answers.backends).toMatchObject({ ok: false, error: { code: 'forbidden' } });
      expect(answers.me).toMatchObject({ ok: true, result: { admin: false, principal: { subject: 'bob' } } });
    });

    it('connects to the per-caller server as himself, then revokes it', async () => {
      const connection = page.getByRole('row', { name: 'Connection prot' });
      const [popup] = await Promise.all([
        page.context().waitForEvent('page'),
        connection.getByRole('link', { name: 'Sign in to prot' }).click(),
      ]);
      await popup.locator('input[name="login"]').fill('bob');
      await popup.getByRole('button', { name: 'Sign in' }).click();
      await popup.getByRole('button', { name: 'Allow' }).click();
      await popup.getByRole('heading', { name: 'Signed in' }).waitFor();
      await popup.close();
      await page.reload();
      await connection.getByText('Connected', { exact: true }).waitFor();
      await connection.getByRole('button', { name: 'Revoke' }).click();
      await connection.getByText('Not connected').waitFor();
    });

    it('signs out', async () => {
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByRole('heading', { name: 'Signed out' }).waitFor();
      const answer = await page.request.get(`${origin}/`, { maxRedirects: 0 });
      expect(answer.status()).toBe(303);
    });
  });

  it("alice (an administrator) revokes bob's connection to the per-caller server from the Clients screen", async () => {
    const whoami = () => bobClient.callTool({ name: 'prot__whoami', arguments: {} });
    const link = async (): Promise<string | undefined> => {
      const refused = (await whoami().then(
        () => undefined,
        (error: unknown) => error,
      )) as { data?: { url?: string; elicitations?: { url: string }[] } } | undefined;
      return refused?.data?.elicitations?.[0]?.url ?? refused?.data?.url;
    };
    // bob signs in upstream through the link his call answers with.
    const url = await link();
    expect(url, 'a sign-in link').toBeDefined();
    expect((await completeAuthorization(url!, { login: 'bob' })).status).toBe(200);
    expect(JSON.stringify(await whoami())).toContain('bob ');

    const page = await (await browser.newContext({ viewport: { width: 1280, height: 860 } })).newPage();
    await signInToUi(page, origin, 'alice');
    const app = new AppPage(page);
    await app.nav.waitFor();
    await app.open('Clients');
    const panel = page.getByRole('region', { name: 'People signed in to servers' });
    await panel.getByRole('button', { name: 'Revoke bob@example.com on prot' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
    await panel.getByRole('button', { name: 'Revoke bob@example.com on prot' }).waitFor({ state: 'detached' });
    // bob's next call asks him to sign in again.
    expect(await link()).toBeDefined();
    await page.context().close();
  }, 40_000);

  it('makes bob an administrator live: added to gateway.ui.adminPrincipals while serve runs, his next sign-in gets the management UI', async () => {
    config.gateway.ui['adminPrincipals'] = ['bob@example.com'];
    await writeFile(configPath, JSON.stringify(config));
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 860 } })).newPage();
    // The file is read again within moments; until then a sign-in still gets the self-service page.
    const deadline = Date.now() + 15_000;
    for (;;) {
      await signInToUi(page, origin, 'bob');
      const admin = page.getByRole('navigation', { name: 'Main' });
      const self = page.getByRole('heading', { name: 'Your access to MCP Switchboard' });
      await admin.or(self).first().waitFor();
      if ((await admin.count()) > 0) break;
      if (Date.now() > deadline) throw new Error('bob never became an administrator');
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByRole('heading', { name: 'Signed out' }).waitFor();
    }
    // No restart was needed, and none is asked for.
    const readyz = (await (await fetch(`${origin}/readyz`)).json()) as { restartNeeded?: string[] };
    expect(readyz.restartNeeded).toBeUndefined();
    await page.context().close();
  }, 40_000);
});
