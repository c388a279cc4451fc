/**
 * End to end: profile files on the Clients screen of `serve`, in Chromium.
 * Export downloads the profile's file (its servers' secrets as inputs);
 * Import reads a file, refuses one that does not validate naming the field
 * (config.json unchanged), previews the changes, asks for the secret it
 * needs, and imports: the secret lands in the keychain, and no frame the
 * page receives ever holds it (the preview names inputs only).
 */
import { readFile } from 'node:fs/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { KeytarStore } from '../../electron/core/platform/index.js';
import { fixture, nodeServer } from '../helpers/harness.js';
import { keychainForTests } from '../helpers/keychain.js';
import { chromiumForTests, collectCspErrors, launchChromium } from './browser.js';
import { AppPage } from './pages/AppPage.js';
import { ClientsPage } from './pages/ClientsPage.js';
import { serveUi, type ServedUi } from './serveUi.js';

const SLOW = { timeout: 30_000 };
const SERVICE = `mcp-switchboard-e2e-profiles-${process.pid}`;
const SECRET = 'e2e-profile-secret-93b1f0';
const keychain = new KeytarStore({ service: SERVICE, timeoutMs: 5000 });
const keychainState = await keychainForTests(keychain);
const chromium = chromiumForTests();

const PROFILE = {
  name: 'Team',
  backends: ['notes'],
  maxTools: 20,
  items: { notes: { tools: { echo_request: 'deny' } } },
};

describe.skipIf(chromium.skip || (!keychainState.status.available && !keychainState.required))(
  `profile files on the Clients screen${chromium.titleSuffix}${keychainState.titleSuffix}`,
  () => {
    let served: ServedUi;
    let browser: Browser;
    let page: Page;
    let clients: ClientsPage;
    const frames: string[] = [];
    const cspErrors: string[] = [];
    let exported: Record<string, unknown> = {};

    beforeAll(async () => {
      served = await serveUi(
        {
          mcpServers: {
            notes: nodeServer(fixture('echo-secrets.mjs'), [], { env: { LEAKY_TOKEN: { secret: 'notes-token' } } }),
          },
          policy: { backends: { notes: { defaultRule: 'allow' } }, clients: { team: PROFILE } },
        },
        { env: () => ({ SWITCHBOARD_KEYCHAIN_SERVICE: SERVICE }) },
      );
      browser = await launchChromium();
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
      page = await context.newPage();
      collectCspErrors(page, cspErrors);
      page.on('websocket', (socket) =>
        socket.on('framereceived', ({ payload }) => frames.push(typeof payload === 'string' ? payload : '')),
      );
      const app = new AppPage(page);
      clients = new ClientsPage(page);
      await app.login(served.loginUrl);
      await app.open('Clients');
      await clients.profileRow('team').waitFor(SLOW);
    }, 90_000);

    afterEach(() => expect(cspErrors.splice(0)).toEqual([]));

    afterAll(async () => {
      for (const name of ['notes2-token', 'switchboard:client-token-key']) {
        await keychain.delete(name).catch(() => undefined);
      }
      await browser?.close();
      await served?.stop();
    });

    it('Export downloads the profile file, its servers with secrets as inputs', async () => {
      const [download] = await Promise.all([
        page.waitForEvent('download', SLOW),
        clients.profileRow('team').getByRole('button', { name: 'Export' }).click(),
      ]);
      expect(download.suggestedFilename()).toBe('team.profile.json');
      exported = JSON.parse(await readFile((await download.path())!, 'utf8')) as Record<string, unknown>;
      expect(exported).toMatchObject({
        formatVersion: 1,
        profile: { id: 'team', ...PROFILE },
        backendPolicies: { notes: { defaultRule: 'allow' } },
        servers: { notes: { env: { LEAKY_TOKEN: { input: 'notes-token' } } } },
        inputs: { 'notes-token': { secret: true } },
      });
    });

    it('Import refuses a file that does not validate, naming the field, and changes nothing', async () => {
      const before = await readFile(served.configPath);
      const bad = structuredClone(exported) as { profile: Record<string, unknown> };
      bad.profile['exposure'] = 'sometimes';
      await clients.profiles.getByRole('button', { name: 'Import profile…' }).click();
      const dialog = page.getByRole('dialog', { name: 'Import a profile' });
      await dialog.getByLabel('Profile file').setInputFiles({
        name: 'bad.profile.json',
        mimeType: 'application/json',
        buffer: Buffer.from(JSON.stringify(bad)),
      });
      const alert = dialog.getByRole('alert');
      await alert.waitFor(SLOW);
      expect(await alert.innerText()).toContain('profile.exposure: Invalid option');
      expect(await dialog.getByRole('button', { name: 'Import', exact: true }).isDisabled()).toBe(true);
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      expect(await readFile(served.configPath)).toEqual(before);
    });

    it('Import previews the changes, asks for the secret, and imports the profile with its server', async () => {
      // The same profile for another server: renamed, so it is added and its secret is asked for.
      const file = JSON.parse(
        JSON.stringify(exported).replaceAll('notes-token', 'notes2-token').replaceAll('"notes"', '"notes2"'),
      ) as Record<string, unknown>;
      await clients.profiles.getByRole('button', { name: 'Import profile…' }).click();
      const dialog = page.getByRole('dialog', { name: 'Import a profile' });
      await dialog.getByLabel('Import as').fill('team2');
      await dialog.getByLabel('Profile file').setInputFiles({
        name: 'team.profile.json',
        mimeType: 'application/json',
        buffer: Buffer.from(JSON.stringify(file)),
      });
      const changes = dialog.getByRole('region', { name: 'Changes' });
      await changes.waitFor(SLOW);
      expect(await changes.innerText()).toContain('Profile team2: new');
      expect(await changes.innerText()).toContain('Server notes2: added');
      const importButton = dialog.getByRole('button', { name: 'Import', exact: true });
      expect(await importButton.isDisabled()).toBe(true); // the secret is still missing
      await dialog.getByLabel('Secret notes2-token').fill(SECRET);
      await importButton.click();
      await dialog.getByRole('status').filter({ hasText: 'Imported profile team2 with servers notes2.' }).waitFor(SLOW);
      await dialog.getByRole('button', { name: 'Done' }).click();
      await clients.profileRow('team2').waitFor(SLOW);

      const config = JSON.parse(await readFile(served.configPath, 'utf8')) as {
        mcpServers: Record<string, { env: unknown }>;
        policy: { clients: Record<string, unknown> };
      };
      expect(config.policy.clients['team2']).toEqual({
        ...PROFILE,
        backends: ['notes2'],
        items: { notes2: PROFILE.items.notes },
      });
      expect(config.mcpServers['notes2']?.env).toEqual({ LEAKY_TOKEN: { secret: 'notes2-token' } });
      expect(JSON.stringify(config)).not.toContain(SECRET);
      expect(await keychain.get('notes2-token')).toBe(SECRET);
      expect(frames.join('\n')).not.toContain(SECRET);
    });
  },
);
