/**
 * CI's A/B guard of the plain call (bench/abGuard.ts) fails on a build made
 * slower on purpose: this checkout's serve against itself, the change's side
 * preloaded so that every HTTP answer leaves 100 ms late (clear even on a
 * machine so loaded that a call takes 200 ms). A guard that passes
 * this would let any regression through; the passing case is CI's own run.
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../helpers/harness.js';

function guard(args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'bench/abGuard.ts', ...args], { cwd: ROOT });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out }));
  });
}

describe('the A/B guard', () => {
  it('fails when the change answers every call 100 ms later, naming the paths, twice measured', async () => {
    const { code, out } = await guard([
      '--base-root',
      ROOT,
      '--slow-change-ms',
      '30',
      '--rounds',
      '2',
      '--calls',
      '10',
    ]);
    expect(out).toContain('second measurement of the paths that regressed');
    expect(out).toMatch(/FAIL: 2025 client, http backend: p50 \d+\.\d\dx/);
    expect(out).toMatch(/FAIL: 2026 client, stdio backend/);
    expect(code).toBe(1);
  }, 300_000);
});
