/**
 * End to end in Chromium: the one table (components/DataTable.tsx) on the
 * Clients, Request log and Catalog screens, at 1,400 and at 760 px. At 1,400
 * px the tables are tables and no header or name breaks inside a word
 * ("Serv ers", "Tok en", "everythin g"); at 760 px each row is a card whose
 * cells carry their column's header, still with no word broken and nothing
 * wider than its panel. The rows are one tab stop: the arrow keys move
 * between calls and Enter opens one. axe finds nothing serious at either
 * width. A Catalog item clicked shows its detail in view at both widths
 * (at 760 px the detail sits below the list and is scrolled to).
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EVERYTHING } from '../helpers/harness.js';
import { violationsInBothSchemes } from './axe.js';
import { chromiumForTests } from './browser.js';
import type { AppPage } from './pages/AppPage.js';
import { AuthorizationPage } from './pages/AuthorizationPage.js';
import { CatalogPage } from './pages/CatalogPage.js';
import { ClientsPage } from './pages/ClientsPage.js';
import { RequestLogPage } from './pages/RequestLogPage.js';
import { ServersPage } from './pages/ServersPage.js';
import { openUiSession, type UiSession } from './uiSession.js';

const SLOW = { timeout: 30_000 };
const WIDTHS = [1400, 760] as const;

/** How a table lays out: its words broken inside, whether its rows are cards, each cell's label, its overflow. */
interface TableLayout {
  broken: string[];
  cards: boolean;
  headers: string[];
  labels: string[];
  overflow: number;
}

function layoutOf(table: Locator): Promise<TableLayout> {
  return table.evaluate((element: HTMLTableElement) => {
    const broken: string[] = [];
    const cards = getComputedStyle(element.tBodies[0]!.rows[0]!).display === 'block';
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) {
      const node = walker.currentNode as Text;
      const parent = node.parentElement!;
      // Identifiers and paths (mono) may break anywhere; headers only said (cards, actions) are not laid out.
      if (parent.closest('.mono, .visually-hidden') || (cards && parent.closest('thead'))) continue;
      for (const word of node.data.matchAll(/\S+/g)) {
        const range = document.createRange();
        range.setStart(node, word.index);
        range.setEnd(node, word.index + word[0].length);
        const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
        if (lines.size > 1) broken.push(word[0]);
      }
    }
    const headers = [...element.tHead!.rows[0]!.cells].map((th) => th.textContent ?? '');
    const labels = [...element.tBodies[0]!.rows[0]!.cells].map((cell) =>
      cell.dataset['label'] === undefined ? '' : getComputedStyle(cell, '::before').content.replace(/^"|"$/g, ''),
    );
    const panel = element.closest('section') ?? element.parentElement!;
    return { broken, cards, headers, labels, overflow: element.scrollWidth - panel.clientWidth };
  });
}

