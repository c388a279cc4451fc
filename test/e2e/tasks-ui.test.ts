/**
 * End to end: tasks on the Request log screen of `mcp-switchboard serve` in
 * Chromium. A real SDK v1 client (a 2025-11-25 peer) runs a tool of a server
 * without task support as a task; the screen shows it running, with its
 * client, server and age, and its Cancel button cancels it, which the client
 * then sees.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1HttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Page } from 'playwright-core';
import { fixture } from '../helpers/harness.js';
import { waitUntil } from '../helpers/processes.js';
import { chromiumForTests } from './browser.js';
import type { AppPage } from './pages/AppPage.js';
import { RequestLogPage } from './pages/RequestLogPage.js';
import type { ServedUi } from './serveUi.js';
import { openUiSession, type UiSession } from './uiSession.js';

const SLOW = { timeout: 30_000 };

const chromium = chromiumForTests();
describe.skipIf(chromium.skip)(`Tasks on the Request log screen${chromium.titleSuffix}`, () => {
  let served: ServedUi;
  let ui: UiSession;
  let page: Page;
  let app: AppPage;
  let client: V1Client;

  beforeAll(async () => {
    ui = await openUiSession({ mcpServers: { asks: { command: process.execPath, args: [fixture('asks.mjs')] } } });
    ({ served, page, app } = ui);
    client = new V1Client({ name: 'tasks-e2e', version: '1.0.0' });
    await client.connect(
      new V1HttpTransport(new URL(served.endpointUrl), {
        requestInit: { headers: { Authorization: `Bearer ${served.token}` } },
      }),
    );
    // The call below names asks__hold: wait until serve lists it (its server may still be starting).
    await waitUntil(async () => (await client.listTools()).tools.some((tool) => tool.name === 'asks__hold'), {
      description: 'asks__hold to be listed',
      timeoutMs: 30_000,
    });
  }, 60_000);

  afterAll(async () => {
    await client?.close();
    await ui?.close();
  });

  afterEach(() => expect(ui.cspErrors.splice(0)).toEqual([]));

  it('shows a running task with its status and age, and cancels it', async () => {
    const { task } = await client.request(
      { method: 'tools/call', params: { name: 'asks__hold', arguments: { tag: 'ui' }, task: { ttl: 600_000 } } },
      CreateTaskResultSchema,
    );
    await app.open('Request log');
    const log = new RequestLogPage(page);
    const row = log.task('asks__hold', 'local');
    await row.waitFor(SLOW);
    expect(await row.innerText()).toMatch(/asks__hold\s+local\s+asks\s+working\s+\d+ s/);
    await app.screenshots('request-log-task-running');
    await log.cancelButton('asks__hold', 'local').click();
    await row.getByText('cancelled in Switchboard').waitFor(SLOW);
    expect(await row.innerText()).toMatch(/asks__hold\s+local\s+asks\s+cancelled\s+cancelled in Switchboard/);
    expect(await log.cancelButton('asks__hold', 'local').count()).toBe(0);
    expect((await client.experimental.tasks.getTask(task.taskId)).status).toBe('cancelled');
    await app.screenshots('request-log-task-cancelled');
  }, 60_000);
});
