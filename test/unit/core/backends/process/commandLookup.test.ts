/** Missing commands said plainly, found the way spawning finds them. */
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  commandNotFound,
  describeSpawnFailure,
  findCommand,
  searchPath,
} from '../../../../../electron/core/backends/process/commandLookup.js';
import { tempDir } from '../../../../helpers/basics.js';

describe('command lookup', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let bin: string;
  beforeEach(async () => {
    dir = await tempDir();
    bin = join(dir.path, 'bin');
    await mkdir(bin);
    await writeFile(join(bin, 'tool'), '#!/bin/sh\n');
    await chmod(join(bin, 'tool'), 0o755);
    await writeFile(join(bin, 'plain'), 'not executable');
  });
  afterEach(() => dir.cleanup());

  it('finds an executable on PATH, not a plain file, and a path relative to cwd', () => {
    const path = ['/nonexistent', bin].join(delimiter);
    expect(findCommand('tool', path)).toBe(join(bin, 'tool'));
    expect(findCommand('plain', path)).toBeUndefined();
    expect(findCommand('./bin/tool', '', { cwd: dir.path })).toBe(join(bin, 'tool'));
    expect(searchPath({ PATH: '/a' }, { PATH: '/b' })).toBe('/b');
    expect(searchPath({ PATH: '/a' }, {})).toBe('/a');
  });

  it('turns spawn ENOENT into a sentence naming the command and the PATH searched', () => {
    const error = Object.assign(new Error('spawn uvx ENOENT'), { code: 'ENOENT', syscall: 'spawn uvx' });
    expect(describeSpawnFailure(error, { command: 'uvx' }, { PATH: `/usr/bin${delimiter}/bin` })).toBe(
      `command \`uvx\` was not found on PATH (PATH searched: /usr/bin${delimiter}/bin)`,
    );
    expect(describeSpawnFailure(error, { command: 'uvx', cwd: join(dir.path, 'gone') }, {})).toBe(
      `working directory \`${join(dir.path, 'gone')}\` does not exist`,
    );
    expect(describeSpawnFailure(new Error('other'), { command: 'uvx' }, {})).toBeUndefined();
    expect(commandNotFound('/opt/x/server', '')).toBe(
      'command `/opt/x/server` was not found (no executable file at that path)',
    );
  });
});
