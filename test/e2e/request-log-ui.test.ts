/**
 * End to end in Chromium: the Request log screen over calls an SDK client
 * made through the endpoint to two real servers. Each call's detail names
 * the rule that decided it and the level that set it ("Decided by"), and
 * its arguments and result where the server's policy captures them; the
 * server, client, outcome and time filters narrow the list as they say; a
 * new call shows up while the screen is open (live tail); the approval
 * banner's Deny and Always allow do what they say; the
 * export holds what the filters show, with the decision.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EVERYTHING, MEMORY } from '../helpers/harness.js';
import { chromiumForTests } from './browser.js';
import type { AppPage } from './pages/AppPage.js';
import { AuthorizationPage } from './pages/AuthorizationPage.js';
import { RequestLogPage } from './pages/RequestLogPage.js';
import { ServersPage } from './pages/ServersPage.js';
import { openUiSession, type UiSession } from './uiSession.js';

const SLOW = { timeout: 30_000 };

const chromium = chromiumForTests();
describe.skipIf(chromium.skip)(`the Request log screen in Chromium${chromium.titleSuffix}`, () => {
  let ui: UiSession;
  let page: Page;
  let app: AppPage;
  let log: RequestLogPage;
  let sdk: Client;

  beforeAll(async () => {
    ui = await openUiSession({
      // memory's calls are kept with their arguments and results; everything's are not.
      policy: { backends: { memory: { capture: true } } },
      mcpServers: {
        everything: { command: process.execPath, args: [EVERYTHING] },
        memory: { command: process.execPath, args: [MEMORY], env: { MEMORY_FILE_PATH: '/dev/null' } },
      },
    });
    ({ page, app } = ui);
    log = new RequestLogPage(page);
    const servers = new ServersPage(page);
    for (const id of ['everything', 'memory']) await servers.badge(id).filter({ hasText: 'Up' }).waitFor(SLOW);
    sdk = new Client({ name: 'e2e-log', version: '1.0.0' });
    await sdk.connect(
      new StreamableHTTPClientTransport(new URL(ui.served.endpointUrl), {
        requestInit: { headers: { Authorization: `Bearer ${ui.served.token}` } },
      }),
    );
    // Allowed by the global default, then refused by the item's own rule (set on the Authorization screen).
    await sdk.callTool({ name: 'everything__echo', arguments: { message: 'logged' } });
    await sdk.callTool({ name: 'memory__read_graph', arguments: {} });
    await app.open('Authorization');
    await new AuthorizationPage(page).setRule('everything__get-sum', 'deny');
    await expect(sdk.callTool({ name: 'everything__get-sum', arguments: { a: 1, b: 2 } })).rejects.toThrow();
  }, 90_000);

  afterAll(async () => {
    await sdk?.close().catch(() => undefined);
    await ui?.close();
  });

  afterEach(() => expect(ui.cspErrors.splice(0)).toEqual([]));

  it('names the rule that decided each call, and the level it came from', async () => {
    await app.open('Request log');
    await log.calls('get-sum').first().waitFor(SLOW);
    expect(await log.openDetail('get-sum')).toMatchObject({
      Server: 'everything',
      Outcome: expect.stringMatching(/^denied/),
      'Decided by': "deny, by this item's rule for every client",
    });
    await app.screenshots('request-log-decided');
    expect(await log.openDetail('echo')).toMatchObject({
      Outcome: 'ok',
      'Decided by': 'allow, by the global default rule',
    });
    await log.detail.getByText('Arguments and results are kept only for servers whose policy captures them').waitFor();
    await log.openDetail('read_graph');
    await log.detail.getByRole('heading', { name: 'Arguments' }).waitFor();
    expect(await log.detail.getByRole('heading', { name: 'Result' }).isVisible()).toBe(true);
    expect(await log.detail.innerText()).toMatch(/"entities"/);
  });

  it('filters by outcome, server, client and time', async () => {
    await log.filter('outcome').selectOption('denied');
    await expect.poll(() => log.items(), SLOW).toEqual(['get-sum']);
    await log.filter('outcome').selectOption('');
    await log.filter('server').selectOption('memory');
    await expect.poll(() => log.items(), SLOW).toEqual(['read_graph']);
    await log.filter('server').selectOption('');
    await log.filterClient('nobody');
    await log.log.getByText('No requests yet match these filters.').waitFor(SLOW);
    await log.filterClient('local');
    await expect.poll(async () => (await log.items()).sort(), SLOW).toEqual(['echo', 'get-sum', 'read_graph']);
    await log.filter('time').selectOption('Last 5 minutes');
    await expect.poll(async () => (await log.items()).sort(), SLOW).toEqual(['echo', 'get-sum', 'read_graph']);
    await log.filter('time').selectOption('');
  });

  it('tails the log live: a call made while the screen is shown appears at the top', async () => {
    await sdk.callTool({ name: 'everything__echo', arguments: { message: 'live' } });
    await expect.poll(async () => (await log.items()).filter((item) => item === 'echo').length, SLOW).toBe(2);
    expect((await log.items())[0]).toBe('echo');
  });

  it('exports what the filters show as JSON lines, with the decision', async () => {
    await log.filter('outcome').selectOption('denied');
    await expect.poll(() => log.items(), SLOW).toEqual(['get-sum']);
    expect(await log.export()).toEqual([
      expect.objectContaining({
        item: 'get-sum',
        backend: 'everything',
        client: 'local',
        outcome: 'denied',
        decision: { rule: 'deny', source: 'item' },
      }),
    ]);
    await log.filter('outcome').selectOption('');
  });

  it('the approval banner denies a waiting call, and Always allow turns the rule into allow', async () => {
    await app.open('Authorization');
    const authorization = new AuthorizationPage(page);
    await authorization.setRule('everything__echo', 'ask');
    await app.open('Request log');
    const denied = sdk.callTool({ name: 'everything__echo', arguments: { message: 'no' } });
    await app.approvalBanner.waitFor(SLOW);
    await app.approvalBanner.getByRole('button', { name: 'Deny' }).click();
    expect(await denied).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: 'The user denied the call to everything__echo.' }],
    });
    await app.approvalBanner.waitFor({ state: 'detached' });
    const allowed = sdk.callTool({ name: 'everything__echo', arguments: { message: 'always' } });
    await app.approvalBanner.waitFor(SLOW);
    await app.approvalBanner.getByRole('button', { name: 'Always allow' }).click();
    expect(JSON.stringify(await allowed)).toContain('always');
    await app.open('Authorization');
    await expect.poll(() => authorization.rule('everything__echo').inputValue(), SLOW).toBe('allow');
    // The refused call is in the log as denied, beside the one the item's deny rule refused.
    await app.open('Request log');
    await log.filter('outcome').selectOption('denied');
    await expect.poll(() => log.items(), SLOW).toEqual(['echo', 'get-sum']);
    await log.filter('outcome').selectOption('');
  }, 60_000);
});
