/**
 * The Catalog screen: search, pick an item, try it.
 */
import type { Locator, Page } from 'playwright-core';

/** The Catalog screen. */
export class CatalogPage {
  constructor(readonly page: Page) {}

  get search(): Locator {
    return this.page.getByRole('searchbox', { name: 'Search the catalog' });
  }

  get list(): Locator {
    return this.page.getByRole('listbox', { name: 'Catalog items' });
  }

  /** The list option for the item clients see as `exposed`. */
  option(exposed: string): Locator {
    return this.list.getByRole('option', { name: exposed, exact: true });
  }

  /** The detail pane of `exposed`. */
  detail(exposed: string): Locator {
    return this.page.getByRole('region', { name: `Details of ${exposed}` });
  }

  /** Fills the generated form (text fields by argument name) and calls the tool; returns the result region. */
  async callTool(exposed: string, args: Record<string, string>): Promise<Locator> {
    const detail = this.detail(exposed);
    for (const [name, value] of Object.entries(args)) await detail.getByRole('textbox', { name }).fill(value);
    await detail.getByRole('button', { name: 'Call tool' }).click();
    return detail.getByRole('region', { name: 'Result' });
  }
}
