import { describe, expect, it } from 'vitest';
import {
  ParkedCalls,
  tokenReplica,
  type ParkedElsewhere,
} from '../../../../../electron/core/frontend/relay/parkedCalls.js';
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

  it('cancels a call not taken within its lifetime, and remembers that its token expired', async () => {
    const parked = new ParkedCalls<FakeCall>(() => 20);
    const call = new FakeCall();
    const token = parked.park(call, 'b');
    await waitUntil(() => call.reason !== undefined, { description: 'the park to time out' });
    expect(call.reason).toMatchObject({ code: 'input_timeout', data: { parkedCallTtlMs: 20 } });
    expect(call.reason?.message).toContain('proxy.parkedCallTtlMs');
    expect(parked.size).toBe(0);
    expect(parked.take(token, 'b')).toBeUndefined();
    expect(parked.expired(token)).toEqual({ ttlMs: 20 });
  });

  it('says nothing expired of a token it never issued, or one taken in time', () => {
    const parked = new ParkedCalls<FakeCall>(() => 60_000);
    const token = parked.park(new FakeCall(), 'b');
    expect(parked.take(token, 'b')).toBeDefined();
    expect(parked.expired(token)).toBeUndefined();
    expect(parked.expired('sb1.forged')).toBeUndefined();
  });

  it('reads the lifetime at each park, so a config change applies to the next one', async () => {
    let ttlMs = 60_000;
    const parked = new ParkedCalls<FakeCall>(() => ttlMs);
    const kept = new FakeCall();
    parked.park(kept, 'b');
    ttlMs = 10;
    const short = new FakeCall();
    parked.park(short, 'b');
    await waitUntil(() => short.reason !== undefined, { description: 'the short park to time out' });
    expect(kept.reason).toBeUndefined();
    expect(parked.size).toBe(1);
    parked.clear(new Error('done'));
  });

  it("replicas: a token names its replica; a retry of another replica's token is handed over, never taken here", () => {
    const remote: ParkedElsewhere = { resume: async () => undefined, close: () => undefined };
    const onA = new ParkedCalls<FakeCall>(() => 60_000, 'replica-a');
    const onB = new ParkedCalls<FakeCall>(() => 60_000, 'replica-b');
    const token = onA.park(new FakeCall(), 'tools/call a__x');
    expect(tokenReplica(token)).toBe('replica-a');
    // Without the cluster link, another replica's token is just unknown here.
    expect(onB.elsewhere(token)).toBeUndefined();
    onB.shareAcross(remote);
    expect(onB.elsewhere(token)).toEqual({ replica: 'replica-a', remote });
    expect(onB.take(token, 'tools/call a__x')).toBeUndefined();
    // Its own tokens, and tokens naming no replica, stay local.
    expect(onB.elsewhere(onB.park(new FakeCall(), 'b'))).toBeUndefined();
    expect(onB.elsewhere('sb1.0b8e6f7e-4a0e-4b59-9a51-6a3d36ad0a8e')).toBeUndefined();
    expect(tokenReplica('sb1.0b8e6f7e-4a0e-4b59-9a51-6a3d36ad0a8e')).toBeUndefined();
    onA.clear(new Error('done'));
    onB.clear(new Error('done'));
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
