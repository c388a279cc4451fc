/**
 * The Add server screen: featured servers, the custom form, pasted JSON.
 */
import type { Page } from 'playwright-core';

/** The Add server screen. */
export class AddServerPage {
  constructor(readonly page: Page) {}

  /** Picks a well-known server, fills its fields (by label) and adds it. */
  async addPreset(name: string, id: string, fields: Record<string, string> = {}): Promise<void> {
    await this.page.getByRole('tab', { name: 'Featured' }).click();
    await this.page.getByRole('group', { name: 'Featured servers' }).getByRole('button', { name }).click();
    const form = this.page.getByRole('form', { name: `Add ${name}` });
    await form.getByRole('textbox', { name: 'Name' }).fill(id);
    for (const [label, value] of Object.entries(fields)) await form.getByLabel(label).fill(value);
    await form.getByRole('button', { name: `Add ${name}` }).click();
  }

  /** Pastes a config snippet, reviews it and adds every server found. */
  async addFromSnippet(text: string): Promise<void> {
    await this.page.getByRole('tab', { name: 'Paste JSON' }).click();
    await this.page.getByRole('textbox', { name: /Paste a config snippet/ }).fill(text);
    await this.page.getByRole('button', { name: 'Review servers' }).click();
    await this.page
      .getByRole('region', { name: 'Servers found' })
      .getByRole('button', { name: /Add selected/ })
      .click();
  }
}
