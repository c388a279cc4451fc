/**
 * Host-layer guards, each alone: the IPC sender check, the login/session
 * sweep, the 2026 client entries of the session registry, audit log
 * listeners, the settled bounds save, and the one secret sink choice.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { secretSinkFor } from '../../../electron/core/clients/secrets.js';
import {
  MAX_CLIENT_INFO_CHARS,
  MAX_MODERN_CLIENTS,
  SessionRegistry,
} from '../../../electron/core/frontend/sessionRegistry.js';
import { AuditLog, type AuditEntry } from '../../../electron/core/policy/auditLog.js';
import type { SecretStore } from '../../../electron/core/secrets/secretStore.js';
import { BridgeAuth } from '../../../electron/host/bridgeAuth.js';
import { senderCheck } from '../../../electron/host/preloadApi.js';
import { settledSave } from '../../../electron/host/settled.js';

afterEach(() => vi.useRealTimers());

describe('senderCheck', () => {
  const index = '/opt/app/resources/app.asar/dist/renderer/index.html';
  const page = pathToFileURL(index).href;

  it('accepts exactly the built index.html, whatever its query or fragment', () => {
    const allowed = senderCheck(page);
    expect(allowed(page)).toBe(true);
    expect(allowed(`${page}?tab=servers#log`)).toBe(true);
  });

  it('refuses other files, look-alike paths, other schemes and nothing', () => {
    const allowed = senderCheck(page);
    for (const url of [
      undefined,
      '',
      'not a url',
      'file:///tmp/evil/dist/renderer/index.html',
      'file:///opt/app/resources/app.asar/dist/renderer/index.html.evil',
      'file:///opt/app/resources/app.asar/dist/renderer/other.html',
      'file://remote-host/opt/app/resources/app.asar/dist/renderer/index.html',
      'https://example.com/dist/renderer/index.html',
      'http://127.0.0.1:5173/',
    ]) {
      expect(allowed(url), String(url)).toBe(false);
    }
  });

  it("accepts the dev server's origin (any path), not a prefix look-alike", () => {
    const allowed = senderCheck(page, 'http://localhost:5173/');
    expect(allowed('http://localhost:5173/')).toBe(true);
    expect(allowed('http://localhost:5173/src/main.tsx?x=1')).toBe(true);
    expect(allowed('http://localhost:51730/')).toBe(false);
    expect(allowed('http://localhost:5173.evil.example/')).toBe(false);
    expect(allowed('http://127.0.0.1:5173/')).toBe(false);
    expect(allowed(page)).toBe(true);
  });
});

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

  it('forgets expired sessions on the next exchange', () => {
    vi.useFakeTimers();
    const auth = new BridgeAuth('main-token-0123456789', () => 1234);
    for (let i = 0; i < 5; i++) expect(auth.exchange(auth.issueLogin())).toBeDefined();
    expect(auth.size.sessions).toBe(5);
    vi.advanceTimersByTime(25 * 60 * 60_000);
    const login = auth.issueLogin();
    expect(auth.exchange(login)).toBeDefined();
    expect(auth.size.sessions).toBe(1);
  });
});

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

describe('AuditLog record listeners', () => {
  const entry: AuditEntry = {
    time: new Date().toISOString(),
    client: 'local',
    backend: 'b',
    kind: 'tools/call',
    item: 't',
    outcome: 'ok',
    durationMs: 1,
  };

  it('a throwing listener neither drops the queued entry nor stops the other listeners', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sb-audit-listeners-'));
    try {
      const log = new AuditLog({ dir });
      const after = vi.fn();
      log.onRecord(() => {
        throw new Error('broken listener');
      });
      log.onRecord(after);
      log.record(entry);
      log.record(entry);
      expect(after).toHaveBeenCalledTimes(2);
      expect(log.dropped).toBe(0);
      await log.flush();
      const found = await log.query();
      expect(found).toHaveLength(2);
      expect(found.some((e) => e.kind === 'audit/dropped')).toBe(false);
      await log.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('settledSave', () => {
  it('saves once after a burst of moves, and at once on close', () => {
    vi.useFakeTimers();
    const save = vi.fn();
    const saver = settledSave(save, 500);
    for (let i = 0; i < 200; i++) {
      saver.soon();
      vi.advanceTimersByTime(10);
    }
    expect(save).not.toHaveBeenCalled();
    vi.advanceTimersByTime(500);
    expect(save).toHaveBeenCalledTimes(1);
    saver.soon();
    saver.now();
    expect(save).toHaveBeenCalledTimes(2);
    vi.advanceTimersByTime(1000);
    expect(save).toHaveBeenCalledTimes(2);
  });
});

describe('secretSinkFor', () => {
  const store = (available: boolean): SecretStore =>
    ({
      status: async () => ({ available, backend: 'fake', ...(available ? {} : { reason: 'locked' }) }),
      set: vi.fn(async () => undefined),
    }) as unknown as SecretStore;
  const request = { backendId: 'gh', field: 'env' as const, name: 'GITHUB_TOKEN', value: 'ghp_value' };

  it('uses the keychain when it is available', async () => {
    const { sink, status } = await secretSinkFor(store(true), {});
    expect(status.available).toBe(true);
    expect(await sink.keep(request)).toMatchObject({ replacement: { secret: 'gh.GITHUB_TOKEN' } });
  });

  it('falls back to ${VAR} references, saying why', async () => {
    for (const keychain of [store(false), undefined]) {
      const { sink, status } = await secretSinkFor(keychain, { GITHUB_TOKEN: 'ghp_value' });
      expect(status.available).toBe(false);
      expect(status.reason).toBeTruthy();
      expect(await sink.keep(request)).toMatchObject({ replacement: '${GITHUB_TOKEN}', resolves: true });
    }
  });
});
