/** `npm run serve` builds only when an output is missing or older than a source. */
import { mkdir, utimes, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs build script without types
import { OUTPUTS, SOURCES, staleness } from '../../../build/buildState.mjs';
import { tempDir } from '../../helpers/basics.js';

const stale = staleness as (root: string) => string | undefined;

describe('build staleness', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  const at = async (path: string, seconds: number) => {
    await mkdir(dirname(join(dir.path, path)), { recursive: true });
    await writeFile(join(dir.path, path), 'x');
    await utimes(join(dir.path, path), seconds, seconds);
  };
  beforeEach(async () => {
    dir = await tempDir();
    await at('electron/cli.ts', 1000);
    await at('renderer/main.tsx', 1000);
    await at('package.json', 1000);
  });
  afterEach(() => dir.cleanup());

  it('needs a build when an output is missing, none when every output is newer, one after a source edit', async () => {
    expect(SOURCES).toContain('electron');
    expect(stale(dir.path)).toBe(`${(OUTPUTS as string[])[0]} is missing`);
    for (const output of OUTPUTS as string[]) await at(output, 2000);
    expect(stale(dir.path)).toBeUndefined();
    await at('shared/model/health.ts', 3000);
    expect(stale(dir.path)).toBe('sources changed since the last build');
  });

  it('ignores node_modules inside a source folder', async () => {
    for (const output of OUTPUTS as string[]) await at(output, 2000);
    await at('build/node_modules/x.js', 3000);
    expect(stale(dir.path)).toBeUndefined();
  });
});
