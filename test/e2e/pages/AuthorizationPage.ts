/**
 * The Authorization screen: per-item rules and pending approvals.
 */
import type { Locator, Page } from 'playwright-core';

/** The Authorization screen. */
export class AuthorizationPage {
  constructor(readonly page: Page) {}

  /** The rule select of the item clients see as `exposed`. */
  rule(exposed: string): Locator {
    return this.page.getByRole('combobox', { name: `Rule for ${exposed}`, exact: true });
  }

  /** Sets the rule of `exposed` (`''` = inherit) and waits until the screen shows it. */
  async setRule(exposed: string, rule: '' | 'allow' | 'deny' | 'ask'): Promise<void> {
    await this.rule(exposed).selectOption(rule);
  }

  /** The card of a call to `exposed` waiting for approval. */
  approval(exposed: string): Locator {
    return this.page.getByRole('article', { name: `Approval for ${exposed}` });
  }
}
