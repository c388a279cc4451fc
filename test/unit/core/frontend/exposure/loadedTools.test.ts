import { describe, expect, it } from 'vitest';
import { LoadedTools, MAX_LOADED_TOOLS } from '../../../../../electron/core/frontend/exposure/loadedTools.js';

const tools = (n: number, from = 0): string[] => Array.from({ length: n }, (_, i) => `t${i + from}`);

describe('LoadedTools', () => {
  it('loads what a search found and says whether the set changed', () => {
    const loaded = new LoadedTools();
    expect(loaded.load(['a', 'b'])).toBe(true);
    expect(loaded.load(['b', 'a'])).toBe(false);
    expect(loaded.names()).toEqual(['b', 'a']);
    expect(loaded.load(['c'])).toBe(true);
    expect(loaded.names()).toEqual(['b', 'a', 'c']);
  });

  it('keeps the best of a search larger than the cap', () => {
    const loaded = new LoadedTools(3);
    expect(loaded.load(['best', 'second', 'third', 'fourth', 'fifth'])).toBe(true);
    expect(loaded.names().sort()).toEqual(['best', 'second', 'third']);
  });

  it(`holds at most ${MAX_LOADED_TOOLS}, dropping the least recently used`, () => {
    const loaded = new LoadedTools();
    loaded.load(tools(MAX_LOADED_TOOLS));
    // The search's last result was loaded first: it is the least recently used.
    const oldest = `t${MAX_LOADED_TOOLS - 1}`;
    const next = `t${MAX_LOADED_TOOLS - 2}`;
    loaded.touch(oldest);
    expect(loaded.load(['new'])).toBe(true);
    expect(loaded.size).toBe(MAX_LOADED_TOOLS);
    expect(loaded.names()).toContain(oldest);
    expect(loaded.names()).not.toContain(next);
    expect(loaded.names()).toContain('new');
  });

  it('does not reorder the list when a tool is used again', () => {
    const loaded = new LoadedTools();
    loaded.load(['a', 'b', 'c']);
    const before = loaded.names();
    loaded.touch('a');
    loaded.load(['c']);
    loaded.touch('never-loaded');
    expect(loaded.names()).toEqual(before);
  });
});
