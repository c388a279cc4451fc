import { describe, expect, it } from 'vitest';
import { ParkedCalls } from '../../../../../electron/core/frontend/relay/parkedCalls.js';
import { waitUntil } from '../../../../helpers/processes.js';

/** A call that records why it was cancelled. */
class FakeCall {
  reason: Error | undefined;
  cancel(reason: Error): void {
    this.reason = reason;
  }
}

describe('ParkedCalls', () => {
  it('hands a call back once, to a retry of the same request', () => {
    const parked = new ParkedCalls<FakeCall>(() => 60_000);
    const call = new FakeCall();
    const token = parked.park(call, 'tools/call a__x');
    expect(token).toMatch(/^sb1\.[0-9a-f-]{36}$/);
    expect(parked.take('sb1.forged', 'tools/call a__x')).toBeUndefined();
    // A token issued for another request takes nothing and is kept for its own retry.
    expect(parked.take(token, 'tools/call a__y')).toBeUndefined();
    expect(parked.size).toBe(1);
    expect(parked.take(token, 'tools/call a__x')).toBe(call);
    expect(parked.take(token, 'tools/call a__x')).toBeUndefined();
    expect(parked.size).toBe(0);
    expect(call.reason).toBeUndefined();
    parked.clear(new Error('done'));
  });

  it('issues a new token for each park', () => {
    const parked = new ParkedCalls<FakeCall>(() => 60_000);
    const call = new FakeCall();
    const first = parked.park(call, 'b');
    expect(parked.take(first, 'b')).toBe(call);
    expect(parked.park(call, 'b')).not.toBe(first);
    parked.clear(new Error('done'));
  });

  it('cancels a call not taken within the input timeout', async () => {
    const parked = new ParkedCalls<FakeCall>(() => 20);
    const call = new FakeCall();
    const token = parked.park(call, 'b');
    await waitUntil(() => call.reason !== undefined, { description: 'the park to time out' });
    expect(call.reason).toMatchObject({ code: 'input_timeout' });
    expect(parked.size).toBe(0);
    expect(parked.take(token, 'b')).toBeUndefined();
  });

  it('cancels every parked call on clear', () => {
    const parked = new ParkedCalls<FakeCall>(() => 60_000);
    const calls = [new FakeCall(), new FakeCall()];
    for (const call of calls) parked.park(call, 'b');
    const reason = new Error('shutting down');
    parked.clear(reason);
    expect(calls.map((call) => call.reason)).toEqual([reason, reason]);
    expect(parked.size).toBe(0);
  });
});
