/**
 * The drain of a stopping replica: it waits for the requests in flight (and
 * those still arriving) to end, not for long-lived streams, closes each
 * connection after its response once draining, and never waits past its bound.
 */
import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { Drain } from '../../../../../electron/core/frontend/http/drain.js';

/** A response that closes when told (what the drain reads of one). */
function response() {
  const emitter = new EventEmitter();
  const headers: Record<string, string> = {};
  const res = Object.assign(emitter, {
    headersSent: false,
    setHeader: (name: string, value: string) => void (headers[name] = value),
  }) as unknown as ServerResponse;
  return { res, headers, close: () => emitter.emit('close') };
}

describe('Drain', () => {
  it('settles once the request in flight is answered and no other came for the quiet while', async () => {
    const drain = new Drain();
    const one = response();
    drain.track(one.res);
    setTimeout(one.close, 100);
    const outcome = await drain.settle(2000);
    expect(drain.draining).toBe(true);
    expect(outcome.unfinished).toBe(0);
    expect(outcome.ms).toBeGreaterThanOrEqual(100);
    expect(outcome.ms).toBeLessThan(1500);
  });

  it('closes the connection of a request that arrives while draining, and waits for it', async () => {
    const drain = new Drain();
    const settled = drain.settle(2000);
    const late = response();
    drain.track(late.res);
    expect(late.headers['Connection']).toBe('close');
    setTimeout(late.close, 50);
    expect((await settled).unfinished).toBe(0);
  });

  it('does not wait for a long-lived stream', async () => {
    const drain = new Drain();
    const stream = response();
    drain.track(stream.res);
    drain.untrack(stream.res);
    expect((await drain.settle(400)).unfinished).toBe(0);
  });

  it('gives up at its bound, saying how many requests were still in flight', async () => {
    const drain = new Drain();
    drain.track(response().res);
    const outcome = await drain.settle(200);
    expect(outcome.unfinished).toBe(1);
    expect(outcome.ms).toBeGreaterThanOrEqual(190);
  });
});
