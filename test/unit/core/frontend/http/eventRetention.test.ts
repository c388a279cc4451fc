/**
 * The event retention behind resumable streams stays bounded whatever a
 * client does (per stream by count and bytes, in total by bytes, by age),
 * replays only what came after the client's last event, never a priming
 * event's empty body, and never another session's events.
 */
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import {
  EventRetention,
  RESUME_LIMITS,
  type RetentionLimits,
  type SessionEvents,
} from '../../../../../electron/core/frontend/http/eventRetention.js';

const note = (n: number, pad = ''): JSONRPCMessage => ({
  jsonrpc: '2.0',
  method: 'notifications/progress',
  params: { progressToken: 't', progress: n, message: pad },
});

const limits = (overrides: Partial<RetentionLimits>): RetentionLimits => ({ ...RESUME_LIMITS, ...overrides });

async function replay(store: SessionEvents, after: string) {
  const sent: [string, JSONRPCMessage][] = [];
  const stream = await store.replayEventsAfter(after, {
    send: (id, message) => Promise.resolve(void sent.push([id, message])),
  });
  return { stream, sent };
}

describe('EventRetention', () => {
  it('replays the messages after the last event id, skipping the priming event', async () => {
    const session = new EventRetention().forSession();
    const priming = await session.storeEvent('s1', {} as JSONRPCMessage);
    const first = await session.storeEvent('s1', note(1));
    await session.storeEvent('other', note(99));
    const answer: JSONRPCMessage = { jsonrpc: '2.0', id: 2, result: { content: [] } };
    const last = await session.storeEvent('s1', answer);

    const fromPriming = await replay(session, priming);
    expect(fromPriming.stream).toBe('s1');
    expect(fromPriming.sent).toEqual([
      [first, note(1)],
      [last, answer],
    ]);
    expect((await replay(session, first)).sent).toEqual([[last, answer]]);
    expect((await replay(session, last)).sent).toEqual([]);
  });

  it('never resolves another session’s event ids', async () => {
    const retention = new EventRetention();
    const mine = retention.forSession();
    const theirs = retention.forSession();
    const id = await theirs.storeEvent('s1', note(1));
    expect(mine.knows(id)).toBe(false);
    expect(await mine.getStreamIdForEventId(id)).toBeUndefined();
    await expect(replay(mine, id)).rejects.toThrow(/unknown or has expired/);
    expect(theirs.knows(id)).toBe(true);
  });

  it('keeps at most maxStreamEvents per stream, dropping the oldest', async () => {
    const retention = new EventRetention(limits({ maxStreamEvents: 10 }));
    const session = retention.forSession();
    const ids: string[] = [];
    for (let n = 0; n < 10_000; n += 1) ids.push(await session.storeEvent('flood', note(n)));
    expect(retention.size).toBe(10);
    expect(retention.dropped).toBe(9_990);
    expect(session.knows(ids[9_989]!)).toBe(false);
    const { sent } = await replay(session, ids[9_990]!);
    expect(sent.map(([, message]) => (message as unknown as { params: { progress: number } }).params.progress)).toEqual(
      [9_991, 9_992, 9_993, 9_994, 9_995, 9_996, 9_997, 9_998, 9_999],
    );
  });

  it('keeps each stream under maxStreamBytes and all sessions under maxTotalBytes', async () => {
    const big = 'x'.repeat(10_000);
    const retention = new EventRetention(limits({ maxStreamBytes: 100_000, maxTotalBytes: 250_000 }));
    const one = retention.forSession();
    for (let n = 0; n < 100; n += 1) await one.storeEvent('a', note(n, big));
    expect(retention.bytes).toBeLessThanOrEqual(100_000);
    expect(retention.size).toBeGreaterThan(0);
    const sessions = Array.from({ length: 20 }, () => retention.forSession());
    for (const session of sessions) for (let n = 0; n < 20; n += 1) await session.storeEvent('b', note(n, big));
    expect(retention.bytes).toBeLessThanOrEqual(250_000);
    // The newest events survive the total cap; the oldest (the first session's) went first.
    expect(sessions.at(-1)!.knows(await sessions.at(-1)!.storeEvent('b', note(0)))).toBe(true);
  });

  it('forgets events older than retentionMs, and a session’s events when it ends', async () => {
    let now = 0;
    const retention = new EventRetention(limits({ retentionMs: 1_000 }), () => now);
    const session = retention.forSession();
    const old = await session.storeEvent('s', note(1));
    now = 900;
    const recent = await session.storeEvent('s', note(2));
    now = 1_500;
    expect(session.knows(old)).toBe(false);
    expect(session.knows(recent)).toBe(true);
    session.dispose();
    expect(session.knows(recent)).toBe(false);
    expect(retention.size).toBe(0);
    expect(retention.bytes).toBe(0);
  });
});
