/**
 * The browser tests' decision (test/e2e/browser.ts): without Chromium they
 * skip outside CI, saying why; in CI they run, and so fail.
 */
import { describe, expect, it } from 'vitest';
import { chromiumForTests } from '../../e2e/browser.js';

const missing = 'no Chromium at /usr/bin/chromium (set CHROMIUM_PATH)';

describe('chromiumForTests', () => {
  it('skips outside CI without Chromium, saying why in the title', () => {
    expect(chromiumForTests({}, missing)).toEqual({ skip: missing, titleSuffix: ` (SKIPPED: ${missing})` });
    expect(chromiumForTests({ CI: 'false' }, missing).skip).toBe(missing);
  });

  it('runs in CI (CI=true) even without Chromium, and wherever Chromium is', () => {
    expect(chromiumForTests({ CI: 'true' }, missing)).toEqual({ skip: undefined, titleSuffix: '' });
    expect(chromiumForTests({}, undefined)).toEqual({ skip: undefined, titleSuffix: '' });
  });
});
