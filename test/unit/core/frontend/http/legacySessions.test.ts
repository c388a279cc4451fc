import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { LegacySessions, type LegacySession } from '../../../../../electron/core/frontend/http/legacySessions.js';
import { ResponseFlow } from '../../../../../electron/core/frontend/http/responseFlow.js';

/** A session entry; transport and server are not touched by the table. */
const entry = (client: string) =>
  ({ client, flow: new ResponseFlow() }) as unknown as Omit<LegacySession, 'lastActive' | 'open'>;
const response = () => new EventEmitter() as unknown as ServerResponse;

describe('LegacySessions', () => {
  const ended: [string, string][] = [];
  let table: LegacySessions | undefined;
  afterEach(() => {
    table?.clear();
    ended.length = 0;
  });
  const make = (idleMs: number, maxPerClient: number) =>
    (table = new LegacySessions({ idleMs, maxPerClient }, (id, _session, reason) => ended.push([id, reason])));

  it('ends idle sessions only when nothing is open on them', () => {
    const sessions = make(1000, 10);
    const busy = sessions.add('busy', entry('a'));
    sessions.add('idle', entry('a'));
    const res = response();
    sessions.track(busy, res);
    sessions.sweep(Date.now() + 5000);
    expect(ended).toEqual([['idle', 'idle']]);
    (res as unknown as EventEmitter).emit('close');
    sessions.sweep(Date.now() + 500);
    expect(sessions.size).toBe(1);
    sessions.sweep(Date.now() + 5000);
    expect(ended).toContainEqual(['busy', 'idle']);
    expect(sessions.size).toBe(0);
  });

  it('caps each profile apart, ending its least recently active session', () => {
    const sessions = make(60_000, 2);
    const first = sessions.add('a1', entry('a'));
    sessions.add('a2', entry('a'));
    sessions.add('b1', entry('b'));
    first.lastActive = Date.now() + 10; // used since
    sessions.add('a3', entry('a'));
    expect(ended).toEqual([['a2', 'capped']]);
    expect([...sessions].map(([id]) => id).sort()).toEqual(['a1', 'a3', 'b1']);
  });
});
