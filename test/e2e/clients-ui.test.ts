/**
 * End to end: the Clients screen of `mcp-switchboard serve` in Chromium, with
 * a throwaway HOME holding realistic client config files. Installs into
 * Cursor and connects exactly as Cursor would, uninstalls back to the
 * original bytes, imports Claude Desktop's servers (its secret into the
 * keychain, never over the wire), and issues, rotates and revokes a token.
 */
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { parse as parseJsonc } from 'jsonc-parser';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { KeytarStore } from '../../electron/core/platform/index.js';
import type { ClientId } from '../../electron/core/install/index.js';
import { populateHome } from '../fixtures/client-configs/home.js';
import { EVERYTHING, firstText } from '../helpers/harness.js';
import { chromiumForTests, collectCspErrors, launchChromium } from './browser.js';
import { AppPage } from './pages/AppPage.js';
import { ClientsPage } from './pages/ClientsPage.js';
import { ServersPage } from './pages/ServersPage.js';
import { serveUi, type ServedUi } from './serveUi.js';

const SLOW = { timeout: 30_000 };
const GITHUB_SECRET = 'ghp_exampleexampleexample0123456789';
const KEYCHAIN_SERVICE = `mcp-switchboard-e2e-clients-${process.pid}`;
/** Claude Desktop's `filesystem` server, as the fixture has it (so Switchboard already has it). */
const FILESYSTEM = {
  command: 'npx',
  args: ['-y', '@modelcontextprotocol/server-filesystem', 'C:\\Users\\me\\Desktop'],
  enabled: false,
};

/** Connects an SDK client to `url` with `headers`, as an HTTP client app would. */
async function connectAs(name: string, url: string, headers: Record<string, string>): Promise<Client> {
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}

/** What connecting with `token` gives: 'ok', or the error's text (with its HTTP status when it has one). */
async function tryToken(url: string, token: string): Promise<string> {
  try {
    const client = await connectAs('token-probe', url, { Authorization: `Bearer ${token}` });
    await client.listTools();
    await client.close();
    return 'ok';
  } catch (error) {
    const status = (error as { status?: number; code?: number }).status ?? '';
    return `${String(status)} ${String(error)}`;
  }
}

