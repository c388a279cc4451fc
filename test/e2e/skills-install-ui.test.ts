/**
 * End to end: the Clients screen's Skills panel in Chromium against the real
 * `serve` and our skills fixture, in a throwaway HOME. The preview says what
 * would be written (each skill with its files) and where, and writes nothing;
 * "Install skills into Claude Code" writes them there, byte for byte, and says
 * so; axe finds nothing serious in either scheme.
 */
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fixture, nodeServer } from '../helpers/harness.js';
import { violationsInBothSchemes } from './axe.js';
import { chromiumForTests } from './browser.js';
import { ClientsPage } from './pages/ClientsPage.js';
import { ServersPage } from './pages/ServersPage.js';
import { openUiSession, type UiSession } from './uiSession.js';

const SLOW = { timeout: 30_000 };

const chromium = chromiumForTests();
describe.skipIf(chromium.skip)(`Skills install from the Clients screen, in Chromium${chromium.titleSuffix}`, () => {
  let ui: UiSession;
  let clients: ClientsPage;
  let folder: string;

  beforeAll(async () => {
    ui = await openUiSession({ mcpServers: { docs: nodeServer(fixture('skills/server.mjs')) } });
    folder = join(ui.served.dir, 'home', '.claude', 'skills');
    await new ServersPage(ui.page).badge('docs').filter({ hasText: 'Up' }).waitFor(SLOW);
    clients = new ClientsPage(ui.page);
  }, 90_000);
  afterAll(() => ui?.close());
  afterEach(() => expect(ui.cspErrors.splice(0)).toEqual([]));

  it('previews what will be written and where, then installs into Claude Code and says what it wrote', async () => {
    await ui.app.open('Clients');
    const preview = await clients.previewSkills('Claude Code');
    expect(await preview.innerText()).toContain(folder);
    expect(await preview.innerText()).toMatch(
      /Will write pdf-processing: (SKILL\.md, references\/FORMS\.md|references\/FORMS\.md, SKILL\.md)/,
    );
    expect(await preview.innerText()).toContain('Will write release-notes: SKILL.md');
    await expect(readdir(folder)).rejects.toThrow(/ENOENT/);
    expect(await violationsInBothSchemes(ui.page, 'Skills preview')).toEqual([]);

    const result = await clients.installSkills('Claude Code');
    expect(await result.innerText()).toContain('Wrote release-notes: SKILL.md');
    const written = await readFile(join(folder, 'pdf-processing', 'references', 'FORMS.md'));
    expect(written.equals(await readFile(fixture('skills/library/pdf-processing/references/FORMS.md')))).toBe(true);
    expect(await violationsInBothSchemes(ui.page, 'Skills written')).toEqual([]);

    // Again: nothing new, each one already up to date.
    await clients.previewSkills('Claude Code');
    expect(await clients.skills.getByRole('status', { name: 'Skills to write' }).innerText()).toContain(
      'Already up to date: pdf-processing, release-notes',
    );
  });
});
