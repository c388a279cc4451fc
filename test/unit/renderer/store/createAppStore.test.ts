// @vitest-environment jsdom
/**
 * The store: core events invalidate slices, which re-fetch (coalesced);
 * errors from calls are kept as data; a reconnect re-fetches everything.
 */
import { describe, expect, it } from 'vitest';
import type { BackendView } from '../../../../shared/model/views.js';
import { createAppStore } from '../../../../renderer/src/store/createAppStore.js';
import { createFakeClient } from '../fakeClient.js';

const backend = (id: string): BackendView => ({
  health: {
    id,
    transport: 'stdio',
    status: 'up',
    settled: true,
    warnings: [],
    counts: { tools: 1, resources: 0, resourceTemplates: 0, prompts: 0 },
    probeFailures: 0,
    restarts: 0,
    outstandingRequests: 0,
  },
  enabled: true,
  target: 'node server.js',
  entry: { command: 'node' },
});

describe('app store', () => {
  it('fetches every slice once the client is open', async () => {
    const client = createFakeClient('open');
    client.handle('backends.list', () => [backend('alpha')]);
    const { store } = createAppStore(client, { coalesceMs: 5 });
    await store.getState().settled();
    expect(store.getState().backends.data?.map((b) => b.health.id)).toEqual(['alpha']);
    for (const method of [
      'app.info',
      'catalog.list',
      'policy.get',
      'approvals.list',
      'pins.list',
      'profiles.list',
    ] as const)
      expect(client.count(method), method).toBe(1);
  });

  it('coalesces a burst of events into one re-fetch of the slices they invalidate', async () => {
    const client = createFakeClient('open');
    const { store } = createAppStore(client, { coalesceMs: 20 });
    await store.getState().settled();
    const before = { backends: client.count('backends.list'), catalog: client.count('catalog.list') };
    for (let i = 0; i < 10; i++) client.emit('backendsChanged', { backendId: 'alpha' });
    client.emit('catalogChanged', {});
    await store.getState().settled();
    expect(client.count('backends.list') - before.backends).toBe(1);
    expect(client.count('catalog.list') - before.catalog).toBe(1);
    expect(client.count('sessions.list')).toBe(0); // not invalidated by these events, and shown nowhere
  });

  it('fetches once more when invalidated while a fetch is running, so nothing stale sticks', async () => {
    const client = createFakeClient('open');
    let version = 0;
    let release: () => void = () => undefined;
    client.handle('backends.list', async () => {
      const seen = ++version;
      if (seen === 2) await new Promise<void>((resolve) => (release = resolve));
      return [backend(`v${seen}`)];
    });
    const { store } = createAppStore(client, { coalesceMs: 5 });
    await store.getState().settled();
    client.emit('backendsChanged', {});
    await new Promise((resolve) => setTimeout(resolve, 30)); // fetch #2 is now blocked
    client.emit('backendsChanged', {});
    release();
    await store.getState().settled();
    expect(client.count('backends.list')).toBe(3);
    expect(store.getState().backends.data?.[0]?.health.id).toBe('v3');
  });

  it('keeps a failed fetch as data: the error is stored and the last good data kept', async () => {
    const client = createFakeClient('open');
    let fail = false;
    client.handle('backends.list', () =>
      fail ? { error: { code: 'backend_unavailable', message: 'core is busy' } } : [backend('alpha')],
    );
    const { store } = createAppStore(client, { coalesceMs: 5 });
    await store.getState().settled();
    fail = true;
    client.emit('backendsChanged', {});
    await store.getState().settled();
    const { backends } = store.getState();
    expect(backends.error).toEqual({ code: 'backend_unavailable', message: 'core is busy' });
    expect(backends.data?.[0]?.health.id).toBe('alpha');
    expect(backends.loading).toBe(false);
    fail = false;
    client.emit('backendsChanged', {});
    await store.getState().settled();
    expect(store.getState().backends.error).toBeUndefined();
  });

  it('returns action failures to the caller instead of throwing', async () => {
    const client = createFakeClient('open');
    client.handle('backends.add', () => ({ error: { code: 'connect_failed', message: 'spawn nope ENOENT' } }));
    const { store } = createAppStore(client, { coalesceMs: 5 });
    const outcome = await store.getState().addBackend('nope', { command: 'nope' });
    expect(outcome).toEqual({ ok: false, error: { code: 'connect_failed', message: 'spawn nope ENOENT' } });
  });

  it('tracks the connection and re-fetches everything after a reconnect', async () => {
    const client = createFakeClient('connecting');
    const { store } = createAppStore(client, { coalesceMs: 5 });
    store.getState().show('log');
    store.getState().show('apps');
    await store.getState().settled();
    expect(client.count('backends.list')).toBe(0); // waits for the connection
    client.setConnection('open');
    await store.getState().settled();
    expect(client.count('backends.list')).toBe(1);
    client.setConnection('reconnecting');
    expect(store.getState().connection).toBe('reconnecting');
    client.setConnection('open');
    await store.getState().settled();
    expect(store.getState().connection).toBe('open');
    for (const method of ['backends.list', 'catalog.list', 'policy.get', 'log.query', 'clients.list'] as const)
      expect(client.count(method), method).toBe(2);
  });

  it('re-fetches the policy for the chosen profile', async () => {
    const client = createFakeClient('open');
    const { store } = createAppStore(client, { coalesceMs: 5 });
    await store.getState().settled();
    store.getState().setPolicyProfile('cursor');
    await store.getState().settled();
    expect(client.calls.filter((c) => c.method === 'policy.get').at(-1)?.params).toEqual({ profile: 'cursor' });
  });

  it('fetches the log, sessions and client apps only while some panel shows them', async () => {
    const client = createFakeClient('open');
    const { store } = createAppStore(client, { coalesceMs: 5 });
    await store.getState().settled();
    const onDemand = ['log.query', 'sessions.list', 'clients.list'] as const;
    for (const method of onDemand) expect(client.count(method), method).toBe(0);
    client.emit('logAppended', {});
    client.emit('sessionsChanged', {});
    await store.getState().settled();
    for (const method of onDemand) expect(client.count(method), method).toBe(0);

    const hide = store.getState().show('log');
    await store.getState().settled();
    expect(client.count('log.query')).toBe(1); // fetched when shown
    client.emit('logAppended', {});
    await store.getState().settled();
    expect(client.count('log.query')).toBe(2); // and kept fresh while shown
    hide();
    client.emit('logAppended', {});
    await store.getState().settled();
    expect(client.count('log.query')).toBe(2);
  });

  it('leaves re-fetching after an action to the core events: one rule click, one policy.get and one catalog.list', async () => {
    const client = createFakeClient('open');
    const { store } = createAppStore(client, { coalesceMs: 5 });
    await store.getState().settled();
    const before = { policy: client.count('policy.get'), catalog: client.count('catalog.list') };
    // What the core announces for a policy change (electron/core/api/events.ts: catalogChanged fans out), ~50 ms later.
    client.handle('policy.setRule', () => {
      setTimeout(() => {
        client.emit('catalogChanged', {});
        client.emit('backendsChanged', {});
        client.emit('policyChanged', {});
        client.emit('pinsChanged', {});
      }, 50);
      return undefined;
    });
    await store.getState().setRule('everything', 'tools', 'echo', 'deny');
    await new Promise((resolve) => setTimeout(resolve, 80));
    await store.getState().settled();
    expect(client.count('policy.get') - before.policy).toBe(1);
    expect(client.count('catalog.list') - before.catalog).toBe(1);

    for (const action of [
      () => store.getState().setBackendPolicy({ backendId: 'everything', pinning: true }),
      () => store.getState().runBackendAction('everything', 'restart'),
      () => store.getState().addBackend('x', { command: 'node' }),
      () => store.getState().resolveApproval('a', 'once'),
      () => store.getState().approvePin('everything', 'echo'),
      () => store.getState().createToken('laptop', 'Laptop'),
      () => store.getState().revokeProfile('laptop'),
    ]) {
      const count = client.calls.length;
      await action();
      await store.getState().settled();
      expect(client.calls.length - count, 'no re-fetch without an event').toBe(1);
    }
  });

  it('drops a policy answered for a profile that is no longer selected', async () => {
    const client = createFakeClient('open');
    let releaseOld: () => void = () => undefined;
    client.handle('profiles.list', () => [{ id: 'cursor', name: 'Cursor', hasToken: true }]);
    client.handle('policy.get', async ({ profile = '*' }) => {
      if (profile === '*' && client.count('policy.get') > 1) await new Promise<void>((r) => (releaseOld = r));
      return { profile, backends: [], items: [] };
    });
    const { store } = createAppStore(client, { coalesceMs: 5 });
    await store.getState().settled();
    const mixed: string[] = [];
    store.subscribe((state) => {
      const shown = state.policy.data?.profile;
      if (shown !== undefined && shown !== state.policyProfile) mixed.push(`${shown} under ${state.policyProfile}`);
    });
    store.getState().invalidate('policy'); // a fetch for '*' that will answer late
    await new Promise((resolve) => setTimeout(resolve, 30));
    store.getState().setPolicyProfile('cursor');
    releaseOld();
    await store.getState().settled();
    expect(store.getState().policy.data?.profile).toBe('cursor');
    expect(mixed).toEqual([]);
  });

  it("goes back to everyone's rules when the selected profile disappears", async () => {
    const client = createFakeClient('open');
    let profiles = [{ id: 'cursor', name: 'Cursor', hasToken: true }];
    client.handle('profiles.list', () => profiles);
    const { store } = createAppStore(client, { coalesceMs: 5 });
    await store.getState().settled();
    store.getState().setPolicyProfile('cursor');
    await store.getState().settled();
    client.emit('policyChanged', {}); // still there: kept
    await store.getState().settled();
    expect(store.getState().policyProfile).toBe('cursor');
    profiles = [];
    client.emit('policyChanged', {});
    await store.getState().settled();
    expect(store.getState().policyProfile).toBe('*');
    expect(client.calls.filter((c) => c.method === 'policy.get').at(-1)?.params).toEqual({ profile: '*' });
  });
});
