/**
 * The Request log screen: the calls (newest first), their filters, a call's
 * detail, export as JSON lines, and the Tasks panel (MCP tasks through the
 * proxy) with each task's row, status and Cancel button.
 */
import { readFile } from 'node:fs/promises';
import type { Locator, Page } from 'playwright-core';

/** A line of the exported log, as far as the tests read it. */
export interface ExportedCall {
  item: string;
  backend: string;
  client: string;
  outcome: string;
  decision?: { rule: string; source: string };
}

/** The Request log screen. */
export class RequestLogPage {
  constructor(readonly page: Page) {}

  /** The log panel. */
  get log(): Locator {
    return this.page.getByRole('region', { name: 'Request log' });
  }

  /** The "Details of …" buttons of the rows shown, one per call (`item` narrows them to one item). */
  calls(item?: string): Locator {
    return this.log.getByRole('button', { name: item ? `Details of ${item} at` : /^Details of / });
  }

  /** The items of the rows shown, newest first. */
  async items(): Promise<string[]> {
    return (await this.calls().allInnerTexts()).map((text) => text.trim());
  }

  /** The filter control named `Filter by <what>`. */
  filter(what: 'server' | 'client' | 'tool' | 'outcome' | 'time'): Locator {
    return this.page.getByRole('group', { name: 'Log filters' }).getByLabel(`Filter by ${what}`);
  }

  /** Types `client` into the client filter and applies it (Enter). */
  async filterClient(client: string): Promise<void> {
    await this.filter('client').fill(client);
    await this.filter('client').press('Enter');
  }

  /** The call detail panel. */
  get detail(): Locator {
    return this.page.getByRole('region', { name: 'Call detail' });
  }

  /** Opens the newest call of `item`; returns the detail's rows as label -> value. */
  async openDetail(item: string): Promise<Record<string, string>> {
    await this.calls(item).first().click();
    await this.detail.waitFor();
    const rows: Record<string, string> = {};
    for (const row of await this.detail.getByRole('row').all()) {
      const label = (await row.getByRole('rowheader').innerText()).trim();
      rows[label] = (await row.getByRole('cell').innerText()).trim();
    }
    return rows;
  }

  /** Clicks Export JSON lines; returns the exported calls. */
  async export(): Promise<ExportedCall[]> {
    const [download] = await Promise.all([
      this.page.waitForEvent('download'),
      this.log.getByRole('button', { name: 'Export JSON lines' }).click(),
    ]);
    const text = await readFile(await download.path(), 'utf8');
    return text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as ExportedCall);
  }

  /** The Tasks panel. */
  get tasks(): Locator {
    return this.page.getByRole('region', { name: 'Tasks' });
  }

  /** The row of a task of `tool` created by `client`. */
  task(tool: string, client: string): Locator {
    return this.tasks.getByRole('row', { name: `Task ${tool} of ${client}` });
  }

  /** The Cancel button of a running task. */
  cancelButton(tool: string, client: string): Locator {
    return this.task(tool, client).getByRole('button', { name: `Cancel task ${tool}` });
  }
}
