/**
 * The re-read for unknown tokens: a flood of bad tokens reads the files only
 * at the bucket's rate, yet a change of the files (a client just installed)
 * is always re-read, and requests during a re-read share the next one.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RECHECK_BURST, UnknownTokenRecheck } from '../../../../../electron/core/catalog/policy/unknownTokenRecheck.js';
import { tempDir } from '../../../../helpers/harness.js';

describe('UnknownTokenRecheck', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let file: string;
  let reads: number;
  let recheck: UnknownTokenRecheck;

  beforeEach(async () => {
    dir = await tempDir();
    file = join(dir.path, 'client-tokens.json');
    await writeFile(file, '{"clients":{}}');
    reads = 0;
    recheck = new UnknownTokenRecheck(
      () => [file],
      async () => {
        reads++;
      },
    );
  });
  afterEach(() => dir.cleanup());

  it('bounds the re-reads a flood of unknown tokens causes, but re-reads whenever the file changed', async () => {
    const answers: boolean[] = [];
    for (let i = 0; i < 50; i++) answers.push(await recheck.run());
    // The first sees a new stamp; then the burst; then nothing more within this second.
    expect(reads).toBeLessThanOrEqual(RECHECK_BURST + 2);
    expect(answers.filter((answer) => !answer).length).toBeGreaterThanOrEqual(50 - RECHECK_BURST - 2);
    const before = reads;
    await writeFile(file, '{"clients":{"cursor":{"digest":"00","createdAt":"now"}}}');
    expect(await recheck.run()).toBe(true);
    expect(reads).toBe(before + 1);
  });

  it('lets requests that come during a re-read share the one after it', async () => {
    let release!: () => void;
    let started = 0;
    const slow = new UnknownTokenRecheck(
      () => [file],
      () => {
        started++;
        return started === 1 ? new Promise<void>((resolve) => (release = resolve)) : Promise.resolve();
      },
    );
    const first = slow.run();
    const waiting = Array.from({ length: 10 }, () => slow.run());
    release();
    expect(await Promise.all([first, ...waiting])).toEqual(Array(11).fill(true));
    expect(started).toBe(2);
  });
});
