/**
 * End to end: the headless UI of `mcp-switchboard serve` in Debian's
 * Chromium, against real backends (server-everything, server-memory, a
 * crashing fixture), checked from the outside with an MCP SDK client.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { Browser, Page } from 'playwright-core';
import { EVERYTHING, fixture } from '../helpers/harness.js';
import { chromiumForTests, collectCspErrors, launchChromium } from './browser.js';
import { AddServerPage } from './pages/AddServerPage.js';
import { AppPage } from './pages/AppPage.js';
import { AuthorizationPage } from './pages/AuthorizationPage.js';
import { CatalogPage } from './pages/CatalogPage.js';
import { ServersPage } from './pages/ServersPage.js';
import { serveUi, type ServedUi } from './serveUi.js';
import { approveServer } from './approveServer.js';
import { fillSandboxNpxCache } from '../helpers/npxCache.js';

const SLOW = { timeout: 30_000 };
/** The Memory preset's package, as its npx command names it (no version: the npx cache folder is keyed by it). */
const MEMORY_PACKAGE = '@modelcontextprotocol/server-memory';

const chromium = chromiumForTests();
describe.skipIf(chromium.skip)(`Switchboard UI in Chromium${chromium.titleSuffix}`, () => {
  let served: ServedUi;
  let browser: Browser;
  let page: Page;
  let app: AppPage;
  let servers: ServersPage;
  let sdk: Client;
  const pageErrors: string[] = [];
  const cspErrors: string[] = [];

  beforeAll(async () => {
    served = await serveUi({
      proxy: { reconnectInitialMs: 2500 },
      mcpServers: {
        everything: { command: process.execPath, args: [EVERYTHING] },
      },
    });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
    page.on('pageerror', (error) => pageErrors.push(error.message));
    collectCspErrors(page, cspErrors);
    app = new AppPage(page);
    servers = new ServersPage(page);
    await app.login(served.loginUrl);
    sdk = new Client({ name: 'e2e-sdk', version: '1.0.0' });
    await sdk.connect(
      new StreamableHTTPClientTransport(new URL(served.endpointUrl), {
        requestInit: { headers: { Authorization: `Bearer ${served.token}` } },
      }),
    );
  }, 60_000);

  afterAll(async () => {
    await sdk?.close().catch(() => undefined);
    await browser?.close();
    await served?.stop();
  });

  // A CSP violation fails the test during which it happened.
  afterEach(() => expect(cspErrors.splice(0)).toEqual([]));

  const toolNames = async () => (await sdk.listTools()).tools.map((tool) => tool.name);

  it('shows the configured servers with their health as words', async () => {
    await servers.badge('everything').filter({ hasText: 'Up' }).waitFor(SLOW);
    expect(await servers.card('everything').innerText()).toMatch(/\d+\s+tools/);
    await app.screenshots('servers');
  });

  it('adds a server from the well-known list and its badge goes to up', async () => {
    await app.open('Add server');
    await app.screenshots('add-server');
    // Its private npm cache as an earlier start leaves it (helpers/npxCache.ts): quarantined, it starts from there
    // offline rather than fetching the package's tree first (20-45 s here; a loaded machine ran out of time).
    await fillSandboxNpxCache(join(served.dir, 'xdg-state', 'mcp-switchboard'), 'memory', MEMORY_PACKAGE);
    await new AddServerPage(page).addPreset('Memory', 'memory', {
      'Memory file (optional)': join(served.dir, 'memory.json'),
    });
    await app.heading.filter({ hasText: /^Servers$/ }).waitFor(SLOW);
    await servers.badge('memory').filter({ hasText: 'Up' }).waitFor(SLOW);
    // Added at run time: hidden from clients until the user approves it (here with the CLI).
    expect(await toolNames()).not.toContain('memory__read_graph');
    await approveServer(served, 'memory');
    expect(await toolNames()).toContain('memory__read_graph');
  }, 60_000);

  it('adds a server from a pasted mcpServers snippet', async () => {
    await app.open('Add server');
    // The crashing fixture: a plain node process whose `crash` tool exits it.
    const snippet = {
      mcpServers: { crashy: { command: process.execPath, args: [fixture('faulty.mjs'), 'crash-on-call'] } },
    };
    await new AddServerPage(page).addFromSnippet(JSON.stringify(snippet, null, 2));
    await page.getByRole('status').filter({ hasText: 'Added crashy' }).waitFor(SLOW);
    await app.open('Servers');
    await servers.badge('crashy').filter({ hasText: 'Up' }).waitFor(SLOW);
    await approveServer(served, 'crashy');
    expect(await toolNames()).toContain('crashy__echo');
  }, 60_000);

  it('shows a killed server going down, then up again', async () => {
    await app.open('Servers');
    const pid = await servers.pid('crashy');
    process.kill(pid, 'SIGKILL');
    await servers.badge('crashy').filter({ hasText: 'Down' }).waitFor(SLOW);
    await servers
      .card('crashy')
      .getByText(/Last error/)
      .waitFor();
    await app.screenshots('servers-down');
    await servers.badge('crashy').filter({ hasText: 'Up' }).waitFor(SLOW);
    expect(await servers.pid('crashy')).not.toBe(pid);
    expect(await servers.card('crashy').innerText()).toMatch(/[1-9]\d*\s+restarts?\b/);
  }, 60_000);

  it('browses and searches the catalog', async () => {
    await app.open('Catalog');
    const catalog = new CatalogPage(page);
    await catalog.option('everything__echo').or(catalog.list.getByRole('option').first()).first().waitFor();
    await catalog.search.fill('echoes back');
    await catalog.option('everything__echo').waitFor();
    expect(await catalog.list.getByRole('option').count()).toBe(1);
    await catalog.search.fill('');
    await catalog.search.fill('echo');
    await catalog.option('everything__echo').click();
    const detail = catalog.detail('everything__echo');
    await detail.getByRole('table', { name: 'Input schema' }).getByText('Message to echo').waitFor();
    await detail.getByText('Read-only').waitFor();
    await app.screenshots('catalog');
  });

  it('calls a tool from the UI and shows the result', async () => {
    const catalog = new CatalogPage(page);
    const result = await catalog.callTool('everything__echo', { message: 'hello from the UI' });
    await result.getByText('Echo: hello from the UI').waitFor(SLOW);
    await app.screenshots('catalog-result');
  });

  it('turns a tool off, and an SDK client no longer lists it', async () => {
    expect(await toolNames()).toContain('everything__get-sum');
    await app.open('Authorization');
    const authorization = new AuthorizationPage(page);
    await authorization.setRule('everything__get-sum', 'deny');
    await expect.poll(toolNames, { timeout: 10_000 }).not.toContain('everything__get-sum');
    expect(await toolNames()).toContain('everything__echo');
  });

  it('approves an `ask` call in the UI, and the client gets its result', async () => {
    const authorization = new AuthorizationPage(page);
    await authorization.setRule('everything__echo', 'ask'); // waits until the row shows it saved
    const call = sdk.callTool({ name: 'everything__echo', arguments: { message: 'may I?' } });
    const card = authorization.approval('everything__echo');
    await card.waitFor(SLOW);
    expect(await card.innerText()).toContain('may I?');
    await app.screenshots('authorization');
    await card.getByRole('button', { name: 'Approve once' }).click();
    const result = (await call) as { content: { type: string; text?: string }[] };
    expect(result.content[0]?.text).toContain('may I?');
    await card.waitFor({ state: 'detached' });
  }, 60_000);

  it('shows a waiting call on another screen as a banner and a notification, and approves it there', async () => {
    await app.open('Catalog');
    await app.recordNotifications();
    const call = sdk.callTool({ name: 'everything__echo', arguments: { message: 'from the banner' } });
    const banner = app.approvalBanner;
    await banner.waitFor(SLOW);
    expect(await banner.innerText()).toContain('everything__echo');
    await expect
      .poll(() => app.notificationsShown(), SLOW)
      .toEqual([{ title: 'Switchboard: approval needed', body: 'local wants to call everything__echo' }]);
    await app.screenshots('approval-banner');
    await banner.getByRole('button', { name: 'Approve once' }).click();
    const result = (await call) as { content: { type: string; text?: string }[] };
    expect(result.content[0]?.text).toContain('from the banner');
    await banner.waitFor({ state: 'detached' });
    await app.heading.filter({ hasText: /^Catalog$/ }).waitFor();
  }, 60_000);

  it('shows the calls on the Request log screen, with filters, detail and export as JSON lines', async () => {
    await app.open('Request log');
    const log = page.getByRole('region', { name: 'Request log' });
    await log
      .getByRole('button', { name: /^Details of echo/ })
      .first()
      .waitFor(SLOW);
    await page.getByRole('searchbox', { name: 'Filter by tool' }).fill('echo');
    expect(await log.getByRole('button', { name: /^Details of / }).count()).toBeGreaterThan(0);
    expect(await log.getByRole('button', { name: /^Details of (?!echo)/ }).count()).toBe(0);
    await log
      .getByRole('button', { name: /^Details of echo/ })
      .first()
      .click();
    const detail = page.getByRole('region', { name: 'Call detail' });
    await detail.getByText(/^\d+ ms$/).waitFor();
    await app.screenshots('request-log');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      log.getByRole('button', { name: 'Export JSON lines' }).click(),
    ]);
    const lines = (await readFile(await download.path(), 'utf8')).trim().split('\n');
    const entries = lines.map((line) => JSON.parse(line) as { item: string; backend: string; outcome: string });
    expect(entries.length).toBeGreaterThan(0);
    expect(entries.every((entry) => entry.item.includes('echo'))).toBe(true);
    expect(entries.some((entry) => entry.backend === 'everything' && entry.outcome === 'ok')).toBe(true);
  }, 60_000);

  it('shows the clients screen with the endpoint and the connected session', async () => {
    await app.open('Clients');
    await page.getByLabel('Endpoint URL').filter({ hasText: served.endpointUrl }).waitFor();
    await page.getByRole('region', { name: 'Connected sessions' }).getByText('e2e-sdk').waitFor(SLOW);
    await app.screenshots('clients');
  });

  it('keeps typed edits in a dialog when a click lands outside it, and Escape closes a clean one', async () => {
    await app.open('Servers');
    let dialog = await servers.edit('crashy');
    expect(await page.evaluate(() => document.activeElement?.closest('[role="dialog"]') !== null)).toBe(true);
    const args = dialog.getByRole('textbox', { name: /Arguments/ });
    const original = await args.inputValue();
    await args.fill(`${original}\n--typed`);
    await page.mouse.click(4, 4); // the backdrop, outside the dialog
    const ask = dialog.getByRole('alert').filter({ hasText: 'Discard your changes?' });
    await ask.waitFor();
    await app.screenshots('dialog-discard-ask');
    await ask.getByRole('button', { name: 'Keep editing' }).click();
    expect(await args.inputValue()).toBe(`${original}\n--typed`);
    await page.keyboard.press('Escape');
    await ask.getByRole('button', { name: 'Discard changes' }).click();
    await dialog.waitFor({ state: 'detached' });
    dialog = await servers.edit('crashy');
    expect(await dialog.getByRole('textbox', { name: /Arguments/ }).inputValue()).toBe(original);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });

  it('removes a server after confirmation', async () => {
    await app.open('Servers');
    expect(await toolNames()).toContain('crashy__echo');
    await servers.remove('crashy');
    await servers.card('crashy').waitFor({ state: 'detached', ...SLOW });
    await expect.poll(async () => (await toolNames()).some((name) => name.startsWith('crashy__'))).toBe(false);
    expect(pageErrors).toEqual([]);
  });
});
