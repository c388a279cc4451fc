/**
 * The Add server screen: featured servers, bundle files, the custom form, pasted JSON.
 */
import type { Locator, Page } from 'playwright-core';

/** The Add server screen. */
export class AddServerPage {
  constructor(readonly page: Page) {}

  /** Picks a well-known server, fills its fields (by label) and adds it. */
  async addPreset(name: string, id: string, fields: Record<string, string> = {}): Promise<void> {
    await this.page.getByRole('tab', { name: 'Find a server' }).click();
    await this.page.getByRole('group', { name: 'Featured servers' }).getByRole('button', { name }).click();
    const form = this.page.getByRole('form', { name: `Add ${name}` });
    await form.getByRole('textbox', { name: 'Name' }).fill(id);
    for (const [label, value] of Object.entries(fields)) await form.getByLabel(label).fill(value);
    await form.getByRole('button', { name: `Add ${name}` }).click();
  }

  /** The "Command or URL" form, opened. */
  async customForm(): Promise<Locator> {
    await this.page.getByRole('tab', { name: 'Command or URL' }).click();
    return this.page.getByRole('form', { name: 'Server settings' });
  }

  /** Adds an env variable row to the custom form and types its name (the value is typed separately). */
  async addVariable(name: string): Promise<number> {
    const form = this.page.getByRole('form', { name: 'Server settings' });
    await form.getByRole('button', { name: '+ Add variable' }).click();
    const index = await form.getByRole('textbox', { name: /^Variable \d+ name$/ }).count();
    await form.getByRole('textbox', { name: `Variable ${index} name` }).fill(name);
    return index;
  }

  /** The secret switch of variable row `index` (1-based). */
  secretSwitch(index: number): Locator {
    return this.page
      .getByRole('form', { name: 'Server settings' })
      .getByRole('switch', { name: `Variable ${index} secret` });
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

  /** Opens the bundle tab and picks `path` with the file picker. */
  async chooseBundle(path: string): Promise<void> {
    await this.page.getByRole('tab', { name: 'Bundle file' }).click();
    await this.page.getByLabel('Choose a bundle file').setInputFiles(path);
  }

  /** Opens the bundle tab and drops a file named `name` with `bytes` on its drop zone. */
  async dropBundle(name: string, bytes: Buffer): Promise<void> {
    await this.page.getByRole('tab', { name: 'Bundle file' }).click();
    const dataTransfer = await this.page.evaluateHandle(
      ({ data, fileName }) => {
        const transfer = new DataTransfer();
        transfer.items.add(new File([Uint8Array.from(atob(data), (c) => c.charCodeAt(0))], fileName));
        return transfer;
      },
      { data: bytes.toString('base64'), fileName: name },
    );
    await this.page.getByRole('region', { name: 'Drop a bundle here' }).dispatchEvent('drop', { dataTransfer });
  }

  /** The install form of the bundle titled `title`. */
  bundleForm(title: string): Locator {
    return this.page.getByRole('form', { name: `Add ${title}` });
  }
}
