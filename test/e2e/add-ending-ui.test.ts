/**
 * End to end in Chromium: every add route ends the same way. The button
 * says Add; once added, the Servers screen says "Added <id>: waiting for
 * your review" (a new server is quarantined) with the Review button that
 * opens its review. A Featured entry already added is marked so, and
 * picking it again offers its review rather than adding "everything-2";
 * the Featured row shows every entry whole at 1,400 px.
 */
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EVERYTHING, MEMORY } from '../helpers/harness.js';
import { violationsInBothSchemes } from './axe.js';
import { chromiumForTests } from './browser.js';
import { AddServerPage } from './pages/AddServerPage.js';
import type { AppPage } from './pages/AppPage.js';
import { ReviewPage } from './pages/ReviewPage.js';
import type { ServedUi } from './serveUi.js';
import { openUiSession, type UiSession } from './uiSession.js';

const SLOW = { timeout: 45_000 };

const chromium = chromiumForTests();
describe.skipIf(chromium.skip)(`one ending for every add${chromium.titleSuffix}`, () => {
  let served: ServedUi;
  let ui: UiSession;
  let page: Page;
  let app: AppPage;
  const serverIds = async () =>
    Object.keys((JSON.parse(await readFile(served.configPath, 'utf8')) as { mcpServers: object }).mcpServers);

  beforeAll(async () => {
    ui = await openUiSession({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING] } } });
    ({ served, page, app } = ui);
    await page.setViewportSize({ width: 1400, height: 900 });
  }, 60_000);

  afterAll(async () => {
    await ui?.close();
  });

  afterEach(() => expect(ui.cspErrors.splice(0)).toEqual([]));

  it('the Featured row shows every entry whole at 1,400 px, the one added marked so', async () => {
    await app.open('Add server');
    const row = page.getByRole('group', { name: 'Featured servers' });
    await row.getByRole('button', { name: /Everything/ }).waitFor();
    // The mark comes with the servers' list, which may load after the row.
    await expect.poll(() => row.getByRole('button', { name: /Everything/ }).innerText(), SLOW).toMatch(/added/);
    const fits = await row.evaluate((element) => {
      const box = element.getBoundingClientRect();
      return {
        scrolls: element.scrollWidth > element.clientWidth,
        cut: [...element.querySelectorAll('button')]
          .filter((button) => {
            const b = button.getBoundingClientRect();
            return b.left < box.left - 1 || b.right > box.right + 1;
          })
          .map((button) => button.textContent),
      };
    });
    expect(fits).toEqual({ scrolls: false, cut: [] });
    expect(await row.getByRole('button', { name: /Everything/ }).innerText()).toMatch(/added/);
    expect(await row.getByRole('button', { name: /Memory/ }).innerText()).not.toMatch(/added/);
    await app.screenshots('add-featured-row-1400');
  });

  it('picking an added Featured entry again offers its review, not a second copy', async () => {
    const row = page.getByRole('group', { name: 'Featured servers' });
    await row.getByRole('button', { name: /Everything/ }).click();
    const added = page.getByRole('region', { name: /is added/ });
    expect(await added.innerText()).toMatch(/added already, as everything/);
    expect(await page.getByRole('form', { name: /^Add Everything/ }).count()).toBe(0);
    expect(await violationsInBothSchemes(page, 'Featured entry already added')).toEqual([]);
    await added.getByRole('button', { name: 'Review' }).click();
    await new ReviewPage(page).waitFor('everything');
    expect(await serverIds()).toEqual(['everything']);
  }, 60_000);

  it('the form says Add, and ends on Servers with "Added: waiting for your review" and Review', async () => {
    await app.open('Add server');
    const add = new AddServerPage(page);
    const form = await add.customForm();
    await form.getByRole('textbox', { name: /^Name/ }).fill('notes');
    await form.getByRole('textbox', { name: 'Command' }).fill(process.execPath);
    await form.getByRole('textbox', { name: /Arguments/ }).fill(MEMORY);
    await form.getByRole('button', { name: 'Add', exact: true }).click();
    const note = page.getByRole('status').filter({ hasText: 'Added notes: waiting for your review.' });
    await note.waitFor(SLOW);
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Servers');
    expect(await violationsInBothSchemes(page, 'added, waiting for review')).toEqual([]);
    await app.screenshots('add-ending');
    await note.getByRole('button', { name: 'Review notes' }).click();
    await new ReviewPage(page).waitFor('notes');
    expect(await serverIds()).toEqual(['everything', 'notes']);
  }, 60_000);
});
