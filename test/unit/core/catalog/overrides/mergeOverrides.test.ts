/** A profile's override laid over its server's, field by field. */
import { describe, expect, it } from 'vitest';
import { mergeOverrides } from '../../../../../electron/core/catalog/overrides/mergeOverrides.js';

describe('mergeOverrides', () => {
  it("keeps the server's fields the profile does not set, and lays the profile's over them", () => {
    const merged = mergeOverrides(
      {
        name: 'read_note',
        description: 'server',
        annotations: { readOnlyHint: true },
        arguments: { path: { fixed: '/a', description: 'where' }, enc: { default: 'utf8' } },
      },
      {
        description: 'profile',
        annotations: { openWorldHint: false },
        arguments: { path: { fixed: '/b' }, enc: { description: 'encoding' }, n: { fixed: 1 } },
      },
    );
    expect(merged).toEqual({
      name: 'read_note',
      description: 'profile',
      annotations: { readOnlyHint: true, openWorldHint: false },
      arguments: {
        path: { fixed: '/b', description: 'where' },
        enc: { default: 'utf8', description: 'encoding' },
        n: { fixed: 1 },
      },
    });
  });

  it('lets a profile turn a fixed argument into a default (never both)', () => {
    const merged = mergeOverrides({ arguments: { path: { fixed: '/a' } } }, { arguments: { path: { default: '/b' } } });
    expect(merged).toEqual({ arguments: { path: { default: '/b' } } });
  });

  it('is either side alone when the other is absent', () => {
    expect(mergeOverrides(undefined, { name: 'x' })).toEqual({ name: 'x' });
    expect(mergeOverrides({ name: 'y' }, undefined)).toEqual({ name: 'y' });
    expect(mergeOverrides(undefined, undefined)).toBeUndefined();
  });
});
