/**
 * One signed-in UI in Chromium over a real `serve`: the set-up the Add server
 * e2e tests share (serve with `config`, a 1280x860 page collecting CSP errors,
 * logged in through the one-time link), and its teardown.
 */
import type { Browser, Page } from 'playwright-core';
import { collectCspErrors, launchChromium } from './browser.js';
import { AppPage } from './pages/AppPage.js';
import { serveUi, type ServedUi, type ServeUiOptions } from './serveUi.js';

/** A served UI, its browser page and the CSP errors seen so far. */
export interface UiSession {
  served: ServedUi;
  browser: Browser;
  page: Page;
  app: AppPage;
  /** CSP violations reported by the page (tests expect none after each case). */
  cspErrors: string[];
  /** Closes the browser and stops serve. */
  close(): Promise<void>;
}

/** Serves `config` (with `options`: environment, set-up), opens Chromium on the UI and logs in. */
export async function openUiSession(config: Record<string, unknown>, options: ServeUiOptions = {}): Promise<UiSession> {
  const served = await serveUi(config, options);
  const browser = await launchChromium();
  // An explicit context: axe (AxeBuilder) needs one to open its own pages.
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 860 } })).newPage();
  const cspErrors: string[] = [];
  collectCspErrors(page, cspErrors);
  const app = new AppPage(page);
  await app.login(served.loginUrl);
  return {
    served,
    browser,
    page,
    app,
    cspErrors,
    close: async () => {
      await browser.close();
      await served.stop();
    },
  };
}
