/**
 * End to end in Chromium, with `serve` finding no keychain: a pasted snippet
 * holding a secret never throws it away. The user is asked where it goes;
 * an environment variable is named with how to set it and nothing secret is
 * written, or config.json keeps it in plain text with the warning, as
 * chosen (a server whose variable is not set yet can still be saved, to
 * start once it is). The server's note never says "Kept in the keychain", and
 * no secret field promises the keychain: each says where its value goes here.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bundleBytes, bundleManifest } from '../helpers/bundles.js';
import { MEMORY } from '../helpers/harness.js';
import { chromiumForTests } from './browser.js';
import { AddServerPage } from './pages/AddServerPage.js';
import type { AppPage } from './pages/AppPage.js';
import { ClientsPage } from './pages/ClientsPage.js';
import { withoutKeychain } from './serveUi.js';
import { openUiSession, type UiSession } from './uiSession.js';

const SLOW = { timeout: 45_000 };
const SECRET = 'sk-e2e-0123456789abcdefghij';

const chromium = chromiumForTests();
describe.skipIf(chromium.skip)(`pasted secrets without a keychain${chromium.titleSuffix}`, () => {
  let ui: UiSession;
  let page: Page;
  let app: AppPage;
  const config = () => readFile(ui.served.configPath, 'utf8');

  beforeAll(async () => {
    ui = await openUiSession({ mcpServers: {} }, { env: withoutKeychain });
    ({ page, app } = ui);
  }, 60_000);

  afterAll(async () => {
    await ui?.close();
  });

  afterEach(() => expect(ui.cspErrors.splice(0)).toEqual([]));

  /** Pastes a server `id` whose env holds the secret; returns the choice the screen asks. */
  async function paste(id: string): Promise<Locator> {
    await app.open('Add server');
    await page.getByRole('tab', { name: 'Paste JSON' }).click();
    const snippet = {
      mcpServers: { [id]: { command: process.execPath, args: [MEMORY], env: { API_TOKEN: SECRET } } },
    };
    await page.getByRole('textbox', { name: /Paste a config snippet/ }).fill(JSON.stringify(snippet));
    await page.getByRole('button', { name: 'Review servers' }).click();
    const choice = page.getByRole('group', { name: 'No OS keychain: where should the secrets go?' });
    await choice.waitFor(SLOW);
    return choice;
  }

  /** Reviews with the choice made and adds the server; returns the review list. */
  async function addWith(choice: Locator, option: RegExp): Promise<Locator> {
    await choice.getByRole('radio', { name: option }).check();
    await page.getByRole('button', { name: 'Review with this choice' }).click();
    const found = page.getByRole('region', { name: 'Servers found' });
    await found.getByRole('button', { name: /Add selected/ }).click();
    return found;
  }

  it('an environment variable: named with how to set it, nothing secret written, saved before it is set', async () => {
    const choice = await paste('envy');
    expect(await choice.innerText()).toContain('API_TOKEN');
    await app.screenshots('add-server-secret-choice');
    const found = await addWith(choice, /^An environment variable/);
    // Not set in serve's environment yet: the check says so, and the server can still be kept.
    await found.getByRole('alert').filter({ hasText: 'environment variable ${API_TOKEN} is not set' }).waitFor(SLOW);
    await found.getByRole('button', { name: 'Save envy anyway' }).click();
    await found.getByRole('status').filter({ hasText: 'Added envy' }).waitFor(SLOW);
    const note = await found.innerText();
    expect(note).toMatch(/Read from environment variables, not saved anywhere[\s\S]*export API_TOKEN=/);
    expect(note).not.toContain('Kept in the keychain');
    expect(await config()).not.toContain(SECRET);
    expect(JSON.parse(await config()).mcpServers.envy.env.API_TOKEN).toBe('${API_TOKEN}');
  }, 60_000);

  it('config.json, as chosen: kept there in plain text, with the warning', async () => {
    const choice = await paste('plain');
    const found = await addWith(choice, /^Keep it in config\.json/);
    await found.getByRole('status').filter({ hasText: 'Added plain' }).waitFor(SLOW);
    const note = await found.innerText();
    expect(note).toMatch(/Warning: saved in config\.json in plain text, as you chose/);
    expect(note).not.toContain('Kept in the keychain');
    expect(JSON.parse(await config()).mcpServers.plain.env.API_TOKEN).toBe(SECRET);
    await app.screenshots('add-server-secret-in-config');
  }, 60_000);

  it('every secret field says where its value goes here: no keychain, as the Clients screen warns', async () => {
    await app.open('Clients');
    await new ClientsPage(page).keychainWarning.waitFor(SLOW);
    const path = join(ui.served.dir, 'greeter.mcpb');
    await writeFile(path, await bundleBytes(bundleManifest('greeter')));
    await app.open('Add server');
    const add = new AddServerPage(page);
    await add.chooseBundle(path);
    const form = add.bundleForm('Greeter');
    await form.waitFor(SLOW);
    await form
      .getByLabel(/API key — secret, no OS keychain on this machine: you choose where it goes when you add/)
      .waitFor(SLOW);
    expect(await page.getByText(/kept in the OS keychain/).count()).toBe(0);
    // The form's secret switch says the same.
    const custom = await add.customForm();
    const secret = add.secretSwitch(await add.addVariable('API_TOKEN'));
    if (!(await secret.isChecked())) await secret.check();
    await custom.getByText('secret (no keychain here)').waitFor(SLOW);
    expect(await page.getByText('secret (keychain)').count()).toBe(0);
  }, 60_000);
});
