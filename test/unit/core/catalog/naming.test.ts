import { describe, expect, it } from 'vitest';
import { CLIENT_NAME_PATTERN, exposedName, stableHash } from '../../../../electron/core/catalog/naming.js';

describe('exposedName', () => {
  it('joins prefix and name with the separator, or keeps the bare name for an empty prefix', () => {
    expect(exposedName('github', 'github', '__', 'create_issue')).toBe('github__create_issue');
    expect(exposedName('github', 'gh', '-', 'create_issue')).toBe('gh-create_issue');
    expect(exposedName('github', '', '__', 'create_issue')).toBe('create_issue');
  });

  it('replaces characters clients reject', () => {
    expect(exposedName('fs', 'fs', '__', 'read.file')).toBe('fs__read_file');
    expect(exposedName('fs', 'fs', '__', 'ns:tool/x y')).toBe('fs__ns_tool_x_y');
    expect(exposedName('fs', 'fs', '__', 'héllo')).toBe('fs__h_llo');
  });

  it('shortens long names to 64 characters ending in a stable hash of the original', () => {
    const original = 'a'.repeat(100);
    const name = exposedName('srv', 'srv', '__', original);
    expect(name).toHaveLength(64);
    expect(name).toMatch(CLIENT_NAME_PATTERN);
    expect(name.endsWith(`_${stableHash('srv', original)}`)).toBe(true);
    expect(exposedName('srv', 'srv', '__', original)).toBe(name);
    // Two long names with the same head stay apart.
    expect(exposedName('srv', 'srv', '__', `${'a'.repeat(99)}b`)).not.toBe(name);
  });

  it('honours a smaller length budget', () => {
    const name = exposedName('srv', 'srv', '__', 'a_rather_long_tool_name', 20);
    expect(name).toHaveLength(20);
    expect(name).toMatch(/^srv__a_rath_[0-9a-f]{8}$/);
  });
});
