/**
 * End to end: the Add server screen's MCP Registry search in Chromium against
 * a local registry of ours. Searching, picking server-memory (an npm entry the
 * tests install, so npx runs it offline), filling its generated form and
 * adding it; the running Switchboard then serves its tools to an SDK client.
 * A missing runtime shows the install link. A newer version published
 * later shows on the card; Update shows what changes, then applies it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startLocalRegistry, type LocalRegistry } from '../helpers/localRegistry.js';
import { chromiumForTests } from './browser.js';
import type { AppPage } from './pages/AppPage.js';
import { ServersPage } from './pages/ServersPage.js';
import type { ServedUi } from './serveUi.js';
import { openUiSession, type UiSession } from './uiSession.js';
import { approveServer } from './approveServer.js';
import { fillSandboxNpxCache } from '../helpers/npxCache.js';

const SLOW = { timeout: 45_000 };
const fixtures = join(import.meta.dirname, '../fixtures/registry');
const doc = (path: string): Record<string, unknown> => JSON.parse(readFileSync(join(fixtures, path), 'utf8'));

const chromium = chromiumForTests();
describe.skipIf(chromium.skip)(`MCP Registry in the Add server screen${chromium.titleSuffix}`, () => {
  let registry: LocalRegistry;
  let served: ServedUi;
  let ui: UiSession;
  let page: Page;
  let app: AppPage;

  beforeAll(async () => {
    registry = await startLocalRegistry([
      doc('entries/server-memory.json'),
      doc('examples/docs/weather-pypi.json'),
      doc('examples/invalid/bad-name-pattern.json'),
    ]);
    ui = await openUiSession({ registry: { url: [registry.url] }, mcpServers: {} });
    ({ served, page, app } = ui);
  }, 60_000);

  afterAll(async () => {
    await ui?.close();
    await registry?.close();
  });

  afterEach(() => expect(ui.cspErrors.splice(0)).toEqual([]));

  it('searches, shows an invalid entry as invalid, and adds an npm entry through its generated form', async () => {
    await app.open('Add server');
    const list = page.getByRole('list', { name: 'Registry servers' });
    await list
      .getByRole('button', { name: /no-namespace-separator/ })
      .getByText('invalid')
      .waitFor(SLOW);
    await page.getByRole('searchbox', { name: 'Search the MCP Registry' }).fill('memory');
    const card = list.getByRole('button', { name: /Memory/ });
    await card.waitFor(SLOW);
    await list.getByRole('button', { name: /no-namespace-separator/ }).waitFor({ state: 'detached' });
    expect(await card.innerText()).toMatch(/2026\.8\.31[\s\S]*npm/);
    await card.click();
    const form = page.getByRole('form', { name: 'Add Memory' });
    await form.getByText('npx @modelcontextprotocol/server-memory@2026.8.31').waitFor();
    await form.getByRole('textbox', { name: /MEMORY_FILE_PATH \(required\)/ }).fill(join(served.dir, 'memory.json'));
    // Its private npm cache as an earlier start leaves it: quarantined, it starts offline from there, with no download.
    const stateDir = join(served.dir, 'xdg-state', 'mcp-switchboard');
    await fillSandboxNpxCache(stateDir, 'server-memory', '@modelcontextprotocol/server-memory@2026.8.31');
    await form.getByRole('button', { name: 'Add' }).click();
    const servers = new ServersPage(page);
    await servers.badge('server-memory').filter({ hasText: 'Up' }).waitFor(SLOW);
    // Added at run time: quarantined until the user approves it (here with the CLI).
    await approveServer(served, 'server-memory');

    const sdk = new Client({ name: 'e2e-registry', version: '1.0.0' });
    await sdk.connect(
      new StreamableHTTPClientTransport(new URL(served.endpointUrl), {
        requestInit: { headers: { Authorization: `Bearer ${served.token}` } },
      }),
    );
    try {
      expect((await sdk.listTools()).tools.map((t) => t.name)).toContain('server-memory__read_graph');
    } finally {
      await sdk.close();
    }
    await app.open('Add server');
    await page.getByRole('searchbox', { name: 'Search the MCP Registry' }).fill('memory');
    await list
      .getByRole('button', { name: /Memory/ })
      .getByText('added')
      .waitFor(SLOW);
  }, 90_000);

  it('Update on the card shows what a newer version changes, then applies it', async () => {
    // Same npm package (npx runs it offline), a new registry version that sets one more env var.
    const next = doc('entries/server-memory.json') as { version: string; packages: Record<string, unknown>[] };
    next.version = '2026.9.1';
    next.packages[0]!['environmentVariables'] = [
      ...(next.packages[0]!['environmentVariables'] as unknown[]),
      { name: 'MEMORY_NOTE', description: 'A fixed value', value: 'from-2026.9.1' },
    ];
    registry.publish(next as unknown as Record<string, unknown>);
    await app.open('Servers');
    const servers = new ServersPage(page);
    const card = servers.card('server-memory');
    await card.getByText('update available: 2026.9.1').waitFor(SLOW);
    const dialog = await servers.openUpdate('server-memory');
    const changes = dialog.getByLabel('What changes');
    await changes.waitFor(SLOW);
    expect(await changes.innerText()).toMatch(/Version\s+2026\.8\.31 → 2026\.9\.1/);
    expect(await changes.innerText()).toMatch(/Environment variables\s+added: MEMORY_NOTE/);
    // Nothing is applied before the user says so.
    expect(JSON.parse(readFileSync(served.configPath, 'utf8')).mcpServers['server-memory'].source.version).toBe(
      '2026.8.31',
    );
    await app.screenshots('registry-update');
    await dialog.getByRole('button', { name: 'Apply update' }).click();
    await dialog.waitFor({ state: 'detached', ...SLOW });
    await card.getByText(/From .*server-memory 2026\.9\.1/).waitFor(SLOW);
    await servers.badge('server-memory').filter({ hasText: 'Up' }).waitFor(SLOW);
    await card.getByText('update available').waitFor({ state: 'detached' });
    const saved = JSON.parse(readFileSync(served.configPath, 'utf8')).mcpServers['server-memory'];
    expect(saved.source.version).toBe('2026.9.1');
    expect(saved.env).toMatchObject({
      MEMORY_FILE_PATH: join(served.dir, 'memory.json'),
      MEMORY_NOTE: 'from-2026.9.1',
    });
  }, 90_000);

  it('a missing runtime is shown with where to get it', async () => {
    await app.open('Add server');
    await page.getByRole('searchbox', { name: 'Search the MCP Registry' }).fill('weather');
    await page
      .getByRole('list', { name: 'Registry servers' })
      .getByRole('button', { name: /Weather/ })
      .click();
    const form = page.getByRole('form', { name: 'Add Weather' });
    await form.getByLabel(/WEATHER_API_KEY \(required\)/).fill('abc');
    await form.getByRole('button', { name: 'Add' }).click();
    await form.getByText(/uvx is not found on PATH .*https:\/\/docs\.astral\.sh\/uv/).waitFor(SLOW);
    await form.getByRole('button', { name: 'Retry' }).waitFor();
  }, 60_000);
});
