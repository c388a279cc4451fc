/**
 * End to end in Chromium: what the Clients screen and the sidebar say is
 * true. `serve` runs without a keychain (no D-Bus session to reach one): the
 * warning says what is wrong and what to do, naming no path of this machine.
 * A client installed by the CLI while serve runs (another process, its own
 * token) shows its token as set, not "none". A 2025-era session that ends
 * (DELETE) leaves the list, and so does one whose client went away without a
 * word once it sat idle past `sessionIdleMs`. The buttons keep to one line at
 * 1280 px with every panel filled, and the sidebar footer counts the servers
 * by status and names the endpoint. A used login link says to run
 * `mcp-switchboard ui`, and the link that prints logs in.
 */
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { KeytarStore } from '../../electron/core/platform/index.js';
import { populateHome } from '../fixtures/client-configs/home.js';
import { runCli } from '../helpers/cli.js';
import { EVERYTHING } from '../helpers/harness.js';
import { violationsInBothSchemes } from './axe.js';
import { chromiumForTests, collectCspErrors, launchChromium } from './browser.js';
import { AppPage } from './pages/AppPage.js';
import { ClientsPage } from './pages/ClientsPage.js';
import { ServersPage } from './pages/ServersPage.js';
import { serveUi, withoutKeychain, type ServedUi } from './serveUi.js';

const SLOW = { timeout: 30_000 };
/** Short, so an abandoned session is seen going; long enough for the checks made while it lives. */
const SESSION_IDLE_MS = 4000;

