/**
 * Debian's Chromium driven by playwright-core (no browser download).
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';

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

/** Launches headless Chromium. */
export function launchChromium(): Promise<Browser> {
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
