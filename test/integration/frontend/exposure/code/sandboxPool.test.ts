/**
 * Code mode's worker pool on the real engine in real worker threads: a
 * program's calls come back to this thread and their values go in, and the
 * limits this side keeps stop a program whatever it is doing: a cancel or
 * the wall time ends a program that computes without pause (which the event
 * loop could not do while the engine ran on it), with its logs so far, and
 * the next run gets a working sandbox. An integration test: each worker
 * thread loads the engine (and, from source, tsx) on its own, seconds of CPU
 * the unit tier's budget does not have.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS, runInWorker } from '../../../../../electron/core/frontend/exposure/code/sandboxPool.js';

const NAMES = { gh: { add: 'gh__add', fail: 'gh__fail' } };
const host = async (name: string, args: Record<string, unknown> | undefined) => {
  if (name === 'gh__fail') throw new Error('no such repo');
  return { name, sum: Number(args?.['a'] ?? 0) + Number(args?.['b'] ?? 0) };
};

describe('sandbox pool', () => {
  it('runs a program in a worker, its calls made on this thread', async () => {
    const seen: string[] = [];
    const out = await runInWorker(
      'const r = await tools.gh.add({ a: 2, b: 3 });\nconsole.log("sum", r.sum);\n' +
        'try { await tools.gh.fail({}); } catch (e) { return [r.sum, e.message]; }',
      NAMES,
      async (name, args) => (seen.push(name), host(name, args)),
      DEFAULT_LIMITS,
    );
    expect(out).toMatchObject({ ok: true, json: '[5,"no such repo"]', logs: ['sum 5'], calls: 2 });
    expect(seen).toEqual(['gh__add', 'gh__fail']);
  }, 30_000);

  it('ends a computing program at once when cancelled, and at its wall time, then runs the next', async () => {
    const controller = new AbortController();
    const started = performance.now();
    const cancelled = runInWorker(
      'console.log("started");\nfor (;;) {}',
      NAMES,
      host,
      DEFAULT_LIMITS,
      controller.signal,
    );
    setTimeout(() => controller.abort(), 300);
    expect(await cancelled).toMatchObject({ ok: false, reason: 'cancelled' });
    // Well before the 2 s CPU limit would have stopped it.
    expect(performance.now() - started).toBeLessThan(1_800);

    // The cancelled run's worker was ended: a fresh one takes the next run.
    expect(await runInWorker('return 1;', NAMES, host, DEFAULT_LIMITS)).toMatchObject({ ok: true, json: '1' });
    const walled = await runInWorker('console.log("started");\nfor (;;) {}', NAMES, host, {
      ...DEFAULT_LIMITS,
      cpuMs: 60_000,
      wallMs: 500,
    });
    expect(walled).toMatchObject({ ok: false, reason: 'wall', logs: ['started'] });

    expect(await runInWorker('return 1 + 1;', NAMES, host, DEFAULT_LIMITS)).toMatchObject({ ok: true, json: '2' });
  }, 30_000);
});
