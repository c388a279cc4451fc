/**
 * The app shell as a test sees it: log in, navigate, take screenshots.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { ROOT } from '../../helpers/harness.js';

/** Where screenshots go (gitignored). */
export const SCREENSHOT_DIR = join(ROOT, 'test-results', 'screenshots');
/**
 * Screenshots are for a person to look at, and no test reads them: they are taken only when asked
 * (`SCREENSHOTS=1 npm run test:e2e`). Ninety full-page PNGs per run cost CI's two cores for nothing.
 */
const TAKE_SCREENSHOTS = process.env.SCREENSHOTS === '1';

/** The screens, by their navigation label. */
export type ScreenName =
  'Servers' | 'Add server' | 'Catalog' | 'Authorization' | 'Clients' | 'Request log' | 'Settings';

/** Each screen's page heading (h1). */
const HEADINGS: Record<ScreenName, string> = {
  Servers: 'Servers',
  'Add server': 'Add a server',
  Catalog: 'Catalog',
  Authorization: 'Authorization',
  Clients: 'Clients',
  'Request log': 'Request log',
  Settings: 'Settings',
};

/** The whole page. */
export class AppPage {
  constructor(readonly page: Page) {}

  /** Opens the one-time login link (the server sets the session cookie and redirects to `/`). */
  async login(loginUrl: string): Promise<void> {
    await this.page.goto(loginUrl);
    await this.page.getByRole('navigation', { name: 'Main' }).waitFor();
  }

  /** The main navigation. */
  get nav(): Locator {
    return this.page.getByRole('navigation', { name: 'Main' });
  }

  /** Goes to a screen and waits for its own heading (not the previous screen's). */
  async open(screen: ScreenName): Promise<void> {
    await this.nav.getByRole('button', { name: screen }).click();
    await this.page.getByRole('heading', { level: 1, name: HEADINGS[screen], exact: true }).waitFor();
  }

  /** The banner, on every screen but Authorization, of the oldest call waiting for approval. */
  get approvalBanner(): Locator {
    return this.page.getByRole('region', { name: 'Approval needed' });
  }

  /**
   * Grants notifications and records every browser Notification the page
   * shows from now on (read them with {@link notificationsShown}).
   */
  async recordNotifications(): Promise<void> {
    await this.page.context().grantPermissions(['notifications']);
    await this.page.evaluate(() => {
      const shown: { title: string; body?: string }[] = [];
      (window as unknown as { __shown: typeof shown }).__shown = shown;
      class Recording extends window.Notification {
        constructor(title: string, options?: NotificationOptions) {
          shown.push({ title, ...(options?.body ? { body: options.body } : {}) });
          super(title, options);
        }
      }
      Object.defineProperty(window, 'Notification', { value: Recording, configurable: true });
    });
  }

  /** The notifications recorded since {@link recordNotifications}. */
  notificationsShown(): Promise<{ title: string; body?: string }[]> {
    return this.page.evaluate(() => (window as unknown as { __shown: { title: string; body?: string }[] }).__shown);
  }

  /**
   * The error shown on `field` itself: the text of what its `aria-describedby`
   * points to while it is `aria-invalid`, else undefined (no error on the field).
   */
  async fieldError(field: Locator): Promise<string | undefined> {
    if ((await field.getAttribute('aria-invalid')) !== 'true') return undefined;
    const ids = (await field.getAttribute('aria-describedby'))?.split(/\s+/).filter(Boolean) ?? [];
    const texts: string[] = [];
    for (const id of ids) texts.push((await this.page.locator(`[id="${id}"]`).innerText()).trim());
    return texts.join(' ');
  }

  /** The footer of the main navigation (what the servers and the endpoint are at). */
  get sidebarFooter(): Locator {
    return this.nav.getByRole('note', { name: 'Servers and endpoint' });
  }

  /** The page heading. */
  get heading(): Locator {
    return this.page.getByRole('heading', { level: 1 });
  }

  /** Saves `<name>-light.png` and `<name>-dark.png` of the current screen, when screenshots are asked for. */
  async screenshots(name: string): Promise<string[]> {
    if (!TAKE_SCREENSHOTS) return [];
    await mkdir(SCREENSHOT_DIR, { recursive: true });
    const paths: string[] = [];
    for (const colorScheme of ['light', 'dark'] as const) {
      await this.page.emulateMedia({ colorScheme });
      const path = join(SCREENSHOT_DIR, `${name}-${colorScheme}.png`);
      await this.page.screenshot({ path, fullPage: true });
      paths.push(path);
    }
    await this.page.emulateMedia({ colorScheme: 'light' });
    return paths;
  }
}
