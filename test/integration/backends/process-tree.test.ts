/**
 * Process listings shared by the servers stopped together (one `ps` and one
 * scan of /proc for all of them at quit), and the tree walked from a listing.
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { batched, processTree } from '../../../electron/core/backends/process/processTree.js';
import { markedProcesses } from '../../../electron/core/backends/process/processGroup.js';

describe('batched', () => {
  it('makes one reading for the callers that ask before it begins, and a new one for a caller after', async () => {
    let reads = 0;
    let release!: () => void;
    const read = batched(async () => {
      reads++;
      const n = reads;
      await new Promise<void>((resolve) => (release = resolve));
      return n;
    }, 5);
    const first = [read(), read(), read()];
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(reads).toBe(1);
    // Asked while the reading is under way: it gets a reading begun after it asked, not that one.
    const later = read();
    release();
    expect(await Promise.all(first)).toEqual([1, 1, 1]);
    await new Promise((resolve) => setTimeout(resolve, 20));
    release();
    expect(await later).toBe(2);
  });
});

describe.skipIf(process.platform === 'win32')('processTree and markedProcesses', () => {
  it('list a child and its grandchild, each caller of one batch alike, and find them by their marker', async () => {
    const marker = `unit-${process.pid}-${Date.now()}`;
    // sh starts a sleeping grandchild and waits for it.
    let trees: number[][] = [];
    const child = spawn('/bin/sh', ['-c', 'sleep 30 & wait'], {
      env: { ...process.env, SWITCHBOARD_BACKEND_INSTANCE: marker },
      stdio: 'ignore',
    });
    try {
      for (let i = 0; i < 50; i++) {
        trees = await Promise.all([processTree(child.pid!), processTree(child.pid!)]);
        if (trees[0]!.length === 2) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(trees[0]).toHaveLength(2);
      expect(trees[0]![0]).toBe(child.pid);
      expect(trees[1]).toEqual(trees[0]);
      if (process.platform === 'linux') expect((await markedProcesses(marker)).sort()).toEqual([...trees[0]!].sort());
    } finally {
      for (const pid of trees[0] ?? [child.pid!]) process.kill(pid, 'SIGKILL');
    }
    expect(await processTree(2 ** 22 + 12345)).toEqual([]);
  });
});
