/**
 * The Request log screen as a test sees it: the Tasks panel (MCP tasks
 * through the proxy) with each task's row, status and Cancel button.
 */
import type { Locator, Page } from 'playwright-core';

/** The Request log screen. */
export class RequestLogPage {
  constructor(readonly page: Page) {}

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
