/**
 * End to end in Chromium: the Add server form marks a secret-looking
 * variable (`API_TOKEN`) secret by default, with a switch that makes it
 * plain; adding a slow-starting server shows its step with the seconds
 * counting until it is up.
 */
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MEMORY } from '../helpers/harness.js';
import { chromiumForTests } from './browser.js';
import { AddServerPage } from './pages/AddServerPage.js';
import type { AppPage } from './pages/AppPage.js';
import { ServersPage } from './pages/ServersPage.js';
import { openUiSession, type UiSession } from './uiSession.js';

const SLOW = { timeout: 45_000 };

const chromium = chromiumForTests();
describe.skipIf(chromium.skip)(`the Add server form${chromium.titleSuffix}`, () => {
  let ui: UiSession;
  let page: Page;
  let app: AppPage;

  beforeAll(async () => {
    ui = await openUiSession({ mcpServers: {} });
    ({ page, app } = ui);
  }, 60_000);

  afterAll(async () => {
    await ui?.close();
  });

  afterEach(() => expect(ui.cspErrors.splice(0)).toEqual([]));

  it('a secret-looking name is secret by default, the switch makes it plain; adding shows its steps', async () => {
    await app.open('Add server');
    const add = new AddServerPage(page);
    const form = await add.customForm();
    await form.getByRole('textbox', { name: /^Name/ }).fill('slow');
    await form.getByRole('textbox', { name: 'Command' }).fill(process.execPath);
    // Starts the memory server after 3 s, so the check is seen running. Its script is an
    // argument of its own, so the default sandbox shows it (and its packages) to the server.
    await form
      .getByRole('textbox', { name: /Arguments/ })
      .fill(`--import=data:text/javascript,await new Promise((r) => setTimeout(r, 3000))\n${MEMORY}`);
    const token = await add.addVariable('API_TOKEN');
    const level = await add.addVariable('LEVEL');
    expect(await add.secretSwitch(token).isChecked()).toBe(true);
    expect(await add.secretSwitch(level).isChecked()).toBe(false);
    expect(await form.getByLabel(`Variable ${token} value`).getAttribute('type')).toBe('password');
    await form.getByLabel(`Variable ${level} value`).fill('debug');
    await app.screenshots('add-server-secret-rows');
    // Plain on purpose: the serve under test may have no keychain.
    await add.secretSwitch(token).click();
    expect(await add.secretSwitch(token).isChecked()).toBe(false);
    expect(await form.getByLabel(`Variable ${token} value`).getAttribute('type')).toBe('text');
    await form.getByLabel(`Variable ${token} value`).fill('not-really-secret');
    await form.getByRole('button', { name: 'Add', exact: true }).click();
    const status = form.getByRole('status');
    await status.filter({ hasText: 'Starting… listing tools… 0 s' }).waitFor();
    await status.filter({ hasText: /Starting… listing tools… [1-9]\d* s/ }).waitFor(SLOW);
    await app.screenshots('add-server-progress');
    await new ServersPage(page).badge('slow').filter({ hasText: 'Up' }).waitFor(SLOW);
  }, 90_000);
});
