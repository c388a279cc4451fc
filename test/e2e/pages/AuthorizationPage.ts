/**
 * The Authorization screen: per-item rules grouped by server (collapsible,
 * filterable, bulk actions), the profile's exposure, and pending approvals.
 */
import type { Locator, Page } from 'playwright-core';

/** The Authorization screen. */
export class AuthorizationPage {
  constructor(readonly page: Page) {}

  /** The rule select of the item clients see as `exposed`. */
  rule(exposed: string): Locator {
    return this.page.getByRole('combobox', { name: `Rule for ${exposed}`, exact: true });
  }

  /** The "From" cell of `exposed`'s row: where its rule comes from ("set here", "global default", …). */
  from(exposed: string): Locator {
    return this.page
      .getByRole('row')
      .filter({ has: this.rule(exposed) })
      .getByRole('cell')
      .nth(3);
  }

  /**
   * Sets the rule of `exposed` (`''` = inherit) and waits until the screen
   * shows it saved: the select shows it and the row's "From" says where it is set.
   */
  async setRule(exposed: string, rule: '' | 'allow' | 'deny' | 'ask'): Promise<void> {
    await this.rule(exposed).selectOption(rule);
    const saved = rule === '' ? /default/ : /^(set here|this profile)$/;
    await this.from(exposed).filter({ hasText: saved }).waitFor({ timeout: 30_000 });
    await this.page.waitForFunction(
      ([name, value]) =>
        [...document.querySelectorAll('select')].some(
          (select) => select.getAttribute('aria-label') === `Rule for ${name}` && select.value === value,
        ),
      [exposed, rule] as const,
    );
  }

  /** The backend-wide switch "Clients may use it" of `backendId` (hides it from clients; the process keeps running). */
  clientsMayUse(backendId: string): Locator {
    return this.page
      .getByRole('group', { name: `${backendId} settings` })
      .getByRole('checkbox', { name: 'Clients may use it' });
  }

  /** The card of a call to `exposed` waiting for approval. */
  approval(exposed: string): Locator {
    return this.page.getByRole('article', { name: `Approval for ${exposed}` });
  }

  /** The "Rules for" profile picker. */
  get profile(): Locator {
    return this.page.getByRole('combobox', { name: 'Rules for' });
  }

  /** The filter box over every server's items. */
  get filter(): Locator {
    return this.page.getByRole('searchbox', { name: 'Filter servers and items' });
  }

  /** The collapsible header button of `backendId`'s group. */
  group(backendId: string): Locator {
    return this.page.getByRole('button', { name: new RegExp(`^${backendId} \\d`) });
  }

  /** A bulk action ("Allow all", "Deny all", "Ask for non-read-only tools", "Reset to inherit") of a server for `who` (a profile ID or "everyone"). */
  bulk(backendId: string, label: string, who: string): Locator {
    return this.page.getByRole('button', { name: `${label} of ${backendId} for ${who}` });
  }

  /** The "inherit (…)" option of `exposed`'s rule select. */
  async inheritLabel(exposed: string): Promise<string> {
    return (await this.rule(exposed).locator('option').first().innerText()).trim();
  }

  /** The exposure select of the chosen profile (`name`: e.g. "the main token"). */
  exposure(name: string): Locator {
    return this.page
      .getByRole('region', { name: 'Tool exposure' })
      .getByRole('combobox', { name: `Exposure of ${name}` });
  }
}