const chromium = chromiumForTests();
describe.skipIf(chromium.skip)(`one table on every screen, at 1,400 and 760 px${chromium.titleSuffix}`, () => {
  let ui: UiSession;
  let page: Page;
  let app: AppPage;
  let sdk: Client;

  beforeAll(async () => {
    ui = await openUiSession({
      mcpServers: { everything: { command: process.execPath, args: [EVERYTHING] } },
      policy: { clients: { 'claude-desktop-laptop': { name: 'Claude Desktop on the laptop' } } },
    });
    ({ page, app } = ui);
    await new ServersPage(page).badge('everything').filter({ hasText: 'Up' }).waitFor(SLOW);
    // A rule set is a config change: the Config file panel then lists a copy.
    await app.open('Authorization');
    await new AuthorizationPage(page).setRule('everything__get-sum', 'deny');
    sdk = new Client({ name: 'e2e-tables', version: '1.0.0' });
    await sdk.connect(
      new StreamableHTTPClientTransport(new URL(ui.served.endpointUrl), {
        requestInit: { headers: { Authorization: `Bearer ${ui.served.token}` } },
      }),
    );
    for (const message of ['one', 'two']) await sdk.callTool({ name: 'everything__echo', arguments: { message } });
  }, 90_000);

  afterAll(async () => {
    await page?.setViewportSize({ width: 1280, height: 860 });
    await sdk?.close().catch(() => undefined);
    await ui?.close();
  });

  afterEach(() => expect(ui.cspErrors.splice(0)).toEqual([]));

  for (const width of WIDTHS) {
    it(`at ${width} px: Clients and Request log tables keep their words whole; rows are ${width <= 760 ? 'cards' : 'rows'}`, async () => {
      await page.setViewportSize({ width, height: 900 });
      await app.open('Clients');
      await new ClientsPage(page).profileRow('claude-desktop-laptop').waitFor(SLOW);
      const clientsTables = ['Client apps', 'Profiles', 'Config copies'];
      for (const name of clientsTables) await page.getByRole('table', { name }).waitFor(SLOW);
      const layouts: Record<string, TableLayout> = {};
      for (const name of clientsTables) layouts[name] = await layoutOf(page.getByRole('table', { name }));
      expect(await violationsInBothSchemes(page, `Clients at ${width} px`)).toEqual([]);
      await app.open('Request log');
      await new RequestLogPage(page).calls('echo').nth(1).waitFor(SLOW);
      layouts['Calls'] = await layoutOf(page.getByRole('table', { name: 'Calls' }));
      expect(await violationsInBothSchemes(page, `Request log at ${width} px`)).toEqual([]);
      await app.screenshots(`tables-${width}`);

      for (const [name, layout] of Object.entries(layouts)) {
        expect({ name, broken: layout.broken }).toEqual({ name, broken: [] });
        expect({ name, cards: layout.cards }).toEqual({ name, cards: width <= 760 });
        expect({ name, overflow: layout.overflow <= 0 }).toEqual({ name, overflow: true });
        // In a card each cell shows its column's header (an actions column with a header said only has none).
        if (layout.cards) {
          expect(layout.labels.filter(Boolean)).toEqual(layout.headers.filter((header, i) => layout.labels[i] !== ''));
          expect(layout.labels.filter(Boolean).length).toBeGreaterThan(1);
        }
      }
      expect(layouts['Profiles']?.headers).toEqual(['Profile', 'Servers', 'Token', 'Tools', 'Actions']);
    }, 90_000);
  }

  for (const width of WIDTHS) {
    it(`at ${width} px: a Catalog item clicked shows its detail in view`, async () => {
      await page.setViewportSize({ width, height: 900 });
      await app.open('Catalog');
      const catalog = new CatalogPage(page);
      await catalog.option('everything__echo').click(SLOW);
      const detail = catalog.detail('everything__echo');
      await detail.waitFor(SLOW);
      await expect.poll(async () => (await detail.boundingBox())?.y, SLOW).toBeGreaterThan(-1);
      const box = await detail.boundingBox();
      expect(box!.y).toBeLessThan(900 * 0.6);
      expect(await violationsInBothSchemes(page, `Catalog detail at ${width} px`)).toEqual([]);
    }, 60_000);
  }

  it('the rows are one tab stop: arrows move between calls, Enter opens one', async () => {
    await page.setViewportSize({ width: 1400, height: 900 });
    await app.open('Request log');
    const log = new RequestLogPage(page);
    await log.calls('echo').nth(1).waitFor(SLOW);
    const rows = page.getByRole('table', { name: 'Calls' }).locator('tbody tr');
    await rows.first().focus();
    await page.keyboard.press('ArrowDown');
    expect(await rows.nth(1).evaluate((row) => row === document.activeElement)).toBe(true);
    expect(await rows.evaluateAll((all) => all.map((row) => (row as HTMLElement).tabIndex))).toEqual(
      await rows.evaluateAll((all) => all.map((_, i) => (i === 1 ? 0 : -1))),
    );
    await page.keyboard.press('Enter');
    await log.detail.waitFor(SLOW);
    expect(await rows.nth(1).getAttribute('aria-selected')).toBe('true');
  }, 60_000);
});
