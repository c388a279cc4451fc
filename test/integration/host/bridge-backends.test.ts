/**
 * Backends managed through the headless bridge, end to end (see
 * BridgeHarness): check, add (refused and forced), remove, edit and disable,
 * pasted snippets, the events they send; and no header, env or keychain
 * value ever crosses the bridge.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BackendView } from '../../../shared/model/views.js';
import { BridgeHarness, ENV_SECRET, HEADER_SECRET, KEYCHAIN_SECRET, nextEvent } from '../../helpers/bridgeHarness.js';
import { MEMORY, fixture, nodeServer } from '../../helpers/harness.js';

const harness = await BridgeHarness.create();
beforeAll(() => harness.start());
afterAll(() => harness.stop());

describe('backends through the bridge', () => {
  it('checks a server without adding it', async () => {
    const client = await harness.bridge();
    const check = await client.call('backends.check', { id: 'probe', entry: nodeServer(MEMORY) });
    expect(check).toMatchObject({ ok: true, result: { ok: true, serverInfo: { name: 'memory-server' } } });
    expect(check.ok && check.result.counts?.tools).toBeGreaterThan(0);
    const list = await client.call('backends.list');
    expect(list.ok && list.result.map((view) => view.health.id)).toEqual(['mem', 'remote']);
  });

  it('refuses to add a broken command and saves nothing; force saves it anyway', async () => {
    const client = await harness.bridge();
    const before = await harness.savedServers();
    const refused = await client.call('backends.add', {
      id: 'broken',
      entry: nodeServer(fixture('faulty.mjs'), ['exit-at-start']),
    });
    expect(refused).toMatchObject({ ok: false, error: { code: 'connect_failed' } });
    expect(!refused.ok && refused.error.message).toContain('fatal: cannot start');
    const missing = await client.call('backends.add', { id: 'missing', entry: { command: '/nonexistent/command' } });
    expect(missing).toMatchObject({ ok: false });
    expect(await harness.savedServers()).toEqual(before);
    const list = await client.call('backends.list');
    expect(list.ok && list.result.map((view) => view.health.id)).toEqual(['mem', 'remote']);
    const forced = await client.call('backends.add', {
      id: 'forced',
      entry: { command: '/nonexistent/command' },
      force: true,
    });
    expect(forced).toMatchObject({ ok: true, result: { health: { id: 'forced' }, enabled: true } });
    expect((await harness.savedServers())['forced']).toEqual({ command: '/nonexistent/command' });
    expect(await client.call('backends.remove', { id: 'forced' })).toMatchObject({ ok: true });
    expect(await harness.savedServers()).toEqual(before);
  });

  it('sends backendsChanged and catalogChanged when a backend is added and removed', async () => {
    const client = await harness.bridge();
    const added = nextEvent(client, 'backendsChanged', (p) => p.backendId === 'mem2' || p.backendId === undefined);
    const catalog = nextEvent(client, 'catalogChanged');
    const result = await client.call('backends.add', {
      id: 'mem2',
      entry: nodeServer(fixture('faulty.mjs'), ['garbage']),
    });
    expect(result).toMatchObject({ ok: true, result: { health: { id: 'mem2', status: 'up' } } });
    await Promise.all([added, catalog]);
    expect((await harness.savedServers())['mem2']).toBeDefined();
    const listed = await client.call('catalog.list');
    expect(listed.ok && listed.result.some((entry) => entry.backendId === 'mem2')).toBe(true);
    const removed = nextEvent(client, 'backendsChanged');
    const catalogAgain = nextEvent(client, 'catalogChanged');
    expect(await client.call('backends.remove', { id: 'mem2' })).toMatchObject({ ok: true });
    await Promise.all([removed, catalogAgain]);
    expect((await harness.savedServers())['mem2']).toBeUndefined();
  });

  it('coalesces a burst of changes into one event of each kind', async () => {
    const client = await harness.bridge();
    let count = 0;
    const stop = client.on('catalogChanged', () => count++);
    for (let i = 0; i < 20; i++)
      harness.headless.core.events.emit('catalogChanged', { tools: true, prompts: false, resources: false });
    await new Promise((resolve) => setTimeout(resolve, 300));
    stop();
    expect(count).toBe(1);
  });

  it('reads a pasted snippet, moving secret-looking values to the keychain (or asking where, without one)', async () => {
    const client = await harness.bridge();
    const token = `ghp_${'x'.repeat(30)}`;
    const parsed = await client.call('backends.parseSnippet', {
      text: `{ "mcpServers": { "my server": { "command": "npx", "args": ["-y", "srv"],
        "env": { "GITHUB_TOKEN": "${token}", "LEVEL": "debug" } },
        "vs": { "command": "x", "env": { "K": "\${input:key}" } } } }`,
    });
    const store = harness.headless.core.secrets;
    if (!(store && (await store.status()).available)) {
      // No keychain: covered in snippet-secret-choice.test.ts; here only that it asks.
      expect(parsed).toMatchObject({ ok: false, error: { data: { field: 'secretStorage' } } });
      return;
    }
    if (!parsed.ok) throw new Error(parsed.error.message);
    const [server] = parsed.result.servers;
    expect(server).toMatchObject({
      id: 'my-server',
      entry: { env: { GITHUB_TOKEN: { secret: 'my-server.GITHUB_TOKEN' } } },
      secrets: [{ field: 'env.GITHUB_TOKEN', reference: 'keychain:my-server.GITHUB_TOKEN', place: 'keychain' }],
    });
    expect(await store.get('my-server.GITHUB_TOKEN')).toBe(token);
    await store.delete('my-server.GITHUB_TOKEN');
    expect(JSON.stringify(server)).not.toContain('ghp_');
    expect((server?.entry['env'] as Record<string, unknown>)['LEVEL']).toBe('debug');
    expect(parsed.result.problems.join('\n')).toContain('vs:');
  });

  it('edits and disables a backend, keeping hidden values it does not set', async () => {
    const client = await harness.bridge();
    const list = await client.call('backends.list');
    const mem = list.ok ? list.result.find((view) => view.health.id === 'mem') : undefined;
    expect(mem?.values?.['API_TOKEN']).toEqual({ kind: 'hidden' });
    expect((mem?.entry['env'] as Record<string, unknown>)['API_TOKEN']).toBeUndefined();
    const updated = await client.call('backends.update', { id: 'mem', entry: { ...mem!.entry, prefix: 'memory' } });
    expect(updated).toMatchObject({ ok: true, result: { entry: { prefix: 'memory' } } });
    const saved = (await harness.savedServers())['mem'] as { env: Record<string, string> };
    expect(saved.env['API_TOKEN']).toBe(ENV_SECRET);
    const disabled = await client.call('backends.setEnabled', { id: 'mem', enabled: false });
    expect(disabled).toMatchObject({ ok: true, result: { enabled: false, health: { status: 'disabled' } } });
    const enabled = await client.call('backends.setEnabled', { id: 'mem', enabled: true });
    expect(enabled).toMatchObject({ ok: true, result: { enabled: true, health: { status: 'up' } } });
    expect(await client.call('backends.update', { id: 'mem', entry: mem!.entry })).toMatchObject({ ok: true });
  });
});

describe('secrets never cross', () => {
  it('keeps header, env and keychain values out of every response', async () => {
    const client = await harness.bridge();
    const keychain = harness.headless.core.secrets
      ? await harness.headless.core.secrets.status()
      : { available: false };
    const name = `bridge-test-${process.pid}`;
    if (keychain.available) {
      expect(await client.call('secrets.set', { name, value: KEYCHAIN_SECRET })).toMatchObject({ ok: true });
      const names = await client.call('secrets.list');
      expect(names.ok && names.result).toContain(name);
    } else {
      expect(await client.call('secrets.set', { name, value: KEYCHAIN_SECRET })).toMatchObject({ ok: false });
    }
    const list = await client.call('backends.list');
    const remoteView = list.ok ? list.result.find((view: BackendView) => view.health.id === 'remote') : undefined;
    expect(remoteView?.values?.['X-Api-Key']).toEqual({ kind: 'hidden' });
    // A tool that echoes a secret back: the response is redacted.
    const entries = await client.call('catalog.list');
    const echo = entries.ok ? entries.result.find((entry) => entry.original === 'echo') : undefined;
    const echoed = await client.call('catalog.callTool', {
      name: echo!.exposed,
      arguments: { text: `x ${HEADER_SECRET} ${KEYCHAIN_SECRET}` },
    });
    expect(JSON.stringify(echoed)).toContain('[redacted]');
    for (const method of [
      'app.info',
      'backends.list',
      'catalog.list',
      'policy.get',
      'log.query',
      'sessions.list',
    ] as const) {
      await (client.call as unknown as (m: string, p?: unknown) => Promise<unknown>)(
        method,
        method === 'policy.get' || method === 'log.query' ? {} : undefined,
      );
    }
    if (keychain.available) await harness.headless.core.secrets!.delete(name);
    const everything = harness.clients.flatMap((c) => c.received).join('\n');
    expect(everything.length).toBeGreaterThan(1000);
    for (const secret of [ENV_SECRET, HEADER_SECRET, KEYCHAIN_SECRET, harness.headless.token]) {
      expect(everything.includes(secret), secret.slice(0, 12)).toBe(false);
    }
  });
});
