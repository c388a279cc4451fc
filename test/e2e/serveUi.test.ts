/**
 * The e2e harness itself: when `serve` fails to come up (it exits early, or
 * prints no UI URL in time), serveUi stops the child and removes its
 * throwaway directory before it throws.
 */
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { serveUi } from './serveUi.js';

/** Processes whose command line mentions `text` (Linux /proc). */
async function processesMentioning(text: string): Promise<number[]> {
  const found: number[] = [];
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const cmdline = await readFile(`/proc/${name}/cmdline`, 'utf8').catch(() => '');
    if (cmdline.includes(text)) found.push(Number(name));
  }
  return found;
}

describe.skipIf(process.platform !== 'linux')('serveUi clean-up', () => {
  it('removes the throwaway directory when serve exits before printing its URLs', async () => {
    let dir = '';
    await expect(serveUi({ mcpServers: 5 }, { prepare: async (dirs) => void (dir = dirs.dir) })).rejects.toThrow(
      /exited/,
    );
    expect(dir).not.toBe('');
    expect(existsSync(dir)).toBe(false);
  });

  it('stops serve and removes the directory when no UI URL comes in time', async () => {
    let dir = '';
    await expect(
      serveUi({ mcpServers: {} }, { timeoutMs: 50, prepare: async (dirs) => void (dir = dirs.dir) }),
    ).rejects.toThrow(/within 50 ms/);
    expect(existsSync(dir)).toBe(false);
    expect(await processesMentioning(dir)).toEqual([]);
  });
});