const chromium = chromiumForTests();
describe.skipIf(chromium.skip)(`the Clients screen and sidebar say what is true${chromium.titleSuffix}`, () => {
  let served: ServedUi;
  let browser: Browser;
  let page: Page;
  let app: AppPage;
  let clients: ClientsPage;
  /** The environment serve runs with, for the CLI run beside it. */
  let serveEnv: Record<string, string> = {};
  const cspErrors: string[] = [];

  beforeAll(async () => {
    served = await serveUi(
      {
        proxy: { sessionIdleMs: SESSION_IDLE_MS },
        mcpServers: {
          everything: { command: process.execPath, args: [EVERYTHING] },
          off: { command: process.execPath, args: [EVERYTHING], enabled: false },
        },
      },
      {
        env: (dirs) => {
          serveEnv = {
            HOME: dirs.home,
            XDG_CONFIG_HOME: dirs.xdgConfig,
            XDG_STATE_HOME: dirs.xdgState,
            XDG_DATA_HOME: join(dirs.dir, 'xdg-data'),
            ...withoutKeychain(dirs),
            CODEX_HOME: '',
            CLAUDE_CONFIG_DIR: '',
          };
          return serveEnv;
        },
        prepare: async (dirs) => {
          await populateHome(dirs.home, ['cursor'], { XDG_CONFIG_HOME: dirs.xdgConfig });
        },
      },
    );
    browser = await launchChromium();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 860 } })).newPage();
    collectCspErrors(page, cspErrors);
    app = new AppPage(page);
    clients = new ClientsPage(page);
    await app.login(served.loginUrl);
    await new ServersPage(page).badge('everything').filter({ hasText: 'Up' }).waitFor(SLOW);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await served?.stop();
  });

  afterEach(() => expect(cspErrors.splice(0)).toEqual([]));

  it('says the keychain is unavailable and what to do, without a path of this machine', async () => {
    await app.open('Clients');
    const warning = clients.keychainWarning;
    await warning.waitFor(SLOW);
    const text = await warning.innerText();
    expect(text).toMatch(/^The OS keychain is not available: .+\. Secrets cannot be stored until it is\. To fix: .+/);
    // No file path (two or more segments), such as the bus socket or keytar's module path.
    expect(text).not.toMatch(/(?:^|[\s(])\/[\w.@+-]+\/[\w.@+-]+/);
    expect(text).not.toContain(served.dir);
    // The advice fits the cause: no session bus (or, where keytar is not built, the rebuild), never the
    // generic "unlock the keyring".
    if ((await new KeytarStore().loadProblem()) === undefined) {
      expect(text).toContain('there is no desktop (D-Bus) session to reach the keyring through');
      expect(text).toContain('dbus-run-session');
    } else expect(text).toContain('the keychain module (keytar) is not built for this Node');
    await app.screenshots('clients-keychain-warning');
  });

  it('shows the token of a client the CLI installed while serve runs as set', async () => {
    const port = new URL(served.endpointUrl).port;
    const installed = await runCli(['install', 'cursor', '--config', served.configPath, '--port', port], serveEnv);
    expect(installed).toMatchObject({ code: 0 });
    // The running instance learns of the new profile and token (files another process wrote).
    await clients.profileRow('cursor').waitFor(SLOW);
    await expect.poll(() => clients.tokenState('cursor'), SLOW).toBe('set');
    await app.open('Servers');
    await app.open('Clients');
    expect(await clients.tokenState('cursor')).toBe('set');
    await clients.row('Cursor').getByRole('button', { name: 'Uninstall', exact: true }).waitFor(SLOW);
    expect(await clients.state('Cursor')).toBe('✓ Installed');
    await app.screenshots('clients-token-state');
  }, 60_000);

  it('drops a session that ended and one left idle past sessionIdleMs', async () => {
    const connect = async (name: string) => {
      const transport = new StreamableHTTPClientTransport(new URL(served.endpointUrl), {
        requestInit: { headers: { Authorization: `Bearer ${served.token}` } },
      });
      const client = new Client({ name, version: '1.0.0' });
      await client.connect(transport);
      await client.listTools();
      return { client, transport };
    };
    const ending = await connect('ends-politely');
    const leaving = await connect('goes-away');
    await clients.session('ends-politely').waitFor(SLOW);
    await clients.session('goes-away').waitFor(SLOW);
    expect(await clients.sessionsHeading.innerText()).toBe('Connected sessions (2)');
    await app.screenshots('clients-sessions');

    // Ended: the client says so (DELETE), and the row goes at once.
    await ending.transport.terminateSession();
    await ending.client.close();
    await clients.session('ends-politely').waitFor({ state: 'detached', timeout: SESSION_IDLE_MS / 2 });
    // Gone without a word (close() alone sends nothing): the row goes once it sat idle for sessionIdleMs.
    await leaving.client.close();
    expect(await clients.session('goes-away').isVisible()).toBe(true);
    await clients.session('goes-away').waitFor({ state: 'detached', timeout: SESSION_IDLE_MS * 4 });
    expect(await clients.sessionsHeading.innerText()).toBe('Connected sessions (0)');
  }, 60_000);

  it('keeps every button on one line at 1280 px with each panel filled', async () => {
    expect(await clients.profileRow('cursor').isVisible()).toBe(true);
    expect(await clients.wrappedButtons()).toEqual([]);
  });

  it('says in the sidebar footer how many servers stand where, and the endpoint', async () => {
    const { host } = new URL(served.endpointUrl);
    await expect.poll(() => app.sidebarFooter.innerText(), SLOW).toBe(`1 server up, 1 off · endpoint ${host}`);
  });

  it('has no serious or critical accessibility violations with the warning, profiles and sessions shown', async () => {
    await app.open('Clients');
    await clients.keychainWarning.waitFor(SLOW);
    expect(await violationsInBothSchemes(page, 'Clients')).toEqual([]);
  }, 60_000);

  it('a used login link says to run `mcp-switchboard ui`, whose fresh link logs in', async () => {
    const fresh = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    try {
      const other = await fresh.newPage();
      await other.goto(served.loginUrl);
      await other.getByText('Run `mcp-switchboard ui` for a new one').waitFor(SLOW);
      await new AppPage(other).screenshots('login-link-used');
      const ui = await runCli(['ui', '--no-browser'], {
        ...serveEnv,
        SWITCHBOARD_TOKEN: served.token,
        SWITCHBOARD_NO_BROWSER: '1',
      });
      expect(ui.code).toBe(0);
      const link = /UI: (\S+)/.exec(ui.stdout)?.[1] ?? '';
      expect(link).not.toBe(served.loginUrl);
      await new AppPage(other).login(link);
      await other.getByRole('heading', { level: 1, name: 'Servers', exact: true }).waitFor(SLOW);
    } finally {
      await fresh.close();
    }
  }, 60_000);
});
