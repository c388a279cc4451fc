import { describe, expect, it } from 'vitest';
import { ProfileLoads } from '../../../../../electron/core/frontend/exposure/profileLoads.js';

describe('ProfileLoads', () => {
  it('keeps one set of loaded tools per profile', () => {
    const profiles = new ProfileLoads();
    profiles.of('cursor').load(['a']);
    expect(profiles.of('cursor').names()).toEqual(['a']);
    expect(profiles.of('vscode').names()).toEqual([]);
  });

  it('counts listen streams per profile until the last one ends', () => {
    const profiles = new ProfileLoads();
    expect(profiles.listening('cursor')).toBe(false);
    const first = profiles.listen('cursor');
    const second = profiles.listen('cursor');
    first();
    first();
    expect(profiles.listening('cursor')).toBe(true);
    expect(profiles.listening('vscode')).toBe(false);
    second();
    expect(profiles.listening('cursor')).toBe(false);
  });

  it('tells its listeners which profile changed until they unsubscribe', () => {
    const profiles = new ProfileLoads();
    const seen: string[] = [];
    const off = profiles.onChange((client) => seen.push(client));
    profiles.changed('cursor');
    off();
    profiles.changed('vscode');
    expect(seen).toEqual(['cursor']);
  });
});