const chromium = chromiumForTests();
describe.skipIf(chromium.skip)(`Clients screen in Chromium${chromium.titleSuffix}`, () => {
  let served: ServedUi;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let app: AppPage;
  let clients: ClientsPage;
  let placed: Map<ClientId, { path: string; original: string }>;
  let keychainAvailable = false;
  const framesReceived: string[] = [];
  const pageErrors: string[] = [];
  const cspErrors: string[] = [];

  beforeAll(async () => {
    served = await serveUi(
      {
        mcpServers: {
          everything: { command: process.execPath, args: [EVERYTHING] },
          filesystem: FILESYSTEM,
        },
      },
      {
        env: (dirs) => ({
          SWITCHBOARD_KEYCHAIN_SERVICE: KEYCHAIN_SERVICE,
          CODEX_HOME: '',
          CLAUDE_CONFIG_DIR: '',
          // The imported `github` server runs `docker`: a stand-in that notes the token it was given and exits.
          PATH: `${join(dirs.dir, 'bin')}:${process.env['PATH'] ?? ''}`,
        }),
        prepare: async (dirs) => {
          await mkdir(join(dirs.dir, 'bin'));
          const docker = join(dirs.dir, 'bin', 'docker');
          await writeFile(
            docker,
            `#!/bin/sh\nprintf '%s' "$GITHUB_PERSONAL_ACCESS_TOKEN" > "${join(dirs.dir, 'docker-token')}"\necho 'no docker in tests' >&2\nexit 1\n`,
          );
          await chmod(docker, 0o755);
          placed = await populateHome(dirs.home, ['cursor', 'claude-desktop', 'vscode'], {
            XDG_CONFIG_HOME: dirs.xdgConfig,
          });
        },
      },
    );
    keychainAvailable = (await new KeytarStore({ service: KEYCHAIN_SERVICE, timeoutMs: 5000 }).status()).available;
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: new URL(served.endpointUrl).origin,
    });
    page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    collectCspErrors(page, cspErrors);
    page.on('websocket', (socket) =>
      socket.on('framereceived', ({ payload }) => framesReceived.push(typeof payload === 'string' ? payload : '')),
    );
    app = new AppPage(page);
    clients = new ClientsPage(page);
    await app.login(served.loginUrl);
    await new ServersPage(page).badge('everything').filter({ hasText: 'Up' }).waitFor(SLOW);
    await app.open('Clients');
  }, 90_000);

  // A CSP violation fails the test during which it happened.
  afterEach(() => expect(cspErrors.splice(0)).toEqual([]));

  afterAll(async () => {
    if (keychainAvailable) {
      await new KeytarStore({ service: KEYCHAIN_SERVICE, timeoutMs: 5000 })
        .delete('github.GITHUB_PERSONAL_ACCESS_TOKEN')
        .catch(() => undefined);
    }
    await browser?.close();
    await served?.stop();
  });

  it('lists the detected clients with their state', async () => {
    await clients.row('Cursor').waitFor(SLOW);
    expect(await clients.state('Cursor')).toBe('Found');
    expect(await clients.state('Claude Desktop')).toBe('Found');
    expect(await clients.state('VS Code')).toBe('Found');
    expect(await clients.state('Windsurf')).toBe('Not found');
    expect(await clients.row('Cursor').innerText()).toContain(placed.get('cursor')!.path);
    // Import reads a client's file: only offered for clients that are here.
    expect(await clients.row('Windsurf').getByRole('button', { name: 'Import…' }).isDisabled()).toBe(true);
    await app.screenshots('clients-apps');
  });

  it('installs into Cursor: its file gets our entry, the rest unchanged, and Cursor can call a tool', async () => {
    const { path, original } = placed.get('cursor')!;
    await clients.setInstalled('Cursor', true);
    expect(await clients.state('Cursor')).toBe('✓ Installed');
    const note = await clients.note('Cursor').innerText();
    expect(note).toContain(`Written to ${path}`);
    expect(note).toMatch(/backed up to \S+backups\/cursor\//);

    const written = await readFile(path, 'utf8');
    const before = parseJsonc(original) as { mcpServers: Record<string, unknown> };
    const after = parseJsonc(written) as { mcpServers: Record<string, unknown> };
    expect(Object.keys(after.mcpServers)).toEqual([...Object.keys(before.mcpServers), 'switchboard']);
    for (const [name, entry] of Object.entries(before.mcpServers)) expect(after.mcpServers[name]).toEqual(entry);
    const entry = after.mcpServers['switchboard'] as { url: string; headers: Record<string, string> };
    expect(entry.url).toBe(served.endpointUrl);
    expect(entry.headers['Authorization']).toMatch(/^Bearer \S+$/);
    expect(entry.headers['Authorization']).not.toContain(served.token);
    // The token was issued by the UI's process; the running endpoint accepts it without a restart.
    const cursor = await connectAs('cursor', entry.url, entry.headers);
    const result = await cursor.callTool({ name: 'everything__echo', arguments: { message: 'from Cursor' } });
    expect(firstText(result)).toContain('from Cursor');
    await cursor.close();
    await app.screenshots('clients-installed');
  }, 60_000);

  it('uninstalls from Cursor: the file is byte for byte the original', async () => {
    const { path, original } = placed.get('cursor')!;
    await clients.setInstalled('Cursor', false);
    expect(await clients.state('Cursor')).toBe('Found');
    expect(await clients.note('Cursor').innerText()).toContain(`Removed from ${path}`);
    expect(await readFile(path, 'utf8')).toBe(original);
  });

  it('shows a client snippet with the endpoint URL and copies it', async () => {
    const text = await clients.snippet('VS Code');
    expect(text).toContain(served.endpointUrl);
    expect(text).not.toContain(served.token);
    await clients.row('VS Code').getByRole('button', { name: 'Copy VS Code snippet' }).click();
    // Clipboard permissions are granted to the page's origin, so the copy goes through.
    const clipboard = () => page.evaluate(() => navigator.clipboard.readText());
    await expect.poll(async () => (await clipboard()).trim(), SLOW).toBe(text.trim());
    expect(await clipboard()).toContain(served.endpointUrl);
  });

  it('imports a Claude Desktop server: its secret by name only, into the keychain, never over the wire', async () => {
    const dialog = await clients.openImport('Claude Desktop');
    const filesystem = dialog.getByRole('checkbox', { name: /filesystem/ });
    const github = dialog.getByRole('checkbox', { name: /github/ });
    expect(await dialog.getByText('filesystem').locator('..').innerText()).toContain('already in Switchboard');
    expect(await filesystem.isDisabled()).toBe(true);
    expect(await github.isChecked()).toBe(true);
    const githubLabel = await dialog.locator('label').filter({ hasText: 'github' }).innerText();
    expect(githubLabel).toContain('env.GITHUB_PERSONAL_ACCESS_TOKEN');
    expect(githubLabel).toContain(
      keychainAvailable ? 'secrets moved to the keychain' : 'secrets become environment references',
    );
    expect(await dialog.innerText()).not.toContain(GITHUB_SECRET);
    await app.screenshots('clients-import');

    await dialog.getByRole('button', { name: 'Import 1' }).click();
    await dialog.getByRole('status').filter({ hasText: 'Imported: github' }).waitFor(SLOW);
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });

    const config = await readFile(served.configPath, 'utf8');
    expect(config).not.toContain(GITHUB_SECRET);
    const imported = (JSON.parse(config) as { mcpServers: Record<string, { env: Record<string, unknown> }> })
      .mcpServers['github']!;
    expect(imported.env['GITHUB_PERSONAL_ACCESS_TOKEN']).toEqual(
      keychainAvailable ? { secret: 'github.GITHUB_PERSONAL_ACCESS_TOKEN' } : '${GITHUB_PERSONAL_ACCESS_TOKEN}',
    );
    if (keychainAvailable) {
      const keychain = new KeytarStore({ service: KEYCHAIN_SERVICE, timeoutMs: 5000 });
      expect(await keychain.get('github.GITHUB_PERSONAL_ACCESS_TOKEN')).toBe(GITHUB_SECRET);
    }
    // Claude Desktop's own file is untouched (no --replace).
    expect(await readFile(placed.get('claude-desktop')!.path, 'utf8')).toBe(placed.get('claude-desktop')!.original);

    // The running Switchboard took the imported server (it cannot start here: shown down, retrying)
    // and started it with the secret resolved from the keychain.
    await app.open('Servers');
    const servers = new ServersPage(page);
    await servers.badge('github').filter({ hasText: 'Down' }).waitFor(SLOW);
    expect(await servers.card('github').innerText()).not.toContain(GITHUB_SECRET);
    if (keychainAvailable) expect(await readFile(join(served.dir, 'docker-token'), 'utf8')).toBe(GITHUB_SECRET);
    await app.open('Clients');
    expect(framesReceived.length).toBeGreaterThan(0);
    expect(framesReceived.filter((frame) => frame.includes(GITHUB_SECRET))).toEqual([]);
  }, 60_000);

  it('creates a token shown once, rotates it, revokes it, and the endpoint refuses it', async () => {
    const first = await clients.createToken('laptop', 'Laptop');
    expect(first).toMatch(/^\S{16,}$/);
    expect(await clients.profileRow('laptop').innerText()).toContain('set');
    // Shown once: gone from the page once the dialog is closed.
    expect(await page.content()).not.toContain(first);
    await expect.poll(() => tryToken(served.endpointUrl, first), SLOW).toBe('ok');

    const second = await clients.rotateToken('laptop');
    expect(second).not.toBe(first);
    expect(await tryToken(served.endpointUrl, first)).toMatch(/401|Unauthorized/i);
    expect(await tryToken(served.endpointUrl, second)).toBe('ok');
    await app.screenshots('clients-profiles');

    await clients.revoke('laptop');
    await clients.profileRow('laptop').getByRole('cell').nth(2).filter({ hasText: 'none' }).waitFor(SLOW);
    expect(await tryToken(served.endpointUrl, second)).toMatch(/401|Unauthorized/i);
    expect(pageErrors).toEqual([]);
  }, 60_000);
});
