/**
 * The empty stand-ins bubblewrap leaves in a server's private home and temp
 * folder for its grants are cleared at the launch after a grant is revoked
 * (so the path is refused again, not read empty), by the record each launch
 * keeps; a stand-in still mounted, or one holding anything, is kept.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { settleMountPoints } from '../../../../../../electron/core/backends/process/sandbox/mountPoints.js';
import type { SandboxPolicy } from '../../../../../../electron/core/backends/process/sandbox/sandboxPolicy.js';

const root = mkdtempSync(join(tmpdir(), 'sandbox-mounts-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const home = join(root, 'b', 'home');
const tmp = join(root, 'b', 'tmp');

function policy(targets: string[]): SandboxPolicy {
  return {
    backendId: 'b',
    mounts: targets.map((target) => ({ source: target, target, mode: 'ro', optional: false })),
    links: [],
    privateHome: home,
    privateTmp: tmp,
    home: '/home/u',
    cwd: '/home/u',
    network: 'none',
  };
}

describe('stand-ins of revoked grants', () => {
  it('removes the empty ones of mounts gone, with their emptied folders, and keeps the rest', () => {
    mkdirSync(home, { recursive: true });
    mkdirSync(tmp, { recursive: true });
    settleMountPoints(
      policy(['/usr', '/home/u/.ssh/id_rsa', '/home/u/kept/notes.json', '/home/u/used/data', '/tmp/x/out']),
    );
    expect(JSON.parse(readFileSync(join(root, 'b', 'mount-points.json'), 'utf8'))).toHaveLength(4);
    // What bubblewrap made for them (and what the server wrote into one).
    mkdirSync(join(home, '.ssh'), { recursive: true });
    writeFileSync(join(home, '.ssh', 'id_rsa'), '');
    mkdirSync(join(home, 'kept'), { recursive: true });
    writeFileSync(join(home, 'kept', 'notes.json'), '');
    mkdirSync(join(home, 'used'), { recursive: true });
    writeFileSync(join(home, 'used', 'data'), 'written by the server');
    mkdirSync(join(tmp, 'x', 'out'), { recursive: true });

    settleMountPoints(policy(['/usr', '/home/u/kept/notes.json']));

    expect(existsSync(join(home, '.ssh'))).toBe(false);
    expect(existsSync(join(home, 'kept', 'notes.json'))).toBe(true);
    expect(existsSync(join(home, 'used', 'data'))).toBe(true);
    expect(existsSync(join(tmp, 'x'))).toBe(false);
    expect(existsSync(home)).toBe(true);
    expect(existsSync(tmp)).toBe(true);
  });
});
