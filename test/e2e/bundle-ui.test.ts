/**
 * End to end: .mcpb bundles from the Add server screen in Chromium. A bundle
 * built in the test (manifest + a small node server) is picked with the file
 * picker; its name, author, version, declared tools and fields (the sensitive
 * one marked) show before Install; installed, it is called through the
 * endpoint. A bad bundle dropped on the screen is refused naming the field,
 * and nothing is left behind. Without a keychain, Install asks where the
 * sensitive value goes (the choice registry entries and snippets offer).
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bundleBytes, bundleManifest } from '../helpers/bundles.js';
import { runCli } from '../helpers/cli.js';
import { firstText } from '../helpers/harness.js';
import { chromiumForTests } from './browser.js';
import { AddServerPage } from './pages/AddServerPage.js';
import type { AppPage } from './pages/AppPage.js';
import { ServersPage } from './pages/ServersPage.js';
import type { ServedUi } from './serveUi.js';
import { openUiSession, type UiSession } from './uiSession.js';

const SLOW = { timeout: 45_000 };

const chromium = chromiumForTests();
describe.skipIf(chromium.skip)(`.mcpb bundles in the Add server screen${chromium.titleSuffix}`, () => {
  let served: ServedUi;
  let ui: UiSession;
  let page: Page;
  let app: AppPage;
  let add: AddServerPage;
  const bundlesDir = () => join(served.dir, 'xdg-state', 'mcp-switchboard', 'bundles');
  const servers = async () =>
    (JSON.parse(await readFile(served.configPath, 'utf8')) as { mcpServers: Record<string, unknown> }).mcpServers;

  beforeAll(async () => {
    ui = await openUiSession({ mcpServers: {} });
    ({ served, page, app } = ui);
    add = new AddServerPage(page);
  }, 60_000);

  afterAll(async () => {
    await ui?.close();
  });

  afterEach(() => expect(ui.cspErrors.splice(0)).toEqual([]));

  it('a bad bundle dropped on the screen is refused naming the field, and nothing is left behind', async () => {
    await app.open('Add server');
    await add.dropBundle('bad.mcpb', await bundleBytes(bundleManifest('broken', { colour: 'blue' })));
    await page
      .getByRole('alert')
      .getByText('manifest.json: colour: is not a manifest field; not installed')
      .waitFor(SLOW);
    expect(await page.getByRole('button', { name: 'Add', exact: true }).count()).toBe(0);
    expect(await servers()).toEqual({});
    expect(await readdir(bundlesDir()).catch(() => [])).toEqual([]);
  }, 60_000);

  it('shows what a picked bundle is and asks for, installs it, and the endpoint serves its tools', async () => {
    const path = join(served.dir, 'greeter.mcpb');
    await writeFile(path, await bundleBytes(bundleManifest('greeter')));
    await app.open('Add server');
    await add.chooseBundle(path);
    const form = add.bundleForm('Greeter');
    await form.waitFor(SLOW);
    expect(await form.innerText()).toMatch(/greeter 1\.2\.0[\s\S]*by Switchboard tests/);
    expect(await form.getByRole('region', { name: 'Declared tools' }).innerText()).toContain('greet — Greets');
    await form.getByLabel(/API key — kept in the OS keychain/).waitFor();
    expect(await form.getByLabel(/API key/).getAttribute('type')).toBe('password');
    await app.screenshots('bundle-install');
    await form.getByRole('textbox', { name: /Tools \(required\)/ }).fill('greet,wave');
    await form.getByRole('button', { name: 'Add', exact: true }).click();
    await new ServersPage(page).badge('greeter').filter({ hasText: 'Up' }).waitFor(SLOW);
    expect(await readdir(join(bundlesDir(), 'greeter'))).toEqual(expect.arrayContaining(['manifest.json', 'server']));
    expect((await servers())['greeter']).toMatchObject({
      source: { registry: 'file://greeter.mcpb', name: 'greeter', version: '1.2.0' },
    });

    // A server added at run time is quarantined until the user approves it (here with the CLI).
    const approved = await runCli(['approve', 'greeter'], {
      XDG_CONFIG_HOME: join(served.dir, 'xdg-config'),
      XDG_STATE_HOME: join(served.dir, 'xdg-state'),
      SWITCHBOARD_TOKEN: served.token,
    });
    expect(approved).toMatchObject({ code: 0 });
    const sdk = new Client({ name: 'e2e-bundle', version: '1.0.0' });
    await sdk.connect(
      new StreamableHTTPClientTransport(new URL(served.endpointUrl), {
        requestInit: { headers: { Authorization: `Bearer ${served.token}` } },
      }),
    );
    try {
      const called = await sdk.callTool({ name: 'greeter__wave', arguments: { to: 'Ada' } });
      expect(firstText(called)).toBe('wave:{"to":"Ada"}');
    } finally {
      await sdk.close();
    }
  }, 90_000);
});

describe.skipIf(chromium.skip)(`a bundle with a sensitive value, without a keychain${chromium.titleSuffix}`, () => {
  let ui: UiSession;
  beforeAll(async () => {
    // D-Bus pointed nowhere: serve finds no Secret Service.
    ui = await openUiSession(
      { mcpServers: {} },
      { env: () => ({ DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus', DISPLAY: '', API_KEY: 'from-env' }) },
    );
  }, 60_000);
  afterAll(async () => {
    await ui?.close();
  });
  afterEach(() => expect(ui.cspErrors.splice(0)).toEqual([]));

  it('asks where it goes, then saves a ${VAR} reference as chosen', async () => {
    const { page, app, served } = ui;
    const path = join(served.dir, 'greeter.mcpb');
    await writeFile(path, await bundleBytes(bundleManifest('greeter')));
    await app.open('Add server');
    const add = new AddServerPage(page);
    await add.chooseBundle(path);
    const form = add.bundleForm('Greeter');
    await form.waitFor(SLOW);
    await form.getByRole('textbox', { name: /Tools \(required\)/ }).fill('greet');
    await form.getByLabel(/API key/).fill('typed-in-key');
    await form.getByRole('button', { name: 'Add', exact: true }).click();
    const choice = form.getByRole('group', { name: 'No OS keychain: where should the secrets go?' });
    await choice.waitFor(SLOW);
    expect(await choice.innerText()).toContain('API_KEY for env.API_KEY (set now)');
    const config = () => readFile(served.configPath, 'utf8');
    expect(JSON.parse(await config())).toEqual({ mcpServers: {} });
    await choice.scrollIntoViewIfNeeded();
    await app.screenshots('bundle-secret-choice');
    const install = form.getByRole('button', { name: 'Add', exact: true });
    expect(await install.isDisabled()).toBe(true); // until a choice is made
    await choice.getByRole('radio', { name: /An environment variable/ }).check();
    await install.click();
    await new ServersPage(page).badge('greeter').filter({ hasText: 'Up' }).waitFor(SLOW);
    const saved = JSON.parse(await config()) as { mcpServers: Record<string, { env: Record<string, unknown> }> };
    expect(saved.mcpServers['greeter']?.env['API_KEY']).toBe('${API_KEY}');
    expect(await config()).not.toContain('typed-in-key');
  }, 90_000);
});
