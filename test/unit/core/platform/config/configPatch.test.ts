/** Patches of config.json text: only what changed is touched, in the file's own layout. */
import { describe, expect, it } from 'vitest';
import {
  applyPathEdits,
  diffPaths,
  parseFailure,
  patchObject,
} from '../../../../../electron/core/platform/config/configPatch.js';

describe('config patches', () => {
  it('finds the smallest edits: members added, removed and changed; arrays replaced whole', () => {
    const before = { a: 1, b: { c: [1, 2], d: 'x' }, gone: true };
    const after = { a: 1, b: { c: [1, 2, 3], d: 'x', e: { f: 1 } } };
    expect(diffPaths(before, after)).toEqual([
      { path: ['gone'], value: undefined },
      { path: ['b', 'c'], value: [1, 2, 3] },
      { path: ['b', 'e'], value: { f: 1 } },
    ]);
    expect(diffPaths(before, structuredClone(before))).toEqual([]);
    const patched = structuredClone(before) as Record<string, unknown>;
    patchObject(patched, diffPaths(before, after));
    expect(patched).toEqual(after);
  });

  it("keeps every untouched byte and uses the file's indentation and line endings", () => {
    const text =
      '{\r\n    "$schema": "x",\r\n    "mcpServers": {\r\n        "one": {"command": "a"}\r\n    },\r\n    "proxy": { "maxQueue": 5 }\r\n}\r\n';
    const next = applyPathEdits(text, [{ path: ['policy', 'defaultRule'], value: 'deny' }]);
    expect(
      next.startsWith(
        '{\r\n    "$schema": "x",\r\n    "mcpServers": {\r\n        "one": {"command": "a"}\r\n    },\r\n    "proxy": { "maxQueue": 5 }',
      ),
    ).toBe(true);
    expect(next).toContain('\r\n    "policy": {\r\n        "defaultRule": "deny"\r\n    }');
    expect(JSON.parse(next)).toMatchObject({ policy: { defaultRule: 'deny' }, proxy: { maxQueue: 5 } });
    const removed = applyPathEdits(next, [{ path: ['policy'], value: undefined }]);
    expect(JSON.parse(removed)).toEqual(JSON.parse(text));
  });

  it('fills an empty object with its first member on a line of its own', () => {
    const text = '{\n  "mcpServers": {},\n  "x": [1, 2]\n}\n';
    expect(applyPathEdits(text, [{ path: ['mcpServers', 'a'], value: { command: 'n' } }])).toBe(
      '{\n  "mcpServers": {\n    "a": {\n      "command": "n"\n    }\n  },\n  "x": [1, 2]\n}\n',
    );
  });

  it('starts a missing or blank file as an object', () => {
    expect(JSON.parse(applyPathEdits(undefined, [{ path: ['mcpServers', 'a'], value: { command: 'x' } }]))).toEqual({
      mcpServers: { a: { command: 'x' } },
    });
    expect(JSON.parse(applyPathEdits('  \n', [{ path: ['version'], value: 1 }]))).toEqual({ version: 1 });
  });

  it('locates where a half-typed file stops parsing', () => {
    expect(parseFailure('{"a": 1}')).toBeUndefined();
    expect(parseFailure('{\n  "a": 1,\n  "b": \n}')).toMatchObject({ line: 4, column: 1 });
    expect(parseFailure('{\n  "a": tru\n}')).toMatchObject({ line: 2, column: 8 });
    // Strict JSON: a comment is an edit that does not parse.
    expect(parseFailure('{\n  // note\n  "a": 1\n}')).toMatchObject({ line: 2, column: 3 });
  });
});
