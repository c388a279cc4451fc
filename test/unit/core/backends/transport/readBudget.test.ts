// A backend's stdout read for at most a budget per event-loop turn: a stream whose chunks are
// ready all at once (a flood) yields the loop between them, so other handles (another backend's
// answer, a client's request) are served in between; a stream that writes a little never waits.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readWithBudget } from '../../../../../electron/core/backends/transport/readBudget.js';

const busy = (ms: number): void => {
  const until = performance.now() + ms;
  while (performance.now() < until);
};

describe('readWithBudget', () => {
  it('yields the event loop once a run of chunks has cost the budget', async () => {
    const stream = new PassThrough();
    const order: string[] = [];
    readWithBudget(
      stream,
      () => {
        order.push('chunk');
        busy(2);
      },
      5,
    );
    stream.pause();
    for (let i = 0; i < 12; i++) stream.write(Buffer.from(`line ${i}\n`));
    // Another handle's work, ready before the chunks are read.
    setImmediate(() => order.push('other'));
    stream.resume();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(order.filter((entry) => entry === 'chunk')).toHaveLength(12);
    // The other work ran after at most three chunks (three of 2 ms pass 5 ms), not after all twelve.
    expect(order.indexOf('other')).toBeLessThanOrEqual(3);
  });

  it('reads a quiet stream’s chunks at once, each as it comes', async () => {
    const stream = new PassThrough();
    const seen: string[] = [];
    readWithBudget(stream, (chunk) => seen.push(chunk.toString()));
    for (let i = 0; i < 5; i++) {
      stream.write(`m${i}`);
      await new Promise((resolve) => setImmediate(resolve));
      expect(seen).toHaveLength(i + 1);
      expect(stream.isPaused()).toBe(false);
    }
  });
});
