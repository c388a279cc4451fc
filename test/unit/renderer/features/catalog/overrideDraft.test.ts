/** The override editor's form read back into the override it stands for, and filled from a saved one. */
import { describe, expect, it } from 'vitest';
import {
  baseOf,
  formOf,
  readOverrideForm,
  sectionOf,
} from '../../../../../renderer/src/features/catalog/overrideDraft.js';

describe('override form', () => {
  const saved = {
    name: 'read_note',
    annotations: { readOnlyHint: true, destructiveHint: false },
    arguments: { path: { fixed: '/notes' }, head: { default: 5 } },
  };

  it('reads back exactly the override it was filled from', () => {
    const form = formOf(saved, ['path', 'head', 'tail']);
    expect(form.hints).toEqual({
      readOnlyHint: 'yes',
      destructiveHint: 'no',
      idempotentHint: 'server',
      openWorldHint: 'server',
    });
    expect(form.arguments['tail']).toEqual({ mode: 'as-is', value: '' });
    expect(readOverrideForm(form, true)).toEqual({ override: saved, errors: {} });
  });

  it('is null when nothing is set, and names an argument whose value is not JSON', () => {
    expect(readOverrideForm(formOf(undefined, ['path']), true)).toEqual({ override: null, errors: {} });
    const form = formOf(undefined, ['path']);
    form.arguments['path'] = { mode: 'fixed', value: '/notes' };
    expect(readOverrideForm(form, true).errors).toEqual({ path: 'must be JSON (a string in quotes: "text")' });
  });

  it('keeps only name, title and description for a prompt or resource offered as a tool', () => {
    const form = { ...formOf(saved, ['path']), title: 'T' };
    expect(readOverrideForm(form, false)).toEqual({ override: { name: 'read_note', title: 'T' }, errors: {} });
  });

  it('starts from what the model sees now, and sets only what the user changed', () => {
    const upstream = { name: 'read', title: 'Read', description: 'Reads a note.' };
    const base = baseOf(upstream, { description: 'Reads one note from the vault.' });
    const form = formOf(undefined, ['path'], base);
    expect([form.name, form.title, form.description]).toEqual(['read', 'Read', 'Reads one note from the vault.']);
    expect(readOverrideForm(form, true, base)).toEqual({ override: null, errors: {} });
    const edited = { ...form, description: 'Reads one note from the vault, by path.' };
    expect(readOverrideForm(edited, true, base).override).toEqual({
      description: 'Reads one note from the vault, by path.',
    });
    // A saved override's own values win over what it is laid over.
    expect(formOf({ name: 'read_note' }, [], base).name).toBe('read_note');
  });

  it('finds where an entry’s override lives', () => {
    const entry = { backendId: 'fs', exposed: 'x', original: 'x' };
    expect(sectionOf({ ...entry, kind: 'tool' })).toBe('tools');
    expect(sectionOf({ ...entry, kind: 'tool', via: 'prompt' })).toBe('promptsAsTools');
    expect(sectionOf({ ...entry, kind: 'resource' })).toBe('resourcesAsTools');
    expect(sectionOf({ ...entry, kind: 'resourceTemplate' })).toBeUndefined();
  });
});
