/**
 * A stdio backend's stdout read for at most a few milliseconds per event-loop
 * turn. libuv reads a readable pipe up to 32 times per poll before it returns
 * to the loop, and every chunk read is split, parsed, rate-limited and relayed
 * right there: a backend flooding notifications kept serve inside one turn for
 * tens of milliseconds at a time, and the other backends' answers, already in
 * their pipes, waited behind it (a quiet server's calls took 1 to 2 s at the
 * start of a flood). Past the budget the stream is paused until the next
 * turn (setImmediate, after the poll phase has served every other ready
 * handle); what is not read stays in the pipe, so the flooding backend, not
 * serve, holds its backlog. A server that writes a little costs two clock
 * reads per chunk, no timer.
 */
import type { Readable } from 'node:stream';
import { performance } from 'node:perf_hooks';

/** How long one turn may spend on one backend's stdout, ms. */
export const READ_BUDGET_MS = 5;

/** Feeds `stream`'s chunks to `onChunk`, yielding the event loop once a turn's work on it passes `budgetMs`. */
export function readWithBudget(stream: Readable, onChunk: (chunk: Buffer) => void, budgetMs = READ_BUDGET_MS): void {
  /** Time spent on chunks read back to back (a gap over the budget, or a yield, starts anew). */
  let spent = 0;
  let lastEnd = -Infinity;
  const resume = (): void => {
    spent = 0;
    stream.resume();
  };
  stream.on('data', (chunk: Buffer) => {
    const start = performance.now();
    if (start - lastEnd > budgetMs) spent = 0;
    onChunk(chunk);
    lastEnd = performance.now();
    spent += lastEnd - start;
    if (spent < budgetMs) return;
    // Over the budget: the rest waits in the pipe until every other ready handle was served.
    stream.pause();
    setImmediate(resume);
  });
}
