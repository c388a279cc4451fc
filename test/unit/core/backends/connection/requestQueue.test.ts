import { describe, expect, it } from 'vitest';
import { RequestQueue } from '../../../../../electron/core/backends/connection/requestQueue.js';

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    });
  });

describe('RequestQueue', () => {
  it('refuses a request beyond maxQueue outstanding with queue_full', async () => {
    const queue = new RequestQueue({ backendId: 'b', maxQueue: 2, serialize: false, timeoutMs: 1000 });
    const running = [queue.run('one', () => sleep(50)), queue.run('two', () => sleep(50))];
    await expect(queue.run('three', () => sleep(1))).rejects.toMatchObject({ code: 'queue_full' });
    await Promise.all(running);
    await expect(queue.run('four', async () => 'ok')).resolves.toBe('ok');
  });

  it('times out a task that ignores its signal, freeing the slot', async () => {
    const queue = new RequestQueue({ backendId: 'b', maxQueue: 1, serialize: true, timeoutMs: 50 });
    await expect(queue.run('stuck', () => new Promise(() => {}))).rejects.toMatchObject({
      code: 'timeout',
      message: 'stuck on backend "b" timed out after 50 ms',
    });
    expect(queue.size).toBe(0);
  });

  it('runs serialized tasks one at a time in arrival order, each with its own deadline', async () => {
    const queue = new RequestQueue({ backendId: 'b', maxQueue: 10, serialize: true, timeoutMs: 80 });
    const events: string[] = [];
    const task = (name: string, ms: number) =>
      queue.run(name, async ({ signal }) => {
        events.push(`start ${name}`);
        await sleep(ms, signal);
        events.push(`end ${name}`);
      });
    const results = await Promise.allSettled([task('a', 60), task('b', 60), task('c', 200), task('d', 10)]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect(events).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'start d', 'end d']);
  });

  it('pauses the deadline while the task waits on a person', async () => {
    const queue = new RequestQueue({ backendId: 'b', maxQueue: 10, serialize: false, timeoutMs: 100 });
    const result = await queue.run('call', async ({ signal, pause }) => {
      const resume = pause();
      await sleep(250, signal); // longer than the whole deadline, but paused
      resume();
      await sleep(20, signal);
      return 'answered';
    });
    expect(result).toBe('answered');
  });

  it('resumes the countdown where it stopped, not from the start', async () => {
    const queue = new RequestQueue({ backendId: 'b', maxQueue: 10, serialize: false, timeoutMs: 100 });
    const running = queue.run('call', async ({ signal, pause }) => {
      await sleep(60, signal);
      const resume = pause();
      await sleep(150, signal);
      resume();
      // At most 40 ms were left: this outlives the deadline.
      await sleep(100, signal);
    });
    await expect(running).rejects.toMatchObject({ code: 'timeout' });
  });

  it('keeps the deadline paused until every pause has ended, and reports the time left meanwhile', async () => {
    const queue = new RequestQueue({ backendId: 'b', maxQueue: 10, serialize: false, timeoutMs: 100 });
    const result = await queue.run('call', async ({ signal, pause, remainingMs }) => {
      const first = pause();
      const second = pause();
      const left = remainingMs();
      first();
      first(); // a second call of the same resume counts once
      await sleep(200, signal); // still paused by `second`
      expect(remainingMs()).toBe(left);
      second();
      expect(remainingMs()).toBeLessThanOrEqual(left);
      return 'ok';
    });
    expect(result).toBe('ok');
  });

  it('passes a caller abort to the task', async () => {
    const queue = new RequestQueue({ backendId: 'b', maxQueue: 10, serialize: false, timeoutMs: 1000 });
    const controller = new AbortController();
    const running = queue.run('call', ({ signal }) => sleep(500, signal), controller.signal);
    controller.abort(new Error('client went away'));
    await expect(running).rejects.toThrow('client went away');
  });
});
