/**
 * End to end: the Catalog and Authorization screens joined, in Chromium
 * against the real `serve` and server-everything. The catalog seen as a
 * client profile (Cursor, with a real token and a real SDK client): a tool
 * switched off right in the catalog is marked there and gone from Cursor's
 * tools/list, Try it says it is denied, the cost line matches the real list,
 * and search_tools run from the catalog gives what Cursor's own search_tools
 * gives. The server card's "N of M tools on", and the Authorization screen
 * grouped by server with its filter, bulk actions, exposure and "inherit".
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EVERYTHING } from '../helpers/harness.js';
import { chromiumForTests, collectCspErrors, launchChromium } from './browser.js';
import { AppPage } from './pages/AppPage.js';
import { AuthorizationPage } from './pages/AuthorizationPage.js';
import { CatalogPage } from './pages/CatalogPage.js';
import { ClientsPage } from './pages/ClientsPage.js';
import { ServersPage } from './pages/ServersPage.js';
import { serveUi, type ServedUi } from './serveUi.js';

const SLOW = { timeout: 30_000 };
const SUM = 'everything__get-sum';

async function connect(url: string, token: string): Promise<Client> {
  const client = new Client({ name: 'cursor-like', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    }),
  );
  return client;
}

const chromium = chromiumForTests();
describe.skipIf(chromium.skip)(`Catalog and Authorization joined, in Chromium${chromium.titleSuffix}`, () => {
  let served: ServedUi;
  let browser: Browser;
  let page: Page;
  let app: AppPage;
  let catalog: CatalogPage;
  let authorization: AuthorizationPage;
  let main: Client;
  let cursor: Client;
  const pageErrors: string[] = [];
  const cspErrors: string[] = [];

  beforeAll(async () => {
    served = await serveUi({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING] } } });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on('pageerror', (error) => pageErrors.push(error.message));
    collectCspErrors(page, cspErrors);
    app = new AppPage(page);
    catalog = new CatalogPage(page);
    authorization = new AuthorizationPage(page);
    await app.login(served.loginUrl);
    await new ServersPage(page).badge('everything').filter({ hasText: 'Up' }).waitFor(SLOW);
    main = await connect(served.endpointUrl, served.token);
    await app.open('Clients');
    cursor = await connect(served.endpointUrl, await new ClientsPage(page).createToken('cursor', 'Cursor'));
  }, 90_000);

  afterAll(async () => {
    await Promise.allSettled([main?.close(), cursor?.close()]);
    await browser?.close();
    await served?.stop();
  });

  afterEach(() => expect(cspErrors.splice(0)).toEqual([]));

  const names = async (client: Client) => (await client.listTools()).tools.map((tool) => tool.name);

  it('sees the catalog as Cursor, switches a tool off right there, and Try it says it is denied', async () => {
    await app.open('Catalog');
    await catalog.seenAs.selectOption('cursor');
    const listed = await names(cursor);
    await catalog.cost.filter({ hasText: `Cursor sees ${listed.length} tools, ~` }).waitFor(SLOW);
    expect(await catalog.cost.innerText()).toMatch(/tokens; in search mode ~\d+$/);

    await catalog.search.fill('get-sum');
    await catalog.option(SUM).click();
    expect(await catalog.access(SUM, 'Cursor').innerText()).toBe('Cursor may use it');
    await catalog.rule(SUM, 'Cursor').selectOption('deny');
    await catalog.access(SUM, 'Cursor').filter({ hasText: 'denied by your rule for Cursor' }).waitFor(SLOW);
    expect(await catalog.option(SUM).getAttribute('aria-description')).toBe('denied by your rule for Cursor');
    await expect.poll(() => names(cursor), SLOW).not.toContain(SUM);
    expect(await names(main)).toContain(SUM);
    await catalog.cost.filter({ hasText: `Cursor sees ${listed.length - 1} tools` }).waitFor(SLOW);

    const detail = catalog.detail(SUM);
    await detail.getByRole('spinbutton', { name: /^a\b/ }).fill('1');
    await detail.getByRole('spinbutton', { name: /^b\b/ }).fill('2');
    await detail.getByRole('button', { name: 'Call tool' }).click();
    const error = detail.getByRole('alert').filter({ hasText: 'denied by your rule for Cursor' });
    await error.waitFor(SLOW);
    expect(await error.innerText()).not.toMatch(/Unknown tool|invalid_params/);
    await app.screenshots('catalog-as-profile');
  }, 90_000);

  it('says on the server card how many tools Cursor gets, and opens their switches', async () => {
    await app.open('Servers');
    const servers = new ServersPage(page);
    const button = servers.toolsOn('everything');
    const total = (await cursor.listTools()).tools.filter((tool) => tool.name.startsWith('everything__')).length + 1;
    await button.filter({ hasText: `${total - 1} of ${total} tools on` }).waitFor(SLOW);
    await button.click();
    await app.heading.filter({ hasText: /^Authorization$/ }).waitFor();
    expect(await authorization.filter.inputValue()).toBe('everything');
    expect(await authorization.profile.inputValue()).toBe('cursor');
    expect(await authorization.rule(SUM).inputValue()).toBe('deny');
  }, 60_000);

  it('groups rules by server, collapses and filters them, and asks for the non-read-only tools in one action', async () => {
    await authorization.filter.fill('');
    await authorization.group('everything').click();
    await authorization.rule(SUM).waitFor({ state: 'detached' });
    await authorization.group('everything').click();
    await authorization.filter.fill('toggle');
    const rows = page.getByRole('combobox', { name: /^Rule for / });
    await expect.poll(() => rows.count()).toBeGreaterThan(0);
    for (const name of await rows.evaluateAll((els) => els.map((el) => el.getAttribute('aria-label') ?? ''))) {
      expect(name).toContain('toggle');
    }
    await authorization.filter.fill('');
    await authorization.bulk('everything', 'Ask for non-read-only tools', 'cursor').click();
    // toggle-simulated-logging is not read-only (its annotations say so); echo is.
    await page.waitForFunction(
      () =>
        (
          document.querySelector(
            'select[aria-label="Rule for everything__toggle-simulated-logging"]',
          ) as HTMLSelectElement
        )?.value === 'ask',
      undefined,
      SLOW,
    );
    expect(await authorization.rule('everything__echo').inputValue()).toBe('');
    expect(await authorization.from('everything__toggle-simulated-logging').innerText()).toBe('this profile');
    // Cursor's own deny: inheriting gives what everyone gets, allow.
    expect(await authorization.inheritLabel(SUM)).toBe('inherit (allow)');
    await app.screenshots('authorization-grouped');
  }, 60_000);

  it('sets Cursor to search mode here, and the catalog search finds what its search_tools finds', async () => {
    await authorization.exposure('Cursor').selectOption('search');
    await expect.poll(() => names(cursor), SLOW).toEqual(['search_tools', 'call_tool', 'describe_tools']);
    await app.open('Catalog');
    await catalog.cost.filter({ hasText: 'Cursor is in search mode: 3 tools listed' }).waitFor(SLOW);
    // Not in its tools/list any more, but found by its search_tools.
    await catalog.search.fill('echo');
    await catalog.row('everything__echo').filter({ hasText: 'via search' }).waitFor(SLOW);
    for (const query of ['add two numbers', 'print environment variables', 'echo a message back']) {
      await catalog.modelSearch('Cursor').fill(query);
      const real = (await cursor.callTool({ name: 'search_tools', arguments: { query, limit: 8 } })) as {
        structuredContent: { tools: { name: string }[] };
      };
      const expected = real.structuredContent.tools.map((tool) => tool.name);
      expect(expected.length).toBeGreaterThan(0);
      await expect.poll(() => catalog.modelResults('Cursor'), SLOW).toEqual(expected);
      expect(expected).not.toContain(SUM);
    }
    await app.screenshots('catalog-model-search');
    expect(pageErrors).toEqual([]);
  }, 90_000);

  it('names the inherited value for everyone, and sets the main token exposure', async () => {
    await app.open('Authorization');
    await authorization.profile.selectOption('*');
    await authorization.setRule('everything__echo', 'deny');
    expect(await authorization.inheritLabel('everything__echo')).toBe('inherit (allow)');
    await expect.poll(() => names(main), SLOW).not.toContain('everything__echo');
    await authorization.exposure('the main token').selectOption('search');
    await expect.poll(() => names(main), SLOW).toEqual(['search_tools', 'call_tool', 'describe_tools']);
    await authorization.exposure('the main token').selectOption('default');
    await expect.poll(async () => (await names(main)).length, SLOW).toBeGreaterThan(2);
  }, 60_000);
});
