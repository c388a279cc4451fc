/**
 * End to end in Chromium, with real bubblewrap (issue #25): a hostile server
 * run sandboxed by a real `serve` shows its sandbox on its card; a read it is
 * refused (asked by an SDK client through serve's /mcp) appears on the card
 * with a button that grants exactly that path, and after the restart that
 * save causes, the same read works, and the grant is listed with Revoke. A
 * write refused in Try it says so there ("blocked by the sandbox: write to
 * ..."), its Allow makes the same call work, and Revoke on the card takes the
 * grant away. The Add server form shows the command, its
 * arguments and the sandbox before anything is started, sandbox on. Skips
 * (saying why) outside CI when bubblewrap cannot run here or Chromium is missing.
 */
import { realpathSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxSupport } from '../../electron/core/backends/index.js';
import { fixture, ROOT } from '../helpers/harness.js';
import { chromiumForTests, launchChromium } from './browser.js';
import { AddServerPage } from './pages/AddServerPage.js';
import { AppPage } from './pages/AppPage.js';
import { CatalogPage } from './pages/CatalogPage.js';
import { TryItPanel } from './pages/TryItPanel.js';
import { ServersPage } from './pages/ServersPage.js';
import { serveUi, type ServedUi } from './serveUi.js';

const SLOW = { timeout: 30_000 };
const support = await sandboxSupport();
const noSandbox = support.available ? '' : ` (skipped: ${support.reason})`;
const mustRun = process.env['CI'] === 'true';
const chromium = chromiumForTests();
/**
 * The fixture's packages, passed as an argument the server ignores: the sandbox shows the folders
 * a server's arguments name (read-only), and in a git worktree whose node_modules links to another
 * checkout's, the project folder alone would not hold them.
 */
const PACKAGES = realpathSync(join(ROOT, 'node_modules'));
const HOSTILE = [fixture('hostile.mjs'), PACKAGES];

