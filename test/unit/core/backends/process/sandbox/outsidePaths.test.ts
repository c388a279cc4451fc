/**
 * What a server's launch points at that its sandbox would hide, said before
 * the sandbox is turned on: a variable holding one path outside every grant
 * (`MEMORY_FILE_PATH`), an argument naming a path not there yet; never the
 * system's folders, what is granted, lists, URLs or the sandbox's own variables.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { outsidePaths } from '../../../../../../electron/core/backends/process/sandbox/outsidePaths.js';

const root = mkdtempSync(join(tmpdir(), 'sandbox-outside-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const home = join(root, 'home');
const none = { read: [], write: [] };

describe('paths outside the sandbox', () => {
  it('names the variable and offers a write of its path', () => {
    expect(outsidePaths({ args: [], env: { MEMORY_FILE_PATH: '/home/u/notes.json', MODE: 'x' } }, none, home)).toEqual([
      {
        source: 'env',
        name: 'MEMORY_FILE_PATH',
        path: '/home/u/notes.json',
        grant: { kind: 'write', target: '/home/u/notes.json' },
      },
    ]);
    expect(outsidePaths({ args: [], env: { DB: '~/data/db.sqlite' } }, none, home)[0]?.grant).toEqual({
      kind: 'write',
      target: '~/data/db.sqlite',
    });
  });

  it('names an argument that is not there yet (one that is, the sandbox shows read-only)', () => {
    const missing = join(root, 'later.json');
    expect(outsidePaths({ args: ['--out', missing, root], env: {} }, none, home)).toEqual([
      { source: 'arg', name: 'args[1]', path: missing, grant: { kind: 'write', target: missing } },
    ]);
  });

  it('says nothing of what is granted, the system, lists, URLs or the variables the sandbox sets', () => {
    const env = {
      MEMORY_FILE_PATH: '/home/u/notes/m.json',
      CA: '/etc/ssl/certs/ca.pem',
      LIST: '/a:/b',
      URL: 'https://example.com/x',
      HOME: '/home/u',
      TMPDIR: '/tmp/x',
      SECRET: { secret: 'S' },
    };
    expect(outsidePaths({ args: [], env }, { read: [], write: ['/home/u/notes'] }, home)).toEqual([]);
    expect(outsidePaths({ args: [], env: { DB: '~/data/db.sqlite' } }, { read: ['~/data'], write: [] }, home)).toEqual(
      [],
    );
  });
});
