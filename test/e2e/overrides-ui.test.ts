/**
 * End to end: the catalog screen's override editor in Chromium against the
 * real `serve` and server-everything, with a real SDK client. A tool renamed,
 * described and its argument fixed: the preview shows what the model would see
 * and its token cost as you type, a fixed value its schema refuses is named
 * under its field before anything is saved, Save makes the client's
 * tools/list show the override (the argument hidden) and its calls get the
 * fixed value; Remove puts the server's definition back. No serious axe
 * violation in either color scheme.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EVERYTHING } from '../helpers/harness.js';
import { waitUntil } from '../helpers/processes.js';
import { violationsInBothSchemes } from './axe.js';
import { chromiumForTests, collectCspErrors, launchChromium } from './browser.js';
import { AppPage } from './pages/AppPage.js';
import { CatalogPage } from './pages/CatalogPage.js';
import { ServersPage } from './pages/ServersPage.js';
import { serveUi, type ServedUi } from './serveUi.js';

const SLOW = { timeout: 30_000 };

const chromium = chromiumForTests();
describe.skipIf(chromium.skip)(`The override editor, in Chromium${chromium.titleSuffix}`, () => {
  let served: ServedUi;
  let browser: Browser;
  let page: Page;
  let app: AppPage;
  let catalog: CatalogPage;
  let client: Client;
  const pageErrors: string[] = [];
  const cspErrors: string[] = [];

  beforeAll(async () => {
    served = await serveUi({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING] } } });
    browser = await launchChromium();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 1000 } })).newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    collectCspErrors(page, cspErrors);
    app = new AppPage(page);
    catalog = new CatalogPage(page);
    await app.login(served.loginUrl);
    await new ServersPage(page).badge('everything').filter({ hasText: 'Up' }).waitFor(SLOW);
    client = new Client({ name: 'model-side', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(served.endpointUrl), {
        requestInit: { headers: { Authorization: `Bearer ${served.token}` } },
      }),
    );
  }, 90_000);

  afterAll(async () => {
    await client?.close();
    await browser?.close();
    await served?.stop();
  });

  afterEach(() => {
    expect(cspErrors.splice(0)).toEqual([]);
    expect(pageErrors.splice(0)).toEqual([]);
  });

  const tool = async (name: string) => (await client.listTools()).tools.find((t) => t.name === name);

  it('previews, refuses a wrong fixed value under its field, saves, and the model sees the override', async () => {
    await app.open('Catalog');
    await catalog.search.fill('echo');
    await catalog.option('everything__echo').click();
    const form = await catalog.override('everything__echo');
    const preview = form.getByRole('region', { name: 'What the model sees' });
    await preview.getByText('everything__echo', { exact: true }).waitFor();
    // The form starts from what the model sees now.
    expect(await form.getByRole('textbox', { name: /^Name/ }).inputValue()).toBe('echo');
    const upstream = (await tool('everything__echo'))?.description;
    expect(await form.getByRole('textbox', { name: 'Description' }).inputValue()).toBe(upstream);
    // One estimate: the preview's tokens are the Context cost the detail pane shows for the same definition.
    const cost = (
      await catalog
        .detail('everything__echo')
        .getByRole('row', { name: /^Context cost/ })
        .innerText()
    ).match(/~\d+/)?.[0];
    await expect.poll(async () => preview.getByText(/^~\d+ tokens$/).innerText(), SLOW).toBe(`${cost} tokens`);
    expect(await catalog.row('everything__echo').getByText('overridden').count()).toBe(0);

    await form.getByRole('textbox', { name: /^Name/ }).fill('say');
    await form.getByRole('textbox', { name: 'Description' }).fill('Says the fixed greeting');
    await form.getByRole('combobox', { name: 'Read-only' }).selectOption('yes');
    await form.getByRole('combobox', { name: 'How message is set' }).selectOption('fixed');
    const value = form.getByRole('textbox', { name: 'Value of message' });
    await value.fill('42');
    await form.getByText('message must be string').waitFor();
    await value.fill('hi');
    await form.getByText('message must be JSON (a string in quotes: "text")').waitFor();
    await value.fill('"hi"');
    await preview.getByText('everything__say', { exact: true }).waitFor();
    expect(await violationsInBothSchemes(page, 'Override editor')).toEqual([]);
    await preview.getByText('Says the fixed greeting').waitFor();
    expect(await preview.getByText(/^~\d+ tokens$/).innerText()).toMatch(/^~\d+ tokens$/);
    expect(await tool('everything__say')).toBeUndefined();

    await form.getByRole('button', { name: 'Save override' }).click();
    await waitUntil(async () => (await tool('everything__say')) !== undefined);
    const said = await tool('everything__say');
    expect(said).toMatchObject({ description: 'Says the fixed greeting', annotations: { readOnlyHint: true } });
    expect((said?.inputSchema as { properties?: object }).properties).toEqual({});
    const result = await client.callTool({ name: 'everything__say', arguments: {} });
    expect(JSON.stringify(result.content)).toContain('hi');
    await catalog.detail('everything__say').waitFor(SLOW);
    await catalog.row('everything__say').getByText('overridden', { exact: true }).waitFor(SLOW);

    const saved = await catalog.override('everything__say');
    await saved.getByRole('button', { name: 'Remove override' }).click();
    await waitUntil(async () => (await tool('everything__echo')) !== undefined);
  });
});
