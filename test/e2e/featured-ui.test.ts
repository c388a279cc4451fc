/**
 * End to end: the Featured row of the Add server screen in Chromium with no
 * registry reachable (its URL points at a closed port). The row shows above
 * the search, which says the registry did not answer; a featured server whose
 * runtime is not installed (uvx) shows the install link and Retry before
 * anything is saved; one whose runtime is there (npx, Memory) is added.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { chromiumForTests } from './browser.js';
import { AddServerPage } from './pages/AddServerPage.js';
import type { AppPage } from './pages/AppPage.js';
import { ServersPage } from './pages/ServersPage.js';
import type { ServedUi } from './serveUi.js';
import { openUiSession, type UiSession } from './uiSession.js';
import { fillSandboxNpxCache } from '../helpers/npxCache.js';

const SLOW = { timeout: 45_000 };
/** The Memory preset's package, as its npx command names it (no version: the npx cache folder is keyed by it). */
const MEMORY_PACKAGE = '@modelcontextprotocol/server-memory';

/** A port nothing listens on (taken, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const chromium = chromiumForTests();
describe.skipIf(chromium.skip)(`Featured servers, offline${chromium.titleSuffix}`, () => {
  let served: ServedUi;
  let ui: UiSession;
  let page: Page;
  let app: AppPage;

  beforeAll(async () => {
    ui = await openUiSession({ registry: { url: [`http://127.0.0.1:${await closedPort()}`] }, mcpServers: {} });
    ({ served, page, app } = ui);
  }, 60_000);

  afterAll(async () => {
    await ui?.close();
  });

  afterEach(() => expect(ui.cspErrors.splice(0)).toEqual([]));

  it('shows the row with the registry unreachable; a missing runtime gets its install link and Retry', async () => {
    await app.open('Add server');
    const row = page.getByRole('group', { name: 'Featured servers' });
    await row.getByRole('button', { name: /Memory/ }).waitFor();
    await page
      .getByRole('alert')
      .getByText(/The registry did not answer/)
      .waitFor(SLOW);
    await app.screenshots('add-server-featured-offline');
    await row.getByRole('button', { name: /Fetch/ }).click();
    const form = page.getByRole('form', { name: 'Add Fetch' });
    await form.getByRole('button', { name: 'Add Fetch' }).click();
    const link = form.getByRole('link', { name: 'Install uv (uvx)' });
    await link.waitFor(SLOW);
    expect(await link.getAttribute('href')).toBe('https://docs.astral.sh/uv/getting-started/installation/');
    await form.getByRole('button', { name: 'Retry' }).waitFor();
    expect(JSON.parse(readFileSync(served.configPath, 'utf8')).mcpServers).toEqual({});
  }, 60_000);

  it('adds a featured server with the registry unreachable', async () => {
    await app.open('Add server');
    // Its private npm cache as an earlier start leaves it (helpers/npxCache.ts): quarantined, it starts from there
    // offline rather than fetching the package's tree first (20-45 s here; a loaded machine ran out of time).
    await fillSandboxNpxCache(join(served.dir, 'xdg-state', 'mcp-switchboard'), 'memory', MEMORY_PACKAGE);
    await new AddServerPage(page).addPreset('Memory', 'memory', {
      'Memory file (optional)': join(served.dir, 'memory.json'),
    });
    await new ServersPage(page).badge('memory').filter({ hasText: 'Up' }).waitFor(SLOW);
  }, 60_000);
});
