/**
 * End to end in Chromium against server-everything (and a small audio
 * fixture: server-everything has no audio tool): Try it shows a long call's
 * progress and cancels it, answers an elicitation from a form generated from
 * its schema, declines sampling saying why, shows images at natural size
 * (zoomable), plays audio and follows resource links into the catalog.
 * Then the layout at 760 px (no horizontal scrolling; the navigation a top
 * bar), Clients' buttons on one line at 1280 px, and the accessibility check
 * (axe: no serious or critical violations) on every screen, light and dark.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { EVERYTHING, fixture } from '../helpers/harness.js';
import { violationsInBothSchemes } from './axe.js';
import { chromiumForTests, collectCspErrors, launchChromium } from './browser.js';
import { AppPage, type ScreenName } from './pages/AppPage.js';
import { CatalogPage } from './pages/CatalogPage.js';
import { ClientsPage } from './pages/ClientsPage.js';
import { ServersPage } from './pages/ServersPage.js';
import { TryItPanel } from './pages/TryItPanel.js';
import { serveUi, type ServedUi } from './serveUi.js';

const SLOW = { timeout: 30_000 };
const SCREENS: ScreenName[] = [
  'Servers',
  'Add server',
  'Catalog',
  'Authorization',
  'Clients',
  'Request log',
  'Settings',
];

const chromium = chromiumForTests();
describe.skipIf(chromium.skip)(`Try it, layout and accessibility in Chromium${chromium.titleSuffix}`, () => {
  let served: ServedUi;
  let browser: Browser;
  let page: Page;
  let app: AppPage;
  let catalog: CatalogPage;
  const cspErrors: string[] = [];

  beforeAll(async () => {
    served = await serveUi({
      mcpServers: {
        everything: { command: process.execPath, args: [EVERYTHING] },
        audio: { command: process.execPath, args: [fixture('audio.mjs')] },
      },
    });
    browser = await launchChromium();
    // An explicit context: axe (AxeBuilder) needs one to open its own pages.
    page = await (await browser.newContext({ viewport: { width: 1280, height: 860 } })).newPage();
    collectCspErrors(page, cspErrors);
    app = new AppPage(page);
    catalog = new CatalogPage(page);
    await app.login(served.loginUrl);
    const servers = new ServersPage(page);
    for (const id of ['everything', 'audio']) await servers.badge(id).filter({ hasText: 'Up' }).waitFor(SLOW);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await served?.stop();
  });

  afterEach(async () => {
    // A test that failed with the server's question open must not leave it over the next test's page.
    const question = page.getByRole('dialog', { name: 'The server asks for input' });
    if (await question.isVisible()) await question.getByRole('button', { name: 'Cancel' }).click();
    expect(cspErrors.splice(0)).toEqual([]);
  });

  /** Opens the Catalog on `exposed` and returns its Try it panel. */
  async function tryIt(exposed: string): Promise<TryItPanel> {
    await app.open('Catalog');
    await catalog.search.fill(exposed);
    await catalog.option(exposed).click();
    return new TryItPanel(page, exposed);
  }

  it('shows a long call’s progress from the server, and Cancel stops it', async () => {
    const panel = await tryIt('everything__trigger-long-running-operation');
    await panel.number('duration').fill('60');
    await panel.number('steps').fill('60');
    await panel.submit();
    await panel.running.filter({ hasText: /\b[1-9]\d* of 60/ }).waitFor(SLOW);
    expect(Number(await panel.progressBar.getAttribute('max'))).toBe(60);
    await app.screenshots('try-progress');
    await panel.cancel();
    await panel.result.filter({ hasText: 'Cancelled' }).waitFor(SLOW);
    await panel.running.waitFor({ state: 'detached' });
    expect(await panel.result.innerText()).toContain('notifications/cancelled');
  }, 60_000);

  it('answers a tool’s elicitation with a form generated from the requested schema', async () => {
    const panel = await tryIt('everything__trigger-elicitation-request');
    await panel.submit();
    const question = panel.question;
    await question.waitFor(SLOW);
    expect(await question.innerText()).toContain('Please provide inputs');
    // Defaults from the schema; a titled single choice shows its titles.
    expect(await question.getByRole('spinbutton', { name: /^Integer/ }).inputValue()).toBe('42');
    const hero = question.getByRole('combobox', { name: /^Titled Single Select Enum/ });
    expect(await hero.locator('option:checked').innerText()).toBe('Superman');
    await question.getByRole('button', { name: 'Submit' }).click();
    await question.getByRole('alert').filter({ hasText: 'is required' }).waitFor();
    await question.getByRole('textbox', { name: /^String Your full, legal name/ }).fill('Ada Lovelace');
    await question
      .getByRole('group', { name: /^Untitled Multiple Select Enum/ })
      .getByRole('checkbox', { name: 'Piano' })
      .check();
    expect(await violationsInBothSchemes(page, 'elicitation dialog')).toEqual([]);
    await app.screenshots('try-elicitation');
    await question.getByRole('button', { name: 'Submit' }).click();
    await panel.result.waitFor(SLOW);
    const text = await panel.result.innerText();
    expect(text).toContain('User provided the requested information');
    expect(text).toContain('Name: Ada Lovelace');
    expect(text).toContain('Favorite Integer: 42');
  }, 60_000);

  it('passes Decline back to the server', async () => {
    const panel = await tryIt('everything__trigger-elicitation-request');
    await panel.submit();
    await panel.question.getByRole('button', { name: 'Decline' }).click();
    await panel.result.filter({ hasText: 'User declined' }).waitFor(SLOW);
  });

  it('declines a sampling request, saying the UI has no model', async () => {
    const panel = await tryIt('everything__trigger-sampling-request');
    await panel.detail.getByRole('textbox', { name: /^prompt/ }).fill('Say hi');
    await panel.submit();
    await panel.result.getByRole('note').filter({ hasText: 'has no model' }).waitFor(SLOW);
  });

  it('shows an image at its natural size, zoomed on click', async () => {
    const panel = await tryIt('everything__get-tiny-image');
    await panel.submit();
    const image = panel.result.getByRole('img', { name: 'Image result' });
    await image.waitFor(SLOW);
    const size = await image.evaluate((img: HTMLImageElement) => [img.naturalWidth, img.width]);
    expect(size[1]).toBe(size[0]);
    await panel.result.getByRole('button', { name: 'Zoom Image result' }).click();
    const zoomed = page.getByRole('dialog', { name: 'Image result' }).getByRole('img');
    expect(await zoomed.evaluate((img: HTMLImageElement) => img.width)).toBeGreaterThan(size[0]! * 4);
    await app.screenshots('try-image-zoom');
    await page.keyboard.press('Escape');
    await zoomed.waitFor({ state: 'detached' });
  });

  it('plays audio a tool returned', async () => {
    const panel = await tryIt('audio__beep');
    await panel.submit();
    const audio = panel.result.getByLabel('Audio result');
    await audio.waitFor(SLOW);
    const duration = await audio.evaluate(
      (element: HTMLAudioElement) =>
        new Promise<number>((resolve) => {
          if (element.readyState >= 1) resolve(element.duration);
          else element.addEventListener('loadedmetadata', () => resolve(element.duration), { once: true });
        }),
    );
    expect(duration).toBeGreaterThan(0.1);
    expect(await audio.evaluate((element: HTMLAudioElement) => element.controls)).toBe(true);
  });

  it('follows a resource link into the catalog and reads the linked resource', async () => {
    const panel = await tryIt('everything__get-resource-links');
    await panel.number('count').fill('2');
    await panel.submit();
    await panel.result.getByRole('button', { name: 'Text Resource 2' }).click();
    // The template the link is an instance of, its variable read back from the link.
    const detail = page.getByRole('region', {
      name: /^Details of mcp-proxy:\/\/everything\/demo:\/\/resource\/dynamic\/text\/\{/,
    });
    await detail.waitFor();
    expect(await detail.getByRole('textbox', { name: 'resourceId' }).inputValue()).toBe('2');
    await detail.getByRole('button', { name: 'Read resource' }).click();
    await detail
      .getByRole('region', { name: 'Result' })
      .filter({ hasText: 'demo://resource/dynamic/text/2' })
      .waitFor(SLOW);
    await app.screenshots('try-resource-link');
  });

  it('fits 760 px: no screen scrolls sideways and the navigation is a top bar', async () => {
    await page.setViewportSize({ width: 760, height: 900 });
    try {
      for (const screen of SCREENS) {
        await app.open(screen);
        const overflow = await page.evaluate(() => {
          const wide = [...document.querySelectorAll<HTMLElement>('main *')].filter(
            (element) => element.getBoundingClientRect().right > window.innerWidth + 1,
          );
          return {
            page: document.documentElement.scrollWidth - window.innerWidth,
            elements: wide.slice(0, 3).map((element) => `${element.tagName}.${element.className}`),
          };
        });
        expect({ screen, ...overflow }).toEqual({ screen, page: 0, elements: [] });
        const nav = await app.nav.boundingBox();
        expect(nav!.width).toBeGreaterThan(700);
        expect(nav!.height).toBeLessThan(130);
      }
      await app.open('Servers');
      await app.screenshots('servers-760');
      await app.open('Catalog');
      await app.screenshots('catalog-760');
    } finally {
      await page.setViewportSize({ width: 1280, height: 860 });
    }
  }, 60_000);

  it('keeps every button on the Clients screen on one line at 1280 px', async () => {
    await app.open('Clients');
    await page.getByRole('main').getByRole('button').first().waitFor();
    const wrapped = await new ClientsPage(page).wrappedButtons();
    expect(wrapped).toEqual([]);
  });

  it('reports no serious or critical accessibility violations on any screen, light and dark', async () => {
    const found: string[] = [];
    for (const screen of SCREENS) {
      await app.open(screen);
      found.push(...(await violationsInBothSchemes(page, screen)));
    }
    expect(found).toEqual([]);
  }, 120_000);
});
