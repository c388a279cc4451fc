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

  /** The skills panel (skills written into the clients that read them from disk). */
  get skills(): Locator {
    return this.page.getByRole('region', { name: 'Skills' });
  }

  /** Previews the skills install into `client` (its name in the list); returns the preview as shown. */
  async previewSkills(client: string): Promise<Locator> {
    await this.skills.getByRole('combobox', { name: 'Client' }).selectOption({ label: client });
    await this.skills.getByRole('button', { name: 'Show what will be written' }).click();
    const preview = this.skills.getByRole('status', { name: 'Skills to write' });
    await preview.waitFor(SLOW);
    return preview;
  }

  /** Installs the previewed skills into `client`; returns the result as shown. */
  async installSkills(client: string): Promise<Locator> {
    await this.skills.getByRole('button', { name: `Install skills into ${client}` }).click();
    const result = this.skills.getByRole('status', { name: 'Skills written' });
    await result.waitFor(SLOW);
    return result;
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

  /** The token state of profile `id` as its row shows it ("set" or "none"). */
  async tokenState(id: string): Promise<string> {
    return (await this.profileRow(id).getByRole('cell').nth(2).innerText()).trim();
  }

  /** The warning the Endpoint panel shows when the OS keychain cannot be used. */
  get keychainWarning(): Locator {
    return this.page.getByRole('note', { name: 'Keychain unavailable' });
  }

  /** The connected sessions panel. */
  get sessions(): Locator {
    return this.page.getByRole('region', { name: 'Connected sessions' });
  }

  /** The heading of the sessions panel ("Connected sessions (2)"). */
  get sessionsHeading(): Locator {
    return this.sessions.getByRole('heading', { level: 2 });
  }

  /** The row of the session whose client is named `clientName`. */
  session(clientName: string): Locator {
    return this.sessions.getByRole('row').filter({ hasText: clientName });
  }

  /** The visible buttons of the screen whose label runs over more than one line (their text). */
  wrappedButtons(): Promise<string[]> {
    return this.page.evaluate(() =>
      [...document.querySelectorAll<HTMLButtonElement>('main button')]
        .filter((button) => {
          const style = getComputedStyle(button);
          const line = parseFloat(style.lineHeight) || parseFloat(style.fontSize) * 1.45;
          const inner = button.clientHeight - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom);
          return button.offsetParent !== null && inner > line * 1.5;
        })
        .map((button) => button.innerText),
    );
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