describe.skipIf(chromium.skip || (!support.available && !mustRun))(
  `a sandboxed server in the UI${chromium.titleSuffix}${noSandbox}`,
  () => {
    let served: ServedUi;
    let browser: Browser;
    let page: Page;
    let servers: ServersPage;
    let sdk: Client;
    /** A file outside everything the sandbox shows (its /tmp is private). */
    let secretDir: string;
    let canary: string;
    /** A folder the server may write to only once granted. */
    let outDir: string;

    beforeAll(async () => {
      secretDir = await mkdtemp(join(tmpdir(), 'switchboard-e2e-canary-'));
      canary = join(secretDir, 'credentials');
      await writeFile(canary, 'CANARY CREDENTIALS\n');
      outDir = await mkdtemp(join(tmpdir(), 'switchboard-e2e-out-'));
      served = await serveUi({
        mcpServers: { jailed: { command: process.execPath, args: HOSTILE, sandbox: true } },
      });
      browser = await launchChromium();
      page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
      servers = new ServersPage(page);
      await new AppPage(page).login(served.loginUrl);
      sdk = new Client({ name: 'e2e-sandbox', version: '1.0.0' });
      await sdk.connect(
        new StreamableHTTPClientTransport(new URL(served.endpointUrl), {
          requestInit: { headers: { Authorization: `Bearer ${served.token}` } },
        }),
      );
    }, 60_000);

    afterAll(async () => {
      await sdk?.close();
      await browser?.close();
      await served?.stop();
      await rm(secretDir, { recursive: true, force: true });
      if (outDir) await rm(outDir, { recursive: true, force: true });
    });

    const readCanary = async () => {
      const result = await sdk.callTool({ name: 'jailed__read_file', arguments: { path: canary } });
      const text = (result.content as { text?: string }[]).map((block) => block.text ?? '').join('');
      return { ok: result.isError !== true, text };
    };

    it('shows the sandbox it runs under on its card', async () => {
      await servers.badge('jailed').filter({ hasText: 'Up' }).waitFor(SLOW);
      const sandbox = servers.card('jailed').getByRole('region', { name: 'Sandbox of jailed' });
      await sandbox
        .getByText('Sandboxed (bubblewrap): network none; reads defaults only; writes defaults only')
        .waitFor();
      expect(await sandbox.getByRole('checkbox', { name: 'Run sandboxed' }).isChecked()).toBe(true);
    });

    it('lists a refused read, grants exactly that path, and after the restart the read works', async () => {
      const refused = await readCanary();
      expect(refused.ok).toBe(false);
      expect(refused.text).not.toContain('CANARY');

      const card = servers.card('jailed');
      await card.getByText(`blocked by the sandbox: read of ${canary}`).waitFor(SLOW);
      const pidBefore = await servers.pid('jailed');
      await card.getByRole('button', { name: `Allow reading ${canary}` }).click();

      // Saved in the config file as exactly that grant, the sandbox otherwise as it was.
      await expect
        .poll(async () => JSON.parse(await readFile(served.configPath, 'utf8')).mcpServers.jailed.sandbox, SLOW)
        .toEqual({ read: [canary] });
      // Restarted with it: a new process, the grant on the card, the refusal gone.
      await expect.poll(() => servers.pid('jailed').catch(() => pidBefore), SLOW).not.toBe(pidBefore);
      await servers.badge('jailed').filter({ hasText: 'Up' }).waitFor(SLOW);
      await card.getByText(`Sandboxed (bubblewrap): network none; reads ${canary}; writes defaults only`).waitFor(SLOW);
      expect(await card.getByText(`blocked by the sandbox: read of ${canary}`).count()).toBe(0);
      // The grant is listed on the card, revocable.
      const grants = card.getByRole('list', { name: 'Grants of jailed' });
      await grants.getByText(`read ${canary}`).waitFor(SLOW);
      expect(await grants.getByRole('button', { name: `Revoke read ${canary}` }).count()).toBe(1);
      // The user widened it in the UI, seeing what: it stays approved, and the read works at once.
      await expect.poll(readCanary, SLOW).toEqual({ ok: true, text: 'CANARY CREDENTIALS\n' });
    }, 90_000);

    it('explains a refused write in Try it; its Allow makes the call work, and the card lists the grant with Revoke', async () => {
      const target = join(outDir, 'written.txt');
      await new AppPage(page).open('Catalog');
      const catalog = new CatalogPage(page);
      await catalog.search.fill('jailed__write_file');
      await catalog.option('jailed__write_file').click();
      const panel = new TryItPanel(page, 'jailed__write_file');
      const fill = async () => {
        await panel.detail.getByRole('textbox', { name: 'path' }).fill(target);
        await panel.detail.getByRole('textbox', { name: 'content' }).fill('from Try it');
      };
      await fill();
      await panel.submit();
      // The result starts with the sentence, then the server's own error; the refusal with its Allow below it.
      await panel.result.getByText(`blocked by the sandbox: write to ${target}`).waitFor(SLOW);
      expect(await panel.result.innerText()).toContain('ENOENT');
      const refused = panel.detail.getByRole('list', { name: 'Refused to jailed' });
      expect(await refused.getByRole('listitem').innerText()).toContain(`blocked by the sandbox: write to ${target}`);
      await refused.getByRole('button', { name: `Allow writing to ${target}` }).click();
      await expect
        .poll(async () => JSON.parse(await readFile(served.configPath, 'utf8')).mcpServers.jailed.sandbox, SLOW)
        .toEqual({ read: [canary], write: [target] });

      // The same call, again from Try it, now works.
      await expect
        .poll(async () => {
          await fill();
          await panel.submit();
          await panel.result.waitFor(SLOW);
          return panel.result.innerText();
        }, SLOW)
        .toContain(`wrote ${target}`);
      expect(await readFile(target, 'utf8')).toBe('from Try it');

      await new AppPage(page).open('Servers');
      const grants = servers.card('jailed').getByRole('list', { name: 'Grants of jailed' });
      await grants.getByText(`write ${target}`).waitFor(SLOW);
      await grants.getByRole('button', { name: `Revoke write ${target}` }).click();
      await expect
        .poll(async () => JSON.parse(await readFile(served.configPath, 'utf8')).mcpServers.jailed.sandbox, SLOW)
        .toEqual({ read: [canary] });
    }, 120_000);

    it('shows the command, its arguments and the sandbox before adding, sandbox on by default', async () => {
      await page.getByRole('button', { name: '+ Add server' }).click();
      const form = await new AddServerPage(page).customForm();
      await form.getByRole('textbox', { name: 'Name' }).fill('second');
      await form.getByRole('textbox', { name: 'Command' }).fill(process.execPath);
      await form.getByRole('textbox', { name: /^Arguments/ }).fill(HOSTILE.join('\n'));
      const preview = form.getByRole('region', { name: 'What will run' });
      await preview.getByText(process.execPath, { exact: true }).waitFor();
      expect(await preview.getByRole('list', { name: 'Arguments' }).getByRole('listitem').allInnerTexts()).toEqual([
        ...HOSTILE,
      ]);
      await preview
        .getByText('Sandboxed (bubblewrap): network none; reads defaults only; writes defaults only')
        .waitFor();
      // Nothing started or saved yet.
      expect(JSON.parse(await readFile(served.configPath, 'utf8')).mcpServers.second).toBeUndefined();
      await form.getByRole('checkbox', { name: 'Run sandboxed' }).uncheck();
      await preview.getByText('Not sandboxed: runs with your rights').waitFor();
      await form.getByRole('checkbox', { name: 'Run sandboxed' }).check();
      await form.getByRole('button', { name: 'Add', exact: true }).click();
      await servers.badge('second').filter({ hasText: 'Up' }).waitFor(SLOW);
      expect(JSON.parse(await readFile(served.configPath, 'utf8')).mcpServers.second).toMatchObject({
        command: process.execPath,
        args: HOSTILE,
        sandbox: true,
      });
      // Added, it is quarantined until approved (issue 37): its card says it runs under the strict sandbox.
      await servers
        .card('second')
        .getByText(/^Quarantined: runs under the strict sandbox \(bubblewrap; no network, no home, no grant\)/)
        .waitFor(SLOW);
    }, 90_000);
  },
);
