/**
 * End to end in Chromium: what a server card says of servers that never
 * came up. A command that is not installed reads "was not found on PATH"
 * (never ENOENT), the next retry counts down in seconds, and neither card
 * shows "restarts" (only a server that was up restarts); one line on stderr
 * is "stderr (1 line)". Dialogs: focus moves in and Tab stays inside, the
 * close button, Cancel and Escape close a clean one. The endpoint's copy
 * button puts the URL on the clipboard.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { violationsInBothSchemes } from './axe.js';
import { chromiumForTests, collectCspErrors, launchChromium } from './browser.js';
import { AppPage } from './pages/AppPage.js';
import { ServersPage } from './pages/ServersPage.js';
import { serveUi, type ServedUi } from './serveUi.js';

const SLOW = { timeout: 30_000 };

const chromium = chromiumForTests();
describe.skipIf(chromium.skip)(`server cards and dialogs in Chromium${chromium.titleSuffix}`, () => {
  let served: ServedUi;
  let browser: Browser;
  let page: Page;
  let app: AppPage;
  let servers: ServersPage;
  const cspErrors: string[] = [];

  beforeAll(async () => {
    served = await serveUi({
      // Long enough between attempts for the countdown to be read in seconds.
      proxy: { reconnectInitialMs: 20_000 },
      mcpServers: {
        missing: { command: 'no-such-command-e2e', args: [] },
        noisy: { command: process.execPath, args: ['-e', "console.error('no config here'); process.exit(3)"] },
      },
    });
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: new URL(served.endpointUrl).origin,
    });
    page = await context.newPage();
    collectCspErrors(page, cspErrors);
    app = new AppPage(page);
    servers = new ServersPage(page);
    await app.login(served.loginUrl);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await served?.stop();
  });

  afterEach(() => expect(cspErrors.splice(0)).toEqual([]));

  it('says a missing command is not on PATH, counts down to the next retry, and shows no restarts', async () => {
    await servers.badge('missing').filter({ hasText: 'Down' }).waitFor(SLOW);
    const card = servers.card('missing');
    await card.getByText(/^Last error/).waitFor(SLOW);
    const text = await card.innerText();
    expect(text).toContain('`no-such-command-e2e` was not found on PATH');
    expect(text).not.toMatch(/ENOENT/);
    expect(text).not.toMatch(/\brestarts?\b/);
    const retry = card.getByText(/^Next retry in \d+ s$/);
    const first = Number((await retry.innerText()).match(/\d+/)![0]);
    await expect
      .poll(async () => Number((await retry.innerText()).match(/\d+/)?.[0] ?? first), SLOW)
      .toBeLessThan(first);
  });

  it('counts the stderr lines of a server that exited', async () => {
    await servers.badge('noisy').filter({ hasText: 'Down' }).waitFor(SLOW);
    const card = servers.card('noisy');
    await card.getByText('stderr (1 line)').click();
    await card.getByText('no config here', { exact: true }).waitFor();
    expect(await card.innerText()).not.toMatch(/\brestarts?\b/);
    await app.screenshots('servers-never-up');
    expect(await violationsInBothSchemes(page, 'Servers, never up')).toEqual([]);
  });

  it('moves focus into a dialog and keeps Tab inside; the close button, Cancel and Escape close it', async () => {
    let dialog = await servers.edit('missing');
    const inDialog = () => page.evaluate(() => document.activeElement?.closest('[role="dialog"]') !== null);
    expect(await inDialog()).toBe(true);
    for (let i = 0; i < 30; i += 1) {
      await page.keyboard.press(i % 3 === 0 ? 'Shift+Tab' : 'Tab');
      expect(await inDialog()).toBe(true);
    }
    await dialog.getByRole('button', { name: 'Close dialog' }).click();
    await dialog.waitFor({ state: 'detached' });
    dialog = await servers.edit('missing');
    await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    dialog = await servers.edit('missing');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });

  it('copies the endpoint URL', async () => {
    await app.open('Clients');
    await page.getByRole('button', { name: 'Copy endpoint URL' }).click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText()), SLOW).toBe(served.endpointUrl);
  });
});
