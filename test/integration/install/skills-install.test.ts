/**
 * `skills install <client>` into a throwaway home: the skills the profile
 * may use are written to the client's skills folder (~/.claude/skills/<name>/,
 * ~/.agents/skills for Codex, ...) through Switchboard's own endpoint, each
 * file verified against its entry's digest, marked as ours; a folder of the
 * user's own is never touched; installing again leaves unchanged ones unread,
 * removes ours that are no longer offered unless told to keep one; a preview
 * changes nothing; uninstall removes only ours.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, readdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  installedSkillClients,
  installSkills,
  SKILL_MARKER,
  uninstallSkills,
  type ClientsContext,
} from '../../../electron/core/install/index.js';
import { fixture, nodeServer, startProxy, tempDir, type Harness } from '../../helpers/harness.js';

const sha256 = (bytes: Buffer) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

describe('skills install into Claude Code', () => {
  let home: Awaited<ReturnType<typeof tempDir>>;
  let proxy: Harness;
  let ctx: ClientsContext;

  beforeEach(async () => {
    home = await tempDir();
    proxy = await startProxy({ mcpServers: { docs: nodeServer(fixture('skills/server.mjs')) } });
    ctx = {
      platform: { platform: process.platform, env: {}, home: home.path },
      stateDir: join(home.path, 'state'),
      url: proxy.url,
      launcher: { command: process.execPath, args: [] },
      tokens: { tokenFor: async () => proxy.token },
    };
  });
  afterEach(async () => {
    await proxy.close();
    await home.cleanup();
  });

  it('writes the verified skills marked as ours, leaves the user’s own, syncs, and uninstalls only ours', async () => {
    const skills = join(home.path, '.claude', 'skills');
    // The user's own skill of the same name as one we offer: never overwritten.
    await mkdir(join(skills, 'release-notes'), { recursive: true });
    await writeFile(join(skills, 'release-notes', 'SKILL.md'), 'mine\n');

    const outcome = await installSkills(ctx, 'claude-code');
    expect(outcome).toMatchObject({ folder: skills, installed: ['pdf-processing'], removed: [] });
    expect(outcome.skipped).toEqual([{ name: 'release-notes', reason: expect.stringContaining('not ours') }]);
    const forms = await readFile(join(skills, 'pdf-processing', 'references', 'FORMS.md'));
    const source = await readFile(fixture('skills/library/pdf-processing/references/FORMS.md'));
    expect(forms.equals(source)).toBe(true);
    const marker = JSON.parse(await readFile(join(skills, 'pdf-processing', SKILL_MARKER), 'utf8'));
    expect(marker).toMatchObject({
      installedBy: 'mcp-switchboard',
      skill: 'skill://docs/pdf-processing/SKILL.md',
      files: expect.arrayContaining([{ path: 'references/FORMS.md', digest: sha256(source) }]),
    });
    expect(await readFile(join(skills, 'release-notes', 'SKILL.md'), 'utf8')).toBe('mine\n');

    // A skill the profile may no longer use is removed at the next install.
    await proxy.core.policy.setRule('docs', 'skills', 'pdf-processing', 'deny');
    expect(await installSkills(ctx, 'claude-code')).toMatchObject({ installed: [], removed: ['pdf-processing'] });
    await proxy.core.policy.setRule('docs', 'skills', 'pdf-processing', null);
    await installSkills(ctx, 'claude-code');

    expect(await installedSkillClients(ctx.stateDir)).toEqual(['claude-code']);
    expect(await uninstallSkills(ctx, 'claude-code')).toEqual({ folder: skills, removed: ['pdf-processing'] });
    expect(await readdir(skills)).toEqual(['release-notes']);
    expect(await installedSkillClients(ctx.stateDir)).toEqual([]);
  });

  it('leaves an unchanged skill unread, keeps one it is told to keep, and a preview changes nothing', async () => {
    const skills = join(home.path, '.claude', 'skills');
    const preview = await installSkills(ctx, 'claude-code', { preview: true });
    expect(preview).toMatchObject({ installed: ['pdf-processing', 'release-notes'], removed: [] });
    expect(preview.files['pdf-processing']?.sort()).toEqual(['SKILL.md', 'references/FORMS.md']);
    await expect(readdir(skills)).rejects.toThrow(/ENOENT/);
    expect(await installedSkillClients(ctx.stateDir)).toEqual([]);

    await installSkills(ctx, 'claude-code');
    const written = (await stat(join(skills, 'pdf-processing', 'SKILL.md'))).mtimeMs;
    const again = await installSkills(ctx, 'claude-code');
    expect(again).toMatchObject({ installed: [], unchanged: ['pdf-processing', 'release-notes'] });
    expect((await stat(join(skills, 'pdf-processing', 'SKILL.md'))).mtimeMs).toBe(written);

    await proxy.core.policy.setRule('docs', 'skills', 'pdf-processing', 'deny');
    const keep = ({ name, uri }: { name: string; uri: string }) =>
      name === 'pdf-processing' && uri === 'skill://docs/pdf-processing/SKILL.md' ? 'held for review' : undefined;
    expect(await installSkills(ctx, 'claude-code', { preview: true })).toMatchObject({ removed: ['pdf-processing'] });
    expect(await installSkills(ctx, 'claude-code', { keep })).toMatchObject({
      removed: [],
      kept: [{ name: 'pdf-processing', reason: 'held for review' }],
    });
    expect((await readdir(skills)).sort()).toEqual(['pdf-processing', 'release-notes']);
  });

  // Each client's documented personal folder (docs/skills.md cites where each is documented).
  it.each([
    ['codex', ['.agents', 'skills']],
    ['cursor', ['.cursor', 'skills']],
    ['vscode', ['.copilot', 'skills']],
    ['gemini-cli', ['.gemini', 'skills']],
    ['opencode', ['.config', 'opencode', 'skills']],
  ])('writes %s’s skills into its own folder', async (client, parts) => {
    const folder = join(home.path, ...parts);
    expect(await installSkills(ctx, client)).toMatchObject({ folder, installed: ['pdf-processing', 'release-notes'] });
    const source = await readFile(fixture('skills/library/release-notes/SKILL.md'));
    expect((await readFile(join(folder, 'release-notes', 'SKILL.md'))).equals(source)).toBe(true);
    // Each client's folder is its own: Claude Code's is not touched.
    await expect(readdir(join(home.path, '.claude'))).rejects.toThrow(/ENOENT/);
    expect(await uninstallSkills(ctx, client)).toMatchObject({ removed: ['pdf-processing', 'release-notes'] });
    expect(await readdir(folder)).toEqual([]);
  });

  it('refuses a client that reads no skills from disk', async () => {
    await expect(installSkills(ctx, 'zed')).rejects.toMatchObject({
      code: 'unknown_client',
      message: expect.stringMatching(/zed reads no skills from disk/),
    });
  });
});
