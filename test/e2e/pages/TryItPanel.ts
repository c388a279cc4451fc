/**
 * The "Try it" part of a catalog item's detail pane: the generated form, the
 * running call (progress, Cancel), the server's question dialog and the result.
 */
import type { Locator, Page } from 'playwright-core';

/** Try it on the item clients see as `exposed` (its detail pane must be open). */
export class TryItPanel {
  readonly detail: Locator;

  constructor(
    readonly page: Page,
    exposed: string,
  ) {
    this.detail = page.getByRole('region', { name: `Details of ${exposed}` });
  }

  /** A numeric field of the form, by argument name. */
  number(name: string): Locator {
    return this.detail.getByRole('spinbutton', { name: new RegExp(`^${name}`) });
  }

  /** Clicks the submit button (Call tool, Get prompt, Read resource). */
  async submit(label = 'Call tool'): Promise<void> {
    await this.detail.getByRole('button', { name: label }).click();
  }

  /** The running call's status line (progress bar, words, Cancel). */
  get running(): Locator {
    return this.detail.getByRole('status', { name: 'Call in progress' });
  }

  get progressBar(): Locator {
    return this.running.getByRole('progressbar', { name: 'Progress' });
  }

  async cancel(): Promise<void> {
    await this.running.getByRole('button', { name: 'Cancel' }).click();
  }

  /** The server's question (an elicitation), shown as a dialog over the page. */
  get question(): Locator {
    return this.page.getByRole('dialog', { name: 'The server asks for input' });
  }

  get result(): Locator {
    return this.detail.getByRole('region', { name: 'Result' });
  }
}
