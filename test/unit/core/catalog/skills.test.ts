/**
 * Skills in the merged catalog (catalog/skills.ts): folders advertised under
 * the server's ID with the skill's name last, files routed back through the
 * folder table, names unique in config order, entries naming files outside
 * their folder refused, and the UI's catalog entries (host/catalogViews.ts).
 */
import { describe, expect, it } from 'vitest';
import type { Skill } from '@modelcontextprotocol/client/ext/skills';
import { buildCatalog, type CatalogInput } from '../../../../electron/core/catalog/catalog.js';
import { catalogEntries } from '../../../../electron/host/catalogViews.js';

const DIGEST = `sha256:${'0'.repeat(64)}`;
const skill = (uri: string, name: string, files: string[] = []): Skill => ({
  uri,
  frontmatter: { name, description: `${name} skill` },
  resources: [uri, ...files].map((file) => ({ uri: file, digest: DIGEST, size: 10 })),
});
const input = (backendId: string, skills: Skill[]): CatalogInput => ({
  backendId,
  prefix: backendId,
  snapshot: { tools: [], prompts: [], resources: [], resourceTemplates: [], skills },
});
const build = (...inputs: CatalogInput[]) => buildCatalog(inputs, { separator: '__', maxItems: 100 }).catalog;

describe('skills in the catalog', () => {
  it('advertises folders under the server ID, keeps the name last, and routes files back', () => {
    const catalog = build(
      input('docs', [
        skill('skill://pdf/SKILL.md', 'pdf', ['skill://pdf/references/FORMS.md']),
        skill('https://example.com/kit/notes/SKILL.md', 'notes'),
      ]),
    );
    expect(catalog.skills.map((entry) => entry.uri)).toEqual([
      'skill://docs/pdf/SKILL.md',
      'skill://docs/example.com/kit/notes/SKILL.md',
    ]);
    expect(catalog.skills[0]?.resources).toEqual([
      { uri: 'skill://docs/pdf/SKILL.md', digest: DIGEST, size: 10 },
      { uri: 'skill://docs/pdf/references/FORMS.md', digest: DIGEST, size: 10 },
    ]);
    expect(catalog.skillFolders.resolve('skill://docs/pdf/references/FORMS.md')).toMatchObject({
      folder: { backendId: 'docs', skill: 'skill://docs/pdf/SKILL.md' },
      original: 'skill://pdf/references/FORMS.md',
    });
    expect(catalog.skillFolders.resolve('skill://docs/example.com/kit/notes/SKILL.md')?.original).toBe(
      'https://example.com/kit/notes/SKILL.md',
    );
    expect(catalog.skillFolders.resolve('skill://docs/pdfx/SKILL.md')).toBeUndefined();
    expect(catalog.skillFolders.advertise('docs', 'skill://pdf/references/FORMS.md')).toBe(
      'skill://docs/pdf/references/FORMS.md',
    );
    expect(catalog.skillBackends).toEqual(new Set(['docs']));
  });

  it('keeps a name with the earlier server and refuses an entry with a file outside its folder', () => {
    const catalog = build(
      input('a', [skill('skill://pdf/SKILL.md', 'pdf')]),
      input('b', [
        skill('skill://pdf/SKILL.md', 'pdf'),
        skill('skill://evil/SKILL.md', 'evil', ['skill://other/x.md']),
      ]),
    );
    expect(catalog.skills.map((entry) => entry.uri)).toEqual(['skill://a/pdf/SKILL.md']);
    expect(catalog.warnings.get('b')).toEqual([
      expect.stringMatching(/skill "pdf" of backend "b".*"a" already serves a skill of that name/),
      expect.stringMatching(/skill "evil" refused: skill:\/\/other\/x.md is outside its folder/),
    ]);
  });

  it('lists skills in the UI catalog with their files and sizes', () => {
    const catalog = build(input('docs', [skill('skill://pdf/SKILL.md', 'pdf', ['skill://pdf/a.md'])]));
    expect(catalogEntries(catalog)).toEqual([
      {
        kind: 'skill',
        backendId: 'docs',
        exposed: 'skill://docs/pdf/SKILL.md',
        original: 'pdf',
        description: 'pdf skill',
        files: [
          { uri: 'skill://docs/pdf/SKILL.md', size: 10 },
          { uri: 'skill://docs/pdf/a.md', size: 10 },
        ],
      },
    ]);
  });
});
