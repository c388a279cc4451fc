/**
 * The Servers screen: backend cards, their badges and actions.
 */
import type { Locator, Page } from 'playwright-core';

/** The Servers screen. */
export class ServersPage {
  constructor(readonly page: Page) {}

  /** The card of backend `id`. */
  card(id: string): Locator {
    return this.page.getByRole('article', { name: id, exact: true });
  }

  /** The health badge of backend `id`, by its name "Status: …" (its text is the status in words). */
  badge(id: string): Locator {
    return this.card(id).getByRole('img', { name: /^Status: / });
  }

  /** The screen's one live summary ("2 of 3 up"). */
  get summary(): Locator {
    return this.page.getByRole('status').filter({ hasText: / up$|No servers yet/ });
  }

  /** The backend's process id, as the card shows it. */
  async pid(id: string): Promise<number> {
    const text = await this.card(id)
      .getByText(/^pid \d+$/)
      .innerText();
    return Number(text.replace('pid ', ''));
  }

  /** Opens the edit dialog of backend `id`; returns the dialog. */
  async edit(id: string): Promise<Locator> {
    await this.card(id).getByRole('button', { name: 'Edit' }).click();
    const dialog = this.page.getByRole('dialog', { name: `Edit ${id}` });
    await dialog.waitFor();
    return dialog;
  }

  /** Opens the registry update dialog of backend `id` (its card's Update); returns the dialog. */
  async openUpdate(id: string): Promise<Locator> {
    await this.card(id).getByRole('button', { name: 'Update' }).click();
    const dialog = this.page.getByRole('dialog', { name: `Update ${id}` });
    await dialog.waitFor();
    return dialog;
  }

  /** Removes backend `id`, confirming in the dialog. */
  async remove(id: string): Promise<void> {
    await this.card(id).getByRole('button', { name: 'Remove' }).click();
    const dialog = this.page.getByRole('dialog', { name: `Remove ${id}?` });
    await dialog.getByRole('button', { name: 'Remove' }).click();
  }

  /** Clicks Authorize on backend `id` (OAuth); returns the "sign-in page" link the card then shows. */
  async authorize(id: string): Promise<Locator> {
    await this.card(id).getByRole('button', { name: 'Authorize' }).click();
    return this.signInLink(id);
  }

  /** The link to the OAuth sign-in page that Authorize shows on the card. */
  signInLink(id: string): Locator {
    return this.card(id).getByRole('link', { name: 'the sign-in page' });
  }

  /** Clicks Sign out on backend `id`, confirming if a dialog asks. */
  async signOut(id: string): Promise<void> {
    await this.card(id).getByRole('button', { name: 'Sign out' }).click();
    const dialog = this.page.getByRole('dialog', { name: /Sign out/ });
    if (await dialog.isVisible()) await dialog.getByRole('button', { name: 'Sign out' }).click();
  }

  /** The card's "N of M tools on" button (for the profile the catalog is seen as). */
  toolsOn(id: string): Locator {
    return this.card(id).getByRole('button', { name: /^\d+ of \d+ tools on$/ });
  }
}
