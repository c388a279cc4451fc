/**
 * The Clients screen: client apps (install, uninstall, snippet, import),
 * client profiles with their tokens.
 */
import type { Locator, Page } from 'playwright-core';

const SLOW = { timeout: 30_000 };

/** The Clients screen. */
export class ClientsPage {
  constructor(readonly page: Page) {}

  /** The client apps panel. */
  get apps(): Locator {
    return this.page.getByRole('region', { name: 'Client apps' });
  }

  /** The row of client app `name` (e.g. "Cursor"). */
  row(name: string): Locator {
    return this.apps.getByRole('row').filter({ has: this.page.locator('strong').getByText(name, { exact: true }) });
  }

  /** The state badge of client app `name` ("✓ Installed", "Found", "Not found"). */
  async state(name: string): Promise<string> {
    return (await this.row(name).getByRole('cell').nth(1).innerText()).trim();
  }

  /** Clicks `Install` or `Uninstall` of `name` and waits for the row to say so. */
  async setInstalled(name: string, installed: boolean): Promise<void> {
    await this.row(name)
      .getByRole('button', { name: installed ? 'Install' : 'Uninstall', exact: true })
      .click();
    await this.row(name)
      .getByRole('button', { name: installed ? 'Uninstall' : 'Install', exact: true })
      .waitFor(SLOW);
  }

  /** The status note under a client app (what the last action did). */
  note(name: string): Locator {
    return this.row(name).getByRole('status');
  }

  /** Shows the snippet of `name`; returns its text as shown. */
  async snippet(name: string): Promise<string> {
    await this.row(name).getByRole('button', { name: 'Snippet', exact: true }).click();
    const pre = this.row(name).locator('pre');
    await pre.waitFor(SLOW);
    return pre.innerText();
  }

  /** Opens the import dialog of `name`; waits until its servers are listed. */
  async openImport(name: string): Promise<Locator> {
    await this.row(name).getByRole('button', { name: 'Import…' }).click();
    const dialog = this.page.getByRole('dialog', { name: `Import from ${name}` });
    await dialog.getByRole('checkbox').first().waitFor(SLOW);
    return dialog;
  }

  /** The client profiles panel. */
  get profiles(): Locator {
    return this.page.getByRole('region', { name: 'Client profiles' });
  }

  /** The row of profile `id`. */
  profileRow(id: string): Locator {
    return this.profiles.getByRole('row').filter({ hasText: id });
  }

  /** Creates a profile with a token; returns the token the one-time dialog shows (and closes it). */
  async createToken(id: string, name: string): Promise<string> {
    const form = this.page.getByRole('form', { name: 'New client profile' });
    await form.getByLabel('Profile ID').fill(id);
    await form.getByLabel('Profile name').fill(name);
    await form.getByRole('button', { name: 'Create token' }).click();
    return this.takeToken();
  }

  /** Rotates the token of profile `id`; returns the new one. */
  async rotateToken(id: string): Promise<string> {
    await this.profileRow(id)
      .getByRole('button', { name: /Rotate token|Issue token/ })
      .click();
    return this.takeToken();
  }

  /** Revokes profile `id`'s token, confirming in the dialog. */
  async revoke(id: string): Promise<void> {
    await this.profileRow(id).getByRole('button', { name: 'Revoke' }).click();
    const dialog = this.page.getByRole('dialog', { name: `Revoke ${id}?` });
    await dialog.getByRole('button', { name: 'Revoke' }).click();
    await dialog.waitFor({ state: 'detached' });
  }

  /** The one-time token dialog. */
  get tokenDialog(): Locator {
    return this.page.getByRole('dialog', { name: 'Copy the token now' });
  }

  /** Reads the token from the one-time dialog, then closes it. */
  async takeToken(): Promise<string> {
    const token = await this.tokenDialog.getByLabel('New token').innerText(SLOW);
    await this.tokenDialog.getByRole('button', { name: 'Done' }).click();
    await this.tokenDialog.waitFor({ state: 'detached' });
    return token.trim();
  }
}
