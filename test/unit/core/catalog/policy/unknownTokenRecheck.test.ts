/**
 * The re-read for unknown tokens: a flood of bad tokens reads the files only
 * at the bucket's rate, yet a change of the files (a client just installed)
 * is always re-read, requests during a re-read of the same files share it,
 * and those after a change share the next one.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RECHECK_BURST, UnknownTokenRecheck } from '../../../../../electron/core/catalog/policy/unknownTokenRecheck.js';
import { tempDir } from '../../../../helpers/basics.js';

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

  it('never refuses a request while a re-read of the same files runs, even with the rate spent', async () => {
    let release: (() => void) | undefined;
    let started = 0;
    let slowNext = false;
    const slow = new UnknownTokenRecheck(
      () => [file],
      () => {
        started++;
        return slowNext ? new Promise<void>((resolve) => (release = resolve)) : Promise.resolve();
      },
    );
    // A flood of bad tokens spends the rate.
    for (let i = 0; i < RECHECK_BURST + 5; i++) await slow.run();
    expect(await slow.run()).toBe(false);
    // A client is installed; one request starts the re-read of the new files, and the new client's
    // own request comes while it runs: it waits for that re-read instead of being refused.
    await writeFile(file, '{"clients":{"zed":{"digest":"00","createdAt":"now"}}}');
    slowNext = true;
    const before = started;
    const first = slow.run();
    const waiting = Array.from({ length: 5 }, () => slow.run());
    release!();
    expect(await Promise.all([first, ...waiting])).toEqual(Array(6).fill(true));
    expect(started).toBe(before + 1);
  });

  it('gives requests that come after the files changed during a re-read the one after it', async () => {
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
    // A client installed while the first re-read runs: that re-read may have missed it.
    await writeFile(file, '{"clients":{"zed":{"digest":"00","createdAt":"now"}}}');
    const waiting = Array.from({ length: 10 }, () => slow.run());
    release();
    expect(await Promise.all([first, ...waiting])).toEqual(Array(11).fill(true));
    expect(started).toBe(2);
  });
});
