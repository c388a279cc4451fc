/**
 * The Catalog screen: search, pick an item, try it; as one profile sees it
 * (its state per item, a switch, its tools/list cost, search_tools as it).
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

  /** The list row of `exposed`: its option (the name), and beside it the kind, badges and description. */
  row(exposed: string): Locator {
    return this.list
      .locator('.catalog-item')
      .filter({ has: this.page.getByRole('option', { name: exposed, exact: true }) });
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

  /** The "As seen by" profile picker. */
  get seenAs(): Locator {
    return this.page.getByRole('combobox', { name: 'As seen by' });
  }

  /** The line saying what the chosen profile's tools/list holds and costs. */
  get cost(): Locator {
    return this.page.getByLabel('Tools/list cost');
  }

  /** In `exposed`'s detail pane: what `viewer` gets of it ("denied by your rule for Cursor"). */
  access(exposed: string, viewer: string): Locator {
    return this.detail(exposed).getByLabel(`Access for ${viewer}`);
  }

  /** In `exposed`'s detail pane: its rule switch for `viewer`. */
  rule(exposed: string, viewer: string): Locator {
    return this.detail(exposed).getByRole('combobox', { name: `Rule for ${exposed} for ${viewer}` });
  }

  /** The box that runs search_tools as `viewer`. */
  modelSearch(viewer: string): Locator {
    return this.page.getByRole('searchbox', { name: `search_tools as ${viewer}` });
  }

  /** The names search_tools returned for `viewer`, in rank order. */
  async modelResults(viewer: string): Promise<string[]> {
    const list = this.page.getByRole('list', { name: `search_tools results for ${viewer}` });
    await list.waitFor();
    return list.getByRole('button').allInnerTexts();
  }

  /** In `exposed`'s detail pane: its override editor, opened. */
  async override(exposed: string): Promise<Locator> {
    const detail = this.detail(exposed);
    const form = detail.getByRole('form', { name: /^Override of / });
    if (!(await form.isVisible())) await detail.getByText('Override', { exact: true }).click();
    await form.getByRole('button', { name: 'Save override' }).waitFor();
    return form;
  }
}
