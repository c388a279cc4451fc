/**
 * Code mode's sandbox runner on the real WebAssembly engine: a program's calls
 * reach the host with their arguments and come back as values, parallel calls
 * are bounded, the call limit stops a run, a tool error is catchable, and a
 * limit stops a run naming itself and the line.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS, runProgram } from '../../../../../../electron/core/frontend/exposure/code/sandboxRunner.js';

const NAMES = { gh: { add: 'gh__add', fail: 'gh__fail' } };
const host = async (name: string, args: Record<string, unknown> | undefined) => {
  await new Promise((resolve) => setTimeout(resolve, 5));
  if (name === 'gh__fail') throw new Error('no such repo');
  return { name, sum: Number(args?.['a'] ?? 0) + Number(args?.['b'] ?? 0) };
};

describe('sandbox runner', () => {
  it('calls the host with the arguments and returns JSON with the logs', async () => {
    const out = await runProgram(
      'const r = await tools.gh.add({ a: 2, b: 3 });\nconsole.log("sum", r.sum, { ok: true });\nreturn r;',
      NAMES,
      host,
      DEFAULT_LIMITS,
    );
    expect(out).toMatchObject({ ok: true, json: '{"name":"gh__add","sum":5}', logs: ['sum 5 {"ok":true}'], calls: 1 });
  });

  it('runs parallel calls up to the bound, and lets a program catch a tool error', async () => {
    const out = await runProgram(
      'const all = await Promise.all(Array.from({ length: 10 }, (_, i) => tools.gh.add({ a: i })));\n' +
        'try { await tools.gh.fail({}); } catch (e) { return [all.length, e.name, e.message]; }',
      NAMES,
      host,
      { ...DEFAULT_LIMITS, maxInFlight: 3 },
    );
    expect(out).toMatchObject({ ok: true, json: '[10,"ToolError","no such repo"]', calls: 11, peakInFlight: 3 });
  });

  it('stops a run past its call limit', async () => {
    const out = await runProgram('for (;;) await tools.gh.add({});', NAMES, host, { ...DEFAULT_LIMITS, maxCalls: 3 });
    expect(out).toMatchObject({ ok: false, reason: 'calls', calls: 4 });
  });

  it('names the limit and the line', async () => {
    const cpu = await runProgram('let i = 0;\nfor (;;) i++;', NAMES, host, { ...DEFAULT_LIMITS, cpuMs: 50 });
    expect(cpu).toMatchObject({ ok: false, reason: 'cpu' });
    const thrown = await runProgram('const a = 1;\nthrow new RangeError("bad " + a);', NAMES, host, DEFAULT_LIMITS);
    expect(thrown).toMatchObject({ ok: false, reason: 'error', message: 'RangeError: bad 1', line: 2 });
    const wall = await runProgram('await tools.gh.add({});\nawait new Promise(() => {});', NAMES, host, DEFAULT_LIMITS);
    expect(wall).toMatchObject({ ok: false, reason: 'error', message: expect.stringContaining('never settles') });
  });

  it('stops when cancelled', async () => {
    const controller = new AbortController();
    const slow = (_name: string, _args: unknown, signal: AbortSignal) =>
      new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(new Error('aborted'))));
    const running = runProgram('await tools.gh.add({});', NAMES, slow, DEFAULT_LIMITS, controller.signal);
    setTimeout(() => controller.abort(), 20);
    expect(await running).toMatchObject({ ok: false, reason: 'cancelled' });
  });
});
