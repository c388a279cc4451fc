/**
 * End to end in Chromium, with real bubblewrap and strace (issue #37): on a
 * real server-memory's card, **Learn permissions** runs it recorded with the
 * calls typed in (as Try it would make them), shows the proposal as a diff
 * (its memory file's folder, for writing, as `~/notes`), and **Accept** saves
 * exactly that as its sandbox; the server restarts sandboxed and the same
 * call works under it. Skips (saying why) outside CI when bubblewrap, strace
 * or Chromium is missing.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxSupport } from '../../electron/core/backends/index.js';
import { findCommand } from '../../electron/core/backends/index.js';
import { MEMORY } from '../helpers/harness.js';
import { chromiumForTests, launchChromium } from './browser.js';
import { AppPage } from './pages/AppPage.js';
import { ServersPage } from './pages/ServersPage.js';
import { serveUi, type ServedUi } from './serveUi.js';

const SLOW = { timeout: 60_000 };
const support = await sandboxSupport();
const strace = findCommand('strace', process.env['PATH'] ?? '');
const skipped = !support.available ? ` (skipped: ${support.reason})` : !strace ? ' (skipped: no strace)' : '';
const mustRun = process.env['CI'] === 'true';
const chromium = chromiumForTests();

describe.skipIf(chromium.skip || ((!support.available || !strace) && !mustRun))(
  `learning a server's permissions in the UI${chromium.titleSuffix}${skipped}`,
  () => {
    let served: ServedUi;
    let browser: Browser;
    let page: Page;
    let servers: ServersPage;

    beforeAll(async () => {
      served = await serveUi(
        {
          mcpServers: {
            memory: {
              command: process.execPath,
              args: [MEMORY],
              env: { MEMORY_FILE_PATH: '${HOME}/notes/memory.json' },
              sandbox: false,
            },
          },
        },
        { prepare: (dirs) => mkdir(join(dirs.home, 'notes')).then(() => undefined) },
      );
      browser = await launchChromium();
      page = await (await browser.newContext({ viewport: { width: 1280, height: 1000 } })).newPage();
      servers = new ServersPage(page);
      await new AppPage(page).login(served.loginUrl);
    }, 60_000);

    afterAll(async () => {
      await browser?.close();
      await served?.stop();
    });

    it('learns, shows the diff, and Accept saves the grant the server then works under', async () => {
      await servers.badge('memory').filter({ hasText: 'Up' }).waitFor(SLOW);
      const card = servers.card('memory');
      await card.getByRole('button', { name: 'Learn permissions' }).click();
      const panel = card.getByRole('region', { name: 'Learn permissions of memory' });
      const entities = JSON.stringify({ entities: [{ name: 'learned', entityType: 't', observations: ['o'] }] });
      await panel
        .getByRole('textbox', { name: 'Calls to make while learning' })
        .fill(`create_entities ${entities}\nread_graph`);
      await panel.getByRole('spinbutton', { name: 'Window in seconds' }).fill('0');
      await panel.getByRole('button', { name: 'Learn', exact: true }).click();

      const proposal = panel.getByRole('region', { name: 'Proposal for memory' });
      await proposal.waitFor(SLOW);
      await proposal.getByText('Accepting turns its sandbox on.').waitFor();
      expect(await proposal.getByRole('list', { name: 'Learned write' }).getByRole('listitem').allInnerTexts()).toEqual(
        ['+ ~/notes'],
      );
      expect(await proposal.getByRole('list', { name: 'Learned read' }).count()).toBe(0);
      expect(await proposal.getByText('create_entities: ok').count()).toBe(1);

      await proposal.getByRole('button', { name: 'Accept' }).click();
      await proposal.getByText('Saved: memory now runs sandboxed with this grant.').waitFor(SLOW);
      expect(JSON.parse(await readFile(served.configPath, 'utf8')).mcpServers.memory.sandbox).toEqual({
        read: [],
        write: ['~/notes'],
        network: 'none',
      });
      await card.getByText('Sandboxed (bubblewrap): network none; reads defaults only; writes ~/notes').waitFor(SLOW);
      await servers.badge('memory').filter({ hasText: 'Up' }).waitFor(SLOW);

      // Under the accepted sandbox, it reads what the learned run saved, and saves again.
      const sdk = new Client({ name: 'e2e-learn', version: '1.0.0' });
      await sdk.connect(
        new StreamableHTTPClientTransport(new URL(served.endpointUrl), {
          requestInit: { headers: { Authorization: `Bearer ${served.token}` } },
        }),
      );
      try {
        const graph = await sdk.callTool({ name: 'memory__read_graph', arguments: {} });
        expect(graph.isError).not.toBe(true);
        expect(JSON.stringify(graph.content)).toContain('learned');
        const saved = await sdk.callTool({
          name: 'memory__create_entities',
          arguments: { entities: [{ name: 'sandboxed', entityType: 't', observations: ['o'] }] },
        });
        expect(saved.isError).not.toBe(true);
      } finally {
        await sdk.close();
      }
    }, 180_000);
  },
);
