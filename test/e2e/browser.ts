/**
 * Debian's Chromium driven by playwright-core (no browser download). playwright-core is loaded
 * only to launch: the unit test of chromiumForTests reads this file, and the unit tier would
 * otherwise import all of Playwright for it.
 */
import { existsSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';

/** Where the browser is expected. */
export const CHROMIUM_PATH = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

/** Why the e2e tests cannot run here, or undefined when they can. */
export function browserMissing(): string | undefined {
  return existsSync(CHROMIUM_PATH) ? undefined : `no Chromium at ${CHROMIUM_PATH} (set CHROMIUM_PATH)`;
}

/** Whether the browser tests run or skip, as test/helpers/keychain.ts decides for the keychain tests. */
export interface ChromiumForTests {
  /** Why they skip, or undefined when they run. */
  skip: string | undefined;
  /** ` (SKIPPED: <why>)` for a describe title, or ''. */
  titleSuffix: string;
}

/**
 * Without Chromium the browser tests skip outside CI, saying why; in CI (`CI=true`: .ci/run
 * installs it) they run, and fail.
 */
export function chromiumForTests(
  environment: NodeJS.ProcessEnv = process.env,
  missing: string | undefined = browserMissing(),
): ChromiumForTests {
  const skip = environment['CI'] === 'true' ? undefined : missing;
  return { skip, titleSuffix: skip ? ` (SKIPPED: ${skip})` : '' };
}

/** One Chromium per test process (vitest worker), started by the first file that asks for it. */
let shared: Promise<Browser> | undefined;
/**
 * The leases open on it. When the last one closes, the browser goes after IDLE_CLOSE_MS unless a file
 * asks again: long enough for the next file to start its serve first (seconds on a loaded machine).
 */
let leases = 0;
let idleClose: NodeJS.Timeout | undefined;
const IDLE_CLOSE_MS = 30_000;

async function launch(): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

/**
 * Headless Chromium for one test file: a lease on the browser the worker's files share. The e2e
 * files run one after the other in a worker (vitest.config.ts: isolate false), and each launched
 * its own browser (about 1.5 s of CPU each, most of it in Chromium's start); a file now gets its
 * own contexts in a shared one, which isolate cookies, storage and pages as a new browser did.
 * close() closes what the lease opened; the browser itself closes once no file has used it for
 * a few seconds (a timer that keeps no process alive: Playwright kills it when the worker exits).
 */
export async function launchChromium(): Promise<Browser> {
  clearTimeout(idleClose);
  if (shared && !(await shared.catch(() => undefined))?.isConnected()) shared = undefined;
  shared ??= launch();
  const pending = shared;
  let browser: Browser;
  try {
    browser = await pending;
  } catch (error) {
    if (shared === pending) shared = undefined;
    throw error;
  }
  leases++;
  const contexts = new Set<BrowserContext>();
  let closed = false;
  const lease: Partial<Browser> = {
    newContext: async (options) => {
      const context = await browser.newContext(options);
      contexts.add(context);
      return context;
    },
    newPage: async (options) => {
      const context = await lease.newContext!(options);
      return context.newPage();
    },
    close: async () => {
      if (closed) return;
      closed = true;
      await Promise.all([...contexts].map((context) => context.close().catch(() => undefined)));
      if (--leases > 0) return;
      idleClose = setTimeout(() => {
        const closing = shared;
        shared = undefined;
        void closing?.then((done) => done.close()).catch(() => undefined);
      }, IDLE_CLOSE_MS);
      idleClose.unref();
    },
  };
  return new Proxy(browser, {
    get(target, property) {
      if (Object.hasOwn(lease, property)) return lease[property as keyof Browser];
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/**
 * Collects into `errors` every console error of `page` that reports a
 * Content-Security-Policy violation (a blocked script, style, connection or
 * eval), which would otherwise only show in the browser's console.
 */
export function collectCspErrors(page: Page, errors: string[]): void {
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content[- ]Security[- ]Policy/i.test(message.text()))
      errors.push(message.text());
  });
}
