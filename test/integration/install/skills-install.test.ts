/**
 * `skills install claude-code` into a throwaway home: the skills the profile
 * may use are written to ~/.claude/skills/<name>/ through Switchboard's own
 * endpoint, each file verified against its entry's digest, marked as ours; a
 * folder of the user's own is never touched; installing again removes ours
 * that are no longer offered; uninstall removes only ours.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
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

    expect(await uninstallSkills(ctx.platform, 'claude-code')).toEqual({ folder: skills, removed: ['pdf-processing'] });
    expect(await readdir(skills)).toEqual(['release-notes']);
  });

  it('refuses a client that reads no skills from disk', async () => {
    await expect(installSkills(ctx, 'cursor')).rejects.toThrow(/cursor reads no skills from disk/);
  });
});
