/**
 * End to end in Chromium: the UI says its errors in its own terms. Each
 * error state a user meets on the way (a profile ID taken on import, a
 * server that does not answer, a bundle whose sandbox cannot run here)
 * names the control on screen that fixes it, never a CLI flag, and keeps the
 * error's code out of the sentence: only inside the Details element.
 */
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../shared/errors.js';
import { bundleBytes, bundleManifest } from '../helpers/bundles.js';
import { violationsInBothSchemes } from './axe.js';
import { chromiumForTests } from './browser.js';
import { AddServerPage } from './pages/AddServerPage.js';
import type { AppPage } from './pages/AppPage.js';
import { ClientsPage } from './pages/ClientsPage.js';
import type { ServedUi } from './serveUi.js';
import { openUiSession, type UiSession } from './uiSession.js';

const SLOW = { timeout: 45_000 };
const CODES = Object.values(ErrorCode);

/**
 * The text of every alert on the page with its Details elements taken out
 * (what a user reads as the sentence), and the Details' text apart.
 */
async function alertTexts(page: Page): Promise<{ sentence: string; details: string }[]> {
  return page.getByRole('alert').evaluateAll((alerts) =>
    alerts.map((alert) => {
      const copy = alert.cloneNode(true) as HTMLElement;
      const details = [...copy.querySelectorAll('details')].map((element) => {
        element.remove();
        return element.textContent ?? '';
      });
      return { sentence: copy.textContent ?? '', details: details.join('\n') };
    }),
  );
}

/** What is wrong with the sentences shown: CLI flags or raw codes in them. */
function cliWordsIn(texts: { sentence: string }[]): string[] {
  return texts.flatMap(({ sentence }) => [
    ...(sentence.match(/(^|\s)--[a-z][a-z-]*/g) ?? []).map((flag) => `flag ${flag.trim()} in "${sentence}"`),
    ...CODES.filter((code) => new RegExp(`\\b${code}\\b`).test(sentence)).map(
      (code) => `code ${code} in "${sentence}"`,
    ),
  ]);
}

const chromium = chromiumForTests();
describe.skipIf(chromium.skip)(`errors in the UI's own terms${chromium.titleSuffix}`, () => {
  let served: ServedUi;
  let ui: UiSession;
  let page: Page;
  let app: AppPage;

  beforeAll(async () => {
    ui = await openUiSession(
      { mcpServers: {}, policy: { clients: { team: { name: 'Team' } } } },
      {
        // A PATH with node and no bubblewrap: no sandbox can run here.
        prepare: async ({ dir }) => {
          await mkdir(join(dir, 'bin'));
          await symlink(process.execPath, join(dir, 'bin', 'node'));
        },
        env: ({ dir }) => ({ PATH: join(dir, 'bin') }),
      },
    );
    ({ served, page, app } = ui);
  }, 60_000);

  afterAll(async () => {
    await ui?.close();
  });

  afterEach(() => expect(ui.cspErrors.splice(0)).toEqual([]));

  it('a profile ID taken on import names the box and the field that fix it; the code only in Details', async () => {
    await app.open('Clients');
    const clients = new ClientsPage(page);
    await clients.profileRow('team').waitFor(SLOW);
    await clients.profiles.getByRole('button', { name: 'Import profile…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import a profile' });
    await dialog.getByLabel('Profile file').setInputFiles({
      name: 'team.profile.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify({ formatVersion: 1, profile: { id: 'team', name: 'Team' } })),
    });
    const alert = dialog.getByRole('alert');
    await alert.waitFor(SLOW);
    const [shown] = await alertTexts(page);
    expect(shown?.sentence).toBe(
      'Failed: a client profile "team" exists already: tick “Replace a profile of the same ID”, or enter another ID in “Import as”.',
    );
    expect(shown?.details).toContain(ErrorCode.DuplicateClient);
    expect(cliWordsIn(await alertTexts(page))).toEqual([]);
    expect(await violationsInBothSchemes(page, 'import refused')).toEqual([]);
    // The control it names does fix it.
    await dialog.getByLabel('Import as').fill('team2');
    await dialog.getByRole('region', { name: 'Changes' }).waitFor(SLOW);
    expect(await dialog.getByRole('alert').count()).toBe(0);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  }, 60_000);

  it('a server that does not answer: the reason in words, the code only in Details', async () => {
    await app.open('Add server');
    const form = await new AddServerPage(page).customForm();
    await form.getByRole('combobox', { name: 'Transport' }).selectOption({ index: 1 });
    await form.getByRole('textbox', { name: /^Name/ }).fill('nobody');
    await form.getByRole('textbox', { name: 'URL' }).fill('http://127.0.0.1:9/mcp');
    await form.getByRole('button', { name: 'Add', exact: true }).click();
    const alert = form.getByRole('alert').filter({ hasText: /^Not saved:/ });
    await alert.waitFor(SLOW);
    const texts = await alertTexts(page);
    expect(texts.map((text) => text.details).join('\n')).toContain(ErrorCode.ConnectFailed);
    expect(cliWordsIn(texts)).toEqual([]);
  }, 60_000);

  it('a bundle whose sandbox cannot run here names the box that adds it unsandboxed, not the flag', async () => {
    const path = join(served.dir, 'greeter.mcpb');
    await writeFile(path, await bundleBytes(bundleManifest('greeter')));
    const add = new AddServerPage(page);
    await add.chooseBundle(path);
    const form = add.bundleForm('Greeter');
    await form.waitFor(SLOW);
    await form.getByRole('textbox', { name: /Tools \(required\)/ }).fill('greet');
    await form.getByRole('button', { name: 'Add', exact: true }).click();
    const alert = form.getByRole('alert').filter({ hasText: /^Not added:/ });
    await alert.waitFor(SLOW);
    const texts = await alertTexts(page);
    const sentence = texts.map((text) => text.sentence).join('\n');
    expect(sentence).toContain('to add it unsandboxed, tick “Run it unsandboxed, with your rights”');
    expect(texts.map((text) => text.details).join('\n')).toContain(ErrorCode.SandboxUnavailable);
    expect(cliWordsIn(texts)).toEqual([]);
    // The box it names is there.
    await form.getByRole('checkbox', { name: /Run it unsandboxed, with your rights/ }).waitFor();
    await app.screenshots('error-words-bundle');
    expect(await violationsInBothSchemes(page, 'bundle refused for its sandbox')).toEqual([]);
  }, 60_000);
});
