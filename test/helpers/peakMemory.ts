/**
 * A process's peak memory, for tests that bound what a hostile input may cost:
 * a running process's high-water mark from /proc (Linux), and a command run
 * to completion with test/helpers/peakRss.mjs preloaded, which writes its
 * own peak when it exits.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from './basics.js';

/** Peak resident set size of live process `pid` in bytes (VmHWM), or undefined where /proc has none. */
export async function peakRssOf(pid: number): Promise<number | undefined> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const kb = /^VmHWM:\s+(\d+) kB$/m.exec(status)?.[1];
  return kb === undefined ? undefined : Number(kb) * 1024;
}

/**
 * Runs `run` with an environment that makes every Node process it starts
 * record its peak RSS; resolves with `run`'s result and the highest peak seen.
 */
export async function withPeakRss<T>(
  run: (env: Record<string, string>) => Promise<T>,
): Promise<{ result: T; peak: number }> {
  const dir = await mkdtemp(join(tmpdir(), 'sb-peak-'));
  try {
    const preload = pathToFileURL(join(ROOT, 'test/helpers/peakRss.mjs')).href;
    const result = await run({ NODE_OPTIONS: `--import ${preload}`, SB_PEAK_RSS_DIR: dir });
    const peaks = await Promise.all(
      (await readdir(dir)).map(async (name) => Number(await readFile(join(dir, name), 'utf8'))),
    );
    if (peaks.length === 0) throw new Error('no process recorded its peak memory');
    return { result, peak: Math.max(...peaks) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
