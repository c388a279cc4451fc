/**
 * Installed skills kept in sync by the running Switchboard (what `serve`
 * runs: startHeadless), in a throwaway HOME: after an install from the
 * Clients screen's method, a skill whose file changes upstream is held for
 * review and its installed copy stays as reviewed; once approved, the copy is
 * rewritten; a new skill upstream is written; one denied by the profile or
 * removed upstream is removed; a folder of the user's own is never touched.
 */
import { cp, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { startHeadless, type Headless } from '../../../electron/host/startHeadless.js';
import { BIN } from '../../helpers/cli.js';
import { fixture, nodeServer } from '../../helpers/harness.js';
import { waitUntil } from '../../helpers/processes.js';

const root = await mkdtemp(join(tmpdir(), 'sb-skills-sync-'));
process.env['HOME'] = root;
process.env['XDG_CONFIG_HOME'] = join(root, 'config');
process.env['XDG_STATE_HOME'] = join(root, 'state');
delete process.env['SWITCHBOARD_TOKEN'];

const library = join(root, 'library');
const skills = join(root, '.claude', 'skills');
const SYNCED = { timeoutMs: 20_000, intervalMs: 100 };

describe('installed skills kept in sync', () => {
  let headless: Headless;
  let mcp: Client;

  beforeAll(async () => {
    await cp(fixture('skills/library'), library, { recursive: true });
    const configPath = join(root, 'config', 'mcp-switchboard', 'config.json');
    await mkdir(join(root, 'config', 'mcp-switchboard'), { recursive: true });
    await writeFile(
      configPath,
      JSON.stringify({ mcpServers: { docs: nodeServer(fixture('skills/server.mjs'), [library]) } }),
    );
    headless = await startHeadless({
      config: configPath,
      host: '127.0.0.1',
      port: 0,
      launcher: { command: process.execPath, args: [BIN] },
      ui: false,
    });
    await headless.core.start();
    mcp = new Client({ name: 'sync-test', version: '1.0.0' });
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL(headless.url), {
        requestInit: { headers: { Authorization: `Bearer ${headless.token}` } },
      }),
    );
  });
  afterAll(async () => {
    await mcp?.close();
    await headless?.stop();
    await rm(root, { recursive: true, force: true });
  });

  const forms = () => readFile(join(skills, 'pdf-processing', 'references', 'FORMS.md'), 'utf8');
  const installed = async () => (await readdir(skills)).filter((name) => !name.startsWith('.')).sort();
  const reload = () => mcp.callTool({ name: 'docs__reload', arguments: {} });

  it('follows reviewed changes, denials and removals upstream, and leaves the user’s own folder', async () => {
    await mkdir(join(skills, 'mine'), { recursive: true });
    await writeFile(join(skills, 'mine', 'SKILL.md'), 'mine\n');
    const signal = AbortSignal.timeout(30_000);
    const outcome = await headless.handlers['clients.installSkills']({ client: 'claude-code' }, { signal });
    expect(outcome.written.map((skill) => skill.name)).toEqual(['pdf-processing', 'release-notes']);
    const reviewed = await forms();

    // A changed file is held for review; a new skill comes at the same sync: the held one's copy stays as reviewed.
    await writeFile(join(library, 'pdf-processing', 'references', 'FORMS.md'), '# Forms\n\nSign every field.\n');
    await cp(fixture('skills/other/changelog'), join(library, 'changelog'), { recursive: true });
    await reload();
    await waitUntil(async () => (await installed()).includes('changelog'), SYNCED);
    expect(headless.core.reviews.review('docs').changes.map((change) => change.tool)).toContain('skill:pdf-processing');
    expect(await installed()).toEqual(['changelog', 'mine', 'pdf-processing', 'release-notes']);
    expect(await forms()).toBe(reviewed);

    // Approved: the installed copy is the new one.
    await headless.core.policy.approvePin('docs', 'skill:pdf-processing');
    await waitUntil(async () => (await forms()).includes('Sign every field.'), SYNCED);

    // Denied by the profile, removed upstream: removed from the folder; the user's own stays.
    await headless.core.policy.setRule('docs', 'skills', 'release-notes', 'deny');
    await rm(join(library, 'changelog'), { recursive: true });
    await reload();
    await waitUntil(async () => (await installed()).join() === 'mine,pdf-processing', SYNCED);
    expect(await readFile(join(skills, 'mine', 'SKILL.md'), 'utf8')).toBe('mine\n');
  });
});
