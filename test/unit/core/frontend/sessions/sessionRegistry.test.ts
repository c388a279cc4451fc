/**
 * The session registry's 2026 client entries: idle ones dropped, capped, ended per profile.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  MAX_CLIENT_INFO_CHARS,
  MAX_MODERN_CLIENTS,
  SessionRegistry,
} from '../../../../../electron/core/frontend/sessions/sessionRegistry.js';

afterEach(() => vi.useRealTimers());

describe('SessionRegistry 2026 clients', () => {
  it('drops idle entries as new identities arrive, not only when listed', () => {
    vi.useFakeTimers();
    const registry = new SessionRegistry(1000);
    registry.seenModern({ profile: 'p', transport: 'http', clientName: 'old' });
    vi.advanceTimersByTime(5000);
    registry.seenModern({ profile: 'p', transport: 'http', clientName: 'new' });
    const sessions = (registry as unknown as { sessions: Map<string, unknown> }).sessions;
    expect(sessions.size).toBe(1);
  });

  it('caps the number of entries and the length of the client name and version', () => {
    const registry = new SessionRegistry();
    const long = 'x'.repeat(10_000);
    for (let i = 0; i < MAX_MODERN_CLIENTS + 50; i++) {
      registry.seenModern({ profile: 'p', transport: 'http', clientName: `${long}${i}`, clientVersion: long });
    }
    const sessions = (registry as unknown as { sessions: Map<string, unknown> }).sessions;
    expect(sessions.size).toBeLessThanOrEqual(MAX_MODERN_CLIENTS);
    for (const view of registry.list()) {
      expect(view.clientName!.length).toBeLessThanOrEqual(MAX_CLIENT_INFO_CHARS);
      expect(view.clientVersion!.length).toBeLessThanOrEqual(MAX_CLIENT_INFO_CHARS);
    }
  });

  it("ends a profile's 2026 entries (its token was revoked), keeping the others", () => {
    const registry = new SessionRegistry();
    const changes = vi.fn();
    registry.onChange(changes);
    registry.seenModern({ profile: 'revoked', transport: 'http', clientName: 'a' });
    registry.seenModern({ profile: 'revoked', transport: 'http', clientName: 'b' });
    registry.seenModern({ profile: 'kept', transport: 'http', clientName: 'a' });
    const legacy = registry.open({ profile: 'revoked', era: 'legacy', transport: 'http' });
    changes.mockClear();
    registry.closeModern('revoked');
    expect(changes).toHaveBeenCalledTimes(1);
    expect(
      registry
        .list()
        .map((view) => `${view.profile}/${view.era}`)
        .sort(),
    ).toEqual(['kept/modern', 'revoked/legacy']);
    expect(registry.list().some((view) => view.id === legacy)).toBe(true);
    // Seen again after the revocation (with a new token): a new entry.
    registry.seenModern({ profile: 'revoked', transport: 'http', clientName: 'a' });
    expect(registry.list().filter((view) => view.profile === 'revoked' && view.era === 'modern')).toHaveLength(1);
  });
});
