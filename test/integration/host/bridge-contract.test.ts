/**
 * The contract over the headless bridge, end to end (see BridgeHarness):
 * every method answers over a real WebSocket, malformed frames are errors as
 * data; then the catalog, policy, approvals, profiles, sessions and the log
 * driven from the bridge against real backends and MCP clients of both eras.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { METHOD_NAMES } from '../../../shared/contract.js';
import { BridgeHarness, ENV_SECRET, HEADER_SECRET, KEYCHAIN_SECRET, nextEvent } from '../../helpers/bridgeHarness.js';
import { waitUntil } from '../../helpers/processes.js';

const harness = await BridgeHarness.create();
beforeAll(() => harness.start());
afterAll(() => harness.stop());

describe('the contract over the bridge', () => {
  it('reaches every method; each settles as a result or an error as data', async () => {
    const client = await harness.bridge();
    const params: Record<string, unknown> = {
      'backends.check': { id: 'probe', entry: { command: '/nonexistent/command' } },
      'backends.add': { id: 'bad', entry: { command: '/nonexistent/command' } },
      'backends.parseSnippet': { text: '{"mcpServers": {}}' },
      'backends.update': { id: 'nope', entry: { command: 'x' } },
      'backends.remove': { id: 'nope' },
      'backends.setEnabled': { id: 'nope', enabled: false },
      'backends.restart': { id: 'nope' },
      'backends.refresh': { id: 'nope' },
      'backends.authorize': { id: 'mem' },
      'backends.signOut': { id: 'mem' },
      'secrets.set': { name: 'bad name!', value: 'x' },
      'catalog.callTool': { name: 'nope__tool', arguments: {} },
      'catalog.getPrompt': { name: 'nope__prompt', arguments: {} },
      'catalog.readResource': { uri: 'mcp-proxy://nope/x' },
      'policy.get': {},
      'policy.setRule': { backendId: 'mem', kind: 'prompts', original: 'x', rule: 'ask' },
      'policy.setBackend': { backendId: 'mem' },
      'policy.setRules': { rules: 'none' },
      'catalog.search': { query: 'memory' },
      'catalog.access': {},
      'approvals.resolve': { id: 'nope', decision: 'once' },
      'pins.approve': { backendId: 'mem', tool: 'nope' },
      'profiles.createToken': { id: 'bad id', name: 'x' },
      'profiles.rotateToken': { id: 'nope' },
      'profiles.revoke': { id: 'nope' },
      'profiles.setExposure': { id: 'nope', exposure: 'search' },
      'log.query': { limit: 5 },
      'clients.install': { client: 'no-such-client' },
      'clients.uninstall': { client: 'no-such-client' },
      'clients.snippet': { client: 'no-such-client' },
      'clients.importable': { client: 'no-such-client' },
      'clients.import': { client: 'no-such-client', names: [] },
      'config.restore': { index: 999 },
      'sandbox.learn': { id: 'nope' },
      'sandbox.acceptLearned': { id: 'nope', read: [], write: [], network: 'none' },
    };
    for (const method of METHOD_NAMES) {
      const outcome = await (client.call as unknown as (m: string, p?: unknown) => Promise<Record<string, unknown>>)(
        method,
        params[method],
      );
      expect(typeof outcome['ok'], method).toBe('boolean');
      if (outcome['ok'] === false) {
        const error = outcome['error'] as { code: unknown; message: unknown };
        expect(typeof error.code, method).toBe('string');
        expect(typeof error.message, method).toBe('string');
        expect(error.code, method).not.toBe('unknown_method');
      }
    }
    expect(await client.call('backends.remove', { id: 'nope' })).toMatchObject({
      ok: false,
      error: { code: 'unknown_backend' },
    });
    expect(await client.call('clients.snippet', { client: 'no-such-client' })).toMatchObject({
      ok: false,
      error: { code: 'unknown_client' },
    });
    for (const method of ['sandbox.learn', 'sandbox.acceptLearned'] as const)
      expect(await client.call(method, params[method] as never), method).toMatchObject({
        ok: false,
        error: { code: 'unknown_backend' },
      });
  });

  it('shows a client snippet with a placeholder, creating no profile or token', async () => {
    const client = await harness.bridge();
    const snippet = await client.call('clients.snippet', { client: 'cursor' });
    expect(snippet).toMatchObject({ ok: true });
    const text = (snippet as { result: { text: string } }).result.text;
    expect(text).toContain('/mcp');
    expect(text).toContain('<token: create one under Clients → Client profiles and tokens>');
    const profiles = await client.call('profiles.list');
    expect((profiles as { result: { id: string }[] }).result.map((p) => p.id)).not.toContain('cursor');
  });

  it('answers unknown methods and malformed frames with errors as data', async () => {
    const client = await harness.bridge();
    expect(await client.raw({ id: 1, method: 'backends.explode' }, 1)).toMatchObject({
      id: 1,
      ok: false,
      error: { code: 'unknown_method' },
    });
    expect(await client.raw('{not json', null)).toMatchObject({ ok: false, error: { code: 'invalid_params' } });
    expect(await client.raw({ id: 2, method: 'backends.remove', params: 'x' }, 2)).toMatchObject({
      ok: false,
      error: { code: 'invalid_params' },
    });
  });
});

describe('catalog, policy, approvals, profiles, sessions and the log', () => {
  it('lists connected MCP sessions of both eras', async () => {
    const client = await harness.bridge();
    const changed = nextEvent(client, 'sessionsChanged');
    const legacy = await harness.mcpClient('legacy');
    const modern = await harness.mcpClient('modern');
    await legacy.listTools();
    await modern.listTools();
    await changed;
    const sessions = await client.call('sessions.list');
    expect(sessions.ok).toBe(true);
    if (!sessions.ok) return;
    expect(sessions.result).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          clientName: 'bridge-legacy',
          clientVersion: '4.5.6',
          era: 'legacy',
          transport: 'http',
          profile: 'local',
        }),
        expect.objectContaining({ clientName: 'bridge-modern', era: 'modern', transport: 'http' }),
      ]),
    );
  });

  it('waits for the UI to approve an ask call, then runs it; the log records it', async () => {
    const client = await harness.bridge();
    const appended = nextEvent(client, 'logAppended');
    expect(
      await client.call('policy.setRule', { backendId: 'mem', kind: 'tools', original: 'read_graph', rule: 'ask' }),
    ).toMatchObject({ ok: true });
    const policy = await client.call('policy.get', {});
    const item = policy.ok ? policy.result.items.find((entry) => entry.original === 'read_graph') : undefined;
    expect(item).toMatchObject({ rule: 'ask', source: 'item' });
    const mcp = await harness.mcpClient('legacy');
    const asked = nextEvent(client, 'approvalsChanged');
    const call = mcp.callTool({ name: item!.exposed, arguments: {} });
    await asked;
    const pending = await client.call('approvals.list');
    const approval = pending.ok ? pending.result.find((entry) => entry.tool === 'read_graph') : undefined;
    expect(approval).toMatchObject({ backend: 'mem', client: 'local' });
    expect(await client.call('approvals.resolve', { id: approval!.id, decision: 'once' })).toMatchObject({ ok: true });
    expect((await call).isError).toBeFalsy();
    await appended;
    await waitUntil(async () => {
      const log = await client.call('log.query', { backend: 'mem' });
      return log.ok && log.result.some((entry) => entry.item === 'read_graph' && entry.outcome === 'ok');
    });
    await client.call('policy.setRule', { backendId: 'mem', kind: 'tools', original: 'read_graph', rule: null });
    const after = await client.call('policy.get', {});
    expect(after.ok && after.result.items.find((entry) => entry.original === 'read_graph')?.source).toBe('default');
  });

  it('calls a tool from the UI; shows a client token once', async () => {
    const client = await harness.bridge();
    const entries = await client.call('catalog.list');
    const echo = entries.ok
      ? entries.result.find((entry) => entry.backendId === 'remote' && entry.original === 'echo')
      : undefined;
    expect(echo?.inputSchema, JSON.stringify(await client.call('backends.list'))).toBeDefined();
    const result = await client.call('catalog.callTool', { name: echo!.exposed, arguments: { text: 'hello' } });
    expect(result).toMatchObject({ ok: true, result: { isError: false, content: [{ type: 'text', text: 'hello' }] } });
    const created = await client.call('profiles.createToken', { id: 'tester', name: 'Tester' });
    expect(created.ok && created.result.token.length).toBeGreaterThan(20);
    const token = created.ok ? created.result.token : '';
    const profiles = await client.call('profiles.list');
    expect(profiles).toMatchObject({ ok: true, result: [{ id: 'tester', name: 'Tester', hasToken: true }] });
    expect(JSON.stringify(profiles)).not.toContain(token);
    // Which servers a profile sees, from the Authorization screen's per-profile switch.
    expect(
      await client.call('policy.setBackend', { backendId: 'mem', profile: 'tester', visible: false }),
    ).toMatchObject({ ok: true });
    const view = await client.call('policy.get', { profile: 'tester' });
    expect(view.ok && view.result.backends.map((b) => [b.id, b.visible])).toEqual([
      ['mem', false],
      ['remote', true],
    ]);
    const tester = new Client({ name: 'tester', version: '1' });
    await tester.connect(
      new StreamableHTTPClientTransport(new URL(harness.headless.url), {
        requestInit: { headers: { Authorization: `Bearer ${token}` } },
      }),
    );
    harness.mcpClients.push(tester);
    const names = (await tester.listTools()).tools.map((t) => t.name);
    expect(names.some((name) => name.startsWith('remote__'))).toBe(true);
    expect(names.some((name) => name.startsWith('mem__'))).toBe(false);
    // Search mode from the Clients screen: the profile's list becomes the two meta-tools.
    expect(await client.call('profiles.setExposure', { id: 'tester', exposure: 'search' })).toMatchObject({ ok: true });
    expect((await tester.listTools()).tools.map((t) => t.name)).toEqual([
      'search_tools',
      'call_tool',
      'describe_tools',
    ]);
    const searching = await client.call('profiles.list');
    expect(searching).toMatchObject({
      ok: true,
      result: [{ id: 'tester', tools: { exposure: 'search', inForce: 'search', listed: 3, reachable: names.length } }],
    });
    expect(await client.call('profiles.setExposure', { id: 'tester', exposure: 'most' as 'all' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_params' },
    });
    expect(await client.call('profiles.setExposure', { id: 'tester', exposure: null })).toMatchObject({ ok: true });
    expect((await tester.listTools()).tools.map((t) => t.name)).toEqual(names);
    expect(
      await client.call('policy.setBackend', { backendId: 'mem', profile: 'tester', pinning: false }),
    ).toMatchObject({ ok: false, error: { code: 'invalid_params' } });
    const rotated = await client.call('profiles.rotateToken', { id: 'tester' });
    expect(rotated.ok && rotated.result.token).not.toBe(token);
    expect(await client.call('profiles.revoke', { id: 'tester' })).toMatchObject({ ok: true });
    const revoked = await client.call('profiles.list');
    expect(revoked).toMatchObject({ ok: true, result: [{ id: 'tester', hasToken: false }] });
  });
});

describe('secrets never cross', () => {
  // The full check (keychain, a tool echoing secrets) is in bridge-backends.test.ts; this one
  // covers the frames of the tests above, which run against their own bridge.
  it('keeps header, env and keychain values and the main token out of every frame above', () => {
    const everything = harness.clients.flatMap((c) => c.received).join('\n');
    expect(everything.length).toBeGreaterThan(1000);
    for (const secret of [ENV_SECRET, HEADER_SECRET, KEYCHAIN_SECRET, harness.headless.token]) {
      expect(everything.includes(secret), secret.slice(0, 12)).toBe(false);
    }
  });
});
