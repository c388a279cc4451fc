import { describe, expect, it } from 'vitest';
import { CoalescingSink } from '../../../../../electron/core/frontend/relay/coalescingSink.js';

describe('CoalescingSink', () => {
  it('collapses a burst for one URI behind a slow frontend, counting what it dropped', async () => {
    const sent: string[] = [];
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const sink = new CoalescingSink(
      'slow',
      async (uri) => {
        sent.push(uri);
        await gate;
      },
      'local',
    );
    for (let i = 0; i < 1000; i++) sink.deliver('a://1');
    release();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(sent).toEqual(['a://1', 'a://1']);
    expect(sink.delivered).toBe(2);
    expect(sink.dropped).toBe(998);
  });

  it('never holds more than maxPending URIs, dropping the oldest', async () => {
    const sent: string[] = [];
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const sink = new CoalescingSink(
      'bounded',
      async (uri) => {
        sent.push(uri);
        await gate;
      },
      'local',
      3,
    );
    for (const uri of ['u0', 'u1', 'u2', 'u3', 'u4', 'u5']) sink.deliver(uri);
    release();
    await new Promise((resolve) => setTimeout(resolve, 10));
    // u0 went out at once; u1 and u2 were evicted by u4 and u5 while it was in flight.
    expect(sent).toEqual(['u0', 'u3', 'u4', 'u5']);
    expect(sink.dropped).toBe(2);
  });
});
