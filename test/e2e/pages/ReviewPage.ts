/**
 * The Review screen of one server (issue #25): what runs, its items with
 * their findings, the changes held, and the decisions.
 */
import type { Locator, Page } from 'playwright-core';

/** The Review screen. */
export class ReviewPage {
  constructor(readonly page: Page) {}

  /** Waits until the screen shows server `id`'s review. */
  async waitFor(id: string): Promise<void> {
    await this.page.getByRole('heading', { level: 1, name: `Review ${id}` }).waitFor();
    await this.whatRuns.waitFor();
  }

  /** The panel with the command, the arguments (or the URL) and the sandbox. */
  get whatRuns(): Locator {
    return this.page.getByRole('region', { name: 'What runs' });
  }

  /** An item's article (`kind` is `tool`, `prompt`, `resource` or `resource template`). */
  item(kind: string, name: string): Locator {
    return this.page.getByRole('article', { name: `${kind} ${name}`, exact: true });
  }

  /** Opens the folded findings of item `name` (of its kind); returns their list. */
  async openFindings(kind: string, name: string): Promise<Locator> {
    await this.item(kind, name).locator('summary').click();
    return this.findings(kind, name);
  }

  /** The findings list of item `name` (of its kind) in the item list. */
  findings(kind: string, name: string): Locator {
    return this.item(kind, name).getByRole('list', { name: `Findings of ${name}` });
  }

  /** The card of a held change of `tool`. */
  change(tool: string): Locator {
    return this.page.getByRole('article', { name: `Change of ${tool}` });
  }
}
