/**
 * The bridge's login tokens and sessions: expired ones are swept as new ones come.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BridgeAuth } from '../../../electron/host/bridgeAuth.js';

afterEach(() => vi.useRealTimers());

describe('BridgeAuth sweeps', () => {
  it('forgets expired login tokens when another is issued', () => {
    vi.useFakeTimers();
    const auth = new BridgeAuth('main-token-0123456789', () => 1234);
    for (let i = 0; i < 50; i++) auth.issueLogin(1000);
    expect(auth.size.logins).toBe(50);
    vi.advanceTimersByTime(2000);
    auth.issueLogin(1000);
    expect(auth.size.logins).toBe(1);
  });

  it('forgets expired sessions on the next exchange', async () => {
    vi.useFakeTimers();
    const auth = new BridgeAuth('main-token-0123456789', () => 1234);
    for (let i = 0; i < 5; i++) expect(await auth.exchange(auth.issueLogin())).toBeDefined();
    expect(auth.size.sessions).toBe(5);
    vi.advanceTimersByTime(25 * 60 * 60_000);
    const login = auth.issueLogin();
    expect(await auth.exchange(login)).toBeDefined();
    expect(auth.size.sessions).toBe(1);
  });
});
