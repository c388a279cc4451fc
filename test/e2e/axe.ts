/**
 * The accessibility check of the e2e tests: axe-core (through
 * @axe-core/playwright) on the page as it is, in the light and the dark
 * colour scheme, keeping the violations a user would be blocked by
 * (impact serious or critical).
 */
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';

/** The serious and critical violations on `page` now, one line each: rule, help, and where. */
export async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help} at ${violation.nodes
          .slice(0, 5)
          .map((node) => node.target.join(' '))
          .join(' | ')}`,
    );
}

/** {@link seriousViolations} in light and then dark, each line prefixed with `where` and the scheme. */
export async function violationsInBothSchemes(page: Page, where: string): Promise<string[]> {
  const found: string[] = [];
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    for (const line of await seriousViolations(page)) found.push(`${where} (${colorScheme}): ${line}`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
  return found;
}
