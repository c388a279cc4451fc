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
    expect(client.count('sessions.list')).toBe(1); // not invalidated by these events
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
});
