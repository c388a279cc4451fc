/**
 * The UI's session store: a session names its viewer until it expires or is
 * ended, only digests are held, and the store never holds more than its bound.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { OPERATOR, UiSessions } from '../../../electron/host/uiSessions.js';
import { refusalFor } from '../../../electron/host/viewerAccess.js';

const bob = {
  admin: false,
  principal: { subject: 'bob', groups: ['team-b'], scopes: [], issuer: 'https://login.example.com' },
};

afterEach(() => vi.useRealTimers());

describe('UiSessions', () => {
  it('gives back the viewer of a live session, and nothing for an unknown one', () => {
    const sessions = new UiSessions();
    const id = sessions.create(bob, 60_000);
    expect(id).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(sessions.get(id)).toBe(bob);
    expect(sessions.get(`${id}x`)).toBeUndefined();
  });

  it('ends a session at its expiry, and on sign-out', () => {
    vi.useFakeTimers();
    const sessions = new UiSessions();
    const short = sessions.create(bob, 1_000);
    const long = sessions.create(OPERATOR, 10_000);
    vi.advanceTimersByTime(1_000);
    expect(sessions.get(short)).toBeUndefined();
    expect(sessions.get(long)).toBe(OPERATOR);
    expect(sessions.end(long)).toBe(true);
    expect(sessions.get(long)).toBeUndefined();
    expect(sessions.end(long)).toBe(false);
  });

  it('holds at most maxSessions, ending the oldest first', () => {
    const sessions = new UiSessions(3);
    const ids = Array.from({ length: 5 }, () => sessions.create(bob, 60_000));
    expect(sessions.size).toBe(3);
    expect(ids.map((id) => sessions.get(id) !== undefined)).toEqual([false, false, true, true, true]);
  });

  it('forgets expired sessions when a new one is created', () => {
    vi.useFakeTimers();
    const sessions = new UiSessions();
    for (let i = 0; i < 20; i++) sessions.create(bob, 1_000);
    vi.advanceTimersByTime(2_000);
    sessions.create(bob, 1_000);
    expect(sessions.size).toBe(1);
  });
});

describe('refusalFor', () => {
  it('lets an administrator call anything', () => {
    expect(refusalFor(OPERATOR, 'log.query')).toBeUndefined();
  });

  it('lets anyone else call only the self-service methods, refusing the rest with forbidden', () => {
    for (const method of ['me.get', 'me.calls', 'me.connections.revoke'])
      expect(refusalFor(bob, method)).toBeUndefined();
    for (const method of ['log.query', 'connections.revoke', 'backends.list', 'policy.setRule', undefined]) {
      expect(refusalFor(bob, method)).toMatchObject({
        code: 'forbidden',
        message: expect.stringContaining('administrators'),
      });
    }
  });
});
