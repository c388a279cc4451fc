/**
 * End to end in Chromium: in every form, a bad value shows its message on
 * the field it is about (the input is `aria-invalid` and described by the
 * message), whether the form's own check found it or the core refused it
 * (a name already taken, a required registry or bundle input). Forms: Add
 * server (command), edit server, Featured, MCP Registry, bundle, pasted
 * snippet, Try it, Settings' PATH directory and a new client profile. Nothing is
 * saved, and what was typed stays.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bundleBytes, bundleManifest } from '../helpers/bundles.js';
import { EVERYTHING } from '../helpers/harness.js';
import { startLocalRegistry, type LocalRegistry } from '../helpers/localRegistry.js';
import { violationsInBothSchemes } from './axe.js';
import { chromiumForTests } from './browser.js';
import { AddServerPage } from './pages/AddServerPage.js';
import { CatalogPage } from './pages/CatalogPage.js';
import { TryItPanel } from './pages/TryItPanel.js';
import type { AppPage } from './pages/AppPage.js';
import { ServersPage } from './pages/ServersPage.js';
import type { ServedUi } from './serveUi.js';
import { openUiSession, type UiSession } from './uiSession.js';

const SLOW = { timeout: 45_000 };
const registryDoc = (path: string): Record<string, unknown> =>
  JSON.parse(readFileSync(join(import.meta.dirname, '../fixtures/registry', path), 'utf8'));

const chromium = chromiumForTests();
describe.skipIf(chromium.skip)(`field errors sit on their field, in every form${chromium.titleSuffix}`, () => {
  let registry: LocalRegistry;
  let served: ServedUi;
  let ui: UiSession;
  let page: Page;
  let app: AppPage;
  let add: AddServerPage;
  const serverIds = async () =>
    Object.keys((JSON.parse(await readFile(served.configPath, 'utf8')) as { mcpServers: object }).mcpServers);

  beforeAll(async () => {
    registry = await startLocalRegistry([registryDoc('entries/server-memory.json')]);
    ui = await openUiSession({
      registry: { url: [registry.url] },
      mcpServers: { everything: { command: process.execPath, args: [EVERYTHING] } },
    });
    ({ served, page, app } = ui);
    add = new AddServerPage(page);
    await new ServersPage(page).badge('everything').filter({ hasText: 'Up' }).waitFor(SLOW);
  }, 60_000);

  afterAll(async () => {
    await ui?.close();
    await registry?.close();
  });

  afterEach(() => expect(ui.cspErrors.splice(0)).toEqual([]));

  /** The form's banners (an error that is about no one field), by their titles. */
  const banners = (form: Locator) =>
    form.getByRole('alert').filter({ hasText: /^(Not saved|Not added|Not installed):/ });

  it('Add server: a bad name, a missing command and a nameless variable each on their field; a taken name too', async () => {
    await app.open('Add server');
    const form = await add.customForm();
    const name = form.getByRole('textbox', { name: /^Name/ });
    const command = form.getByRole('textbox', { name: 'Command' });
    await name.fill('9lives');
    const row = await add.addVariable('');
    await form.getByLabel(`Variable ${row} value`).fill('orphan');
    await form.getByRole('button', { name: 'Add', exact: true }).click();
    expect(await app.fieldError(name)).toBe('The name must start with a letter and use only letters, digits, _ and -.');
    expect(await app.fieldError(command)).toBe('Enter the command that starts the server.');
    expect(await app.fieldError(form.getByLabel(`Variable ${row} value`))).toBe(
      'This environment variable has a value but no name.',
    );
    expect(await banners(form).count()).toBe(0);
    await app.screenshots('field-errors-add-server');
    expect(await violationsInBothSchemes(page, 'Add server with field errors')).toEqual([]);

    // The core refuses a name that is taken: said on the Name field, the rest as typed.
    await form.getByRole('button', { name: `Remove variable ${row}` }).click();
    await name.fill('everything');
    await command.fill(process.execPath);
    await form.getByRole('button', { name: 'Add', exact: true }).click();
    await expect.poll(() => app.fieldError(name), SLOW).toBe('a backend with ID "everything" already exists');
    expect(await app.fieldError(command)).toBeUndefined();
    expect(await command.inputValue()).toBe(process.execPath);
    expect(await banners(form).count()).toBe(0);
  }, 60_000);

  it('a URL server: a bad URL on the URL field', async () => {
    const form = await add.customForm();
    await form.getByRole('combobox', { name: 'Transport' }).selectOption({ index: 1 });
    await form.getByRole('textbox', { name: /^Name/ }).fill('remote');
    const url = form.getByRole('textbox', { name: 'URL' });
    await url.fill('ftp://example.com/mcp');
    await form.getByRole('button', { name: 'Add', exact: true }).click();
    expect(await app.fieldError(url)).toBe('Enter an http:// or https:// URL.');
    expect(await serverIds()).toEqual(['everything']);
  });

  it('edit server: an emptied command on its field, nothing saved', async () => {
    await app.open('Servers');
    const dialog = await new ServersPage(page).edit('everything');
    const command = dialog.getByRole('textbox', { name: 'Command' });
    await command.fill('');
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    expect(await app.fieldError(command)).toBe('Enter the command that starts the server.');
    expect(await banners(dialog).count()).toBe(0);
    await app.screenshots('field-errors-edit-server');
    await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    const saved = JSON.parse(await readFile(served.configPath, 'utf8')) as {
      mcpServers: { everything: { command: string } };
    };
    expect(saved.mcpServers.everything.command).toBe(process.execPath);
  });

  it('Featured: a bad name and a required token, each on its field', async () => {
    await app.open('Add server');
    await page.getByRole('tab', { name: 'Find a server' }).click();
    await page.getByRole('group', { name: 'Featured servers' }).getByRole('button', { name: 'GitHub' }).click();
    const form = page.getByRole('form', { name: 'Add GitHub' });
    const name = form.getByRole('textbox', { name: 'Name' });
    await name.fill('-gh');
    await form.getByRole('button', { name: 'Add GitHub' }).click();
    expect(await app.fieldError(name)).toBe('The name must start with a letter and use only letters, digits, _ and -.');
    expect(await app.fieldError(form.getByLabel(/^Personal access token/))).toBe('Personal access token is required.');
    expect(await banners(form).count()).toBe(0);
  });

  it('MCP Registry: the core’s "is required" on the registry entry’s own field', async () => {
    await page.getByRole('searchbox', { name: 'Search the MCP Registry' }).fill('memory');
    await page
      .getByRole('list', { name: 'Registry servers' })
      .getByRole('button', { name: /Memory/ })
      .click(SLOW);
    const form = page.getByRole('form', { name: 'Add Memory' });
    const file = form.getByRole('textbox', { name: /MEMORY_FILE_PATH \(required\)/ });
    await form.getByRole('button', { name: 'Add' }).click();
    await expect.poll(() => app.fieldError(file), SLOW).toMatch(/MEMORY_FILE_PATH.* is required/);
    expect(await banners(form).count()).toBe(0);
    await app.screenshots('field-errors-registry');
    expect(await violationsInBothSchemes(page, 'registry form with a field error')).toEqual([]);
    expect(await serverIds()).toEqual(['everything']);
  }, 60_000);

  it('bundle: a required user_config left empty, on its field', async () => {
    const path = join(served.dir, 'greeter.mcpb');
    await writeFile(path, await bundleBytes(bundleManifest('greeter')));
    await add.chooseBundle(path);
    const form = add.bundleForm('Greeter');
    await form.waitFor(SLOW);
    await form.getByRole('button', { name: 'Add', exact: true }).click();
    const tools = form.getByRole('textbox', { name: /Tools \(required\)/ });
    await expect.poll(() => app.fieldError(tools), SLOW).toMatch(/user_config\.tools \(Tools\) is required/);
    expect(await banners(form).count()).toBe(0);
    expect(await serverIds()).toEqual(['everything']);
  }, 60_000);

  it('pasted snippet: text that is not a config is tied to the box', async () => {
    await page.getByRole('tab', { name: 'Paste JSON' }).click();
    const box = page.getByRole('textbox', { name: /Paste a config snippet/ });
    await box.fill('{ "mcpServers": { "x": ');
    await page.getByRole('button', { name: 'Review servers' }).click();
    await expect.poll(() => app.fieldError(box), SLOW).toMatch(/JSON|line 1/i);
    await box.fill('{ "editor.fontSize": 14 }');
    await page.getByRole('button', { name: 'Review servers' }).click();
    await expect.poll(() => app.fieldError(box), SLOW).toMatch(/^no servers found/);
  });

  it('Settings: a relative directory on the directory field', async () => {
    await app.open('Settings');
    const form = page.getByRole('form', { name: 'Add a directory' });
    const dir = form.getByRole('textbox', { name: 'Directory to put in front' });
    await dir.fill('tools/bin');
    await form.getByRole('button', { name: 'Add' }).click();
    await expect.poll(() => app.fieldError(dir), SLOW).toBe('("tools/bin"): must be an absolute directory path');
    expect(await dir.inputValue()).toBe('tools/bin');
    await app.screenshots('field-errors-settings');
  });

  it('Try it: required arguments left empty, each on its field', async () => {
    await app.open('Catalog');
    const catalog = new CatalogPage(page);
    await catalog.search.fill('get-sum');
    await catalog.option('everything__get-sum').click();
    const panel = new TryItPanel(page, 'everything__get-sum');
    await panel.number('a').fill('2');
    await panel.submit();
    expect(await app.fieldError(panel.number('a'))).toBeUndefined();
    expect(await app.fieldError(panel.number('b'))).toMatch(/^b .*required/);
    expect(await panel.result.count()).toBe(0);
  });

  it('Clients: a new profile’s bad ID on the ID field', async () => {
    await app.open('Clients');
    const form = page.getByRole('form', { name: 'New client profile' });
    const id = form.getByLabel('Profile ID');
    await id.fill('2nd laptop');
    await form.getByRole('button', { name: 'Create token' }).click();
    expect(await app.fieldError(id)).toBe('The ID must start with a letter and use only letters, digits, _ and -.');
    expect(await page.getByRole('dialog', { name: 'Copy the token now' }).count()).toBe(0);
  });
});
