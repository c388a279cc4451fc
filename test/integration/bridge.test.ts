/**
 * The headless bridge end to end: the real core, endpoint and UI pipes built
 * by `startHeadless` (what `serve` runs), real backends (server-memory, our
 * HTTP fixture), and the contract over a real WebSocket. Paths are isolated:
 * HOME and the XDG directories point at a temporary folder.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { METHOD_NAMES, type CoreEventMap, type EventName } from '../../shared/contract.js';
import type { BackendView } from '../../shared/model/views.js';
import { startHeadless, type Headless } from '../../electron/host/startHeadless.js';
import { connectBridge, login, type BridgeClient } from '../helpers/bridgeClient.js';
import { BIN } from '../helpers/cli.js';
import { MEMORY, fixture, nodeServer } from '../helpers/harness.js';
import { waitUntil } from '../helpers/processes.js';
import { spawnServer, type SpawnedServer } from '../helpers/spawnServer.js';

const ENV_SECRET = 'env-secret-value-7c1d9a42';
const HEADER_SECRET = 'header-secret-value-3b5e2f91';
const KEYCHAIN_SECRET = `keychain-secret-value-${process.pid}-5a6b`;

const root = await mkdtemp(join(tmpdir(), 'sb-bridge-'));
// Every default path (config, tokens, audit log, client configs) under the temp folder.
process.env['HOME'] = root;
process.env['XDG_CONFIG_HOME'] = join(root, 'config');
process.env['XDG_STATE_HOME'] = join(root, 'state');
delete process.env['SWITCHBOARD_TOKEN'];
const configPath = join(root, 'config', 'mcp-switchboard', 'config.json');
const uiDir = join(root, 'ui');
const INDEX = '<!doctype html><title>test UI</title><script type="module" src="/assets/app.js"></script>';

let headless: Headless;
let remote: SpawnedServer;
let origin: string;
const clients: BridgeClient[] = [];
const mcpClients: Client[] = [];

async function bridge(options: { cookie?: string } = {}): Promise<BridgeClient> {
  const client = await connectBridge({
    origin,
    ...(options.cookie ? { cookie: options.cookie } : { token: headless.token }),
  });
  clients.push(client);
  return client;
}

/** Resolves with the payload of the next `event` (rejects after 10 s). */
function nextEvent<E extends EventName>(
  client: BridgeClient,
  event: E,
  match: (p: CoreEventMap[E]) => boolean = () => true,
) {
  return new Promise<CoreEventMap[E]>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${event} event`)), 10_000);
    const stop = client.on(event, (payload) => {
      if (!match(payload)) return;
      clearTimeout(timer);
      stop();
      resolve(payload);
    });
  });
}

async function mcpClient(era: 'legacy' | 'modern'): Promise<Client> {
  const client = new Client(
    { name: `bridge-${era}`, version: '4.5.6' },
    era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(headless.url), {
      requestInit: { headers: { Authorization: `Bearer ${headless.token}` } },
    }),
  );
  mcpClients.push(client);
  return client;
}

async function savedServers(): Promise<Record<string, Record<string, unknown>>> {
  return (JSON.parse(await readFile(configPath, 'utf8')) as { mcpServers: Record<string, Record<string, unknown>> })
    .mcpServers;
}

beforeAll(async () => {
  remote = await spawnServer([fixture('http-server.mjs')], /LISTENING (\S+)/, { PORT: '0' });
  await mkdir(join(root, 'config', 'mcp-switchboard'), { recursive: true });
  await writeFile(
    configPath,
    JSON.stringify({
      mcpServers: {
        mem: nodeServer(MEMORY, [], { env: { API_TOKEN: ENV_SECRET, MEMORY_FILE_PATH: join(root, 'memory.jsonl') } }),
        remote: { url: remote.match[1], headers: { 'X-Api-Key': HEADER_SECRET } },
      },
    }),
  );
  await mkdir(join(uiDir, 'assets'), { recursive: true });
  await writeFile(join(uiDir, 'index.html'), INDEX);
  await writeFile(join(uiDir, 'assets', 'app.js'), 'export {};\n');
  headless = await startHeadless({
    config: configPath,
    host: '127.0.0.1',
    port: 0,
    launcher: { command: process.execPath, args: [BIN] },
    uiDir,
  });
  await headless.core.start();
  origin = `http://127.0.0.1:${headless.port}`;
});

afterAll(async () => {
  await Promise.allSettled(clients.map((client) => client.close()));
  await Promise.allSettled(mcpClients.map((client) => client.close()));
  await headless?.stop();
  await remote?.stop();
  await rm(root, { recursive: true, force: true });
});

describe('login and the UI page', () => {
  it('exchanges the one-time login link for a session cookie once, then refuses it', async () => {
    const url = headless.bridge!.loginUrl();
    expect(url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${headless.port}/ui\\?login=[A-Za-z0-9_-]{40,}$`));
    const cookie = await login(url);
    expect(cookie).toMatch(new RegExp(`^sb_ui_${headless.port}=`));
    await expect(login(url)).rejects.toMatchObject({ status: 403 });
    const page = await fetch(`${origin}/`, { headers: { Cookie: cookie } });
    expect(page.status).toBe(200);
    expect(await page.text()).toBe(INDEX);
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain(`connect-src 'self' ws://127.0.0.1:${headless.port}`);
    expect(csp).not.toContain('unsafe-inline');
    const client = await bridge({ cookie });
    expect(await client.call('app.info')).toMatchObject({ ok: true, result: { host: 'headless' } });
  });

  it('answers 401 on / without a session, serves assets, and 503 when the UI is not built', async () => {
    expect((await fetch(`${origin}/`)).status).toBe(401);
    const asset = await fetch(`${origin}/assets/app.js`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toContain('text/javascript');
    expect((await fetch(`${origin}/assets/..%2f..%2fconfig.json`)).status).toBe(404);
    await rename(join(uiDir, 'index.html'), join(uiDir, 'index.off'));
    try {
      const missing = await fetch(`${origin}/`);
      expect(missing.status).toBe(503);
      expect(await missing.text()).toContain('npm run build');
    } finally {
      await rename(join(uiDir, 'index.off'), join(uiDir, 'index.html'));
    }
    expect((await fetch(`${origin}/healthz`)).status).toBe(200);
  });

  it('gives a fresh login link to a holder of the main token only', async () => {
    expect((await fetch(`${origin}/ui/login`, { method: 'POST' })).status).toBe(401);
    const res = await fetch(`${origin}/ui/login`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${headless.token}` },
    });
    const { url } = (await res.json()) as { url: string };
    expect(await login(url)).toMatch(/^sb_ui_/);
  });
});

describe('the WebSocket refuses', () => {
  it('a client with neither cookie nor token', async () => {
    await expect(connectBridge({ origin })).rejects.toMatchObject({ status: 401 });
  });

  it('a wrong Origin, even with the token or a session cookie', async () => {
    const cookie = await login(headless.bridge!.loginUrl());
    await expect(
      connectBridge({ origin, token: headless.token, originHeader: 'http://evil.example' }),
    ).rejects.toMatchObject({ status: 403 });
    await expect(
      connectBridge({ origin, cookie, originHeader: `http://127.0.0.1:${headless.port + 1}` }),
    ).rejects.toMatchObject({ status: 403 });
  });

  it('a session cookie without an Origin, a wrong token, and a wrong Host', async () => {
    const cookie = await login(headless.bridge!.loginUrl());
    await expect(connectBridge({ origin, cookie, originHeader: null })).rejects.toMatchObject({ status: 401 });
    await expect(connectBridge({ origin, token: 'not-the-token' })).rejects.toMatchObject({ status: 401 });
    await expect(
      connectBridge({ origin: origin.replace('127.0.0.1', 'localhost'), token: headless.token, originHeader: null }),
    ).resolves.toBeDefined();
  });
});

describe('the contract over the bridge', () => {
  it('reaches every method; each settles as a result or an error as data', async () => {
    const client = await bridge();
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
      'approvals.resolve': { id: 'nope', decision: 'once' },
      'pins.approve': { backendId: 'mem', tool: 'nope' },
      'profiles.createToken': { id: 'bad id', name: 'x' },
      'profiles.rotateToken': { id: 'nope' },
      'profiles.revoke': { id: 'nope' },
      'log.query': { limit: 5 },
      'clients.install': { client: 'no-such-client' },
      'clients.uninstall': { client: 'no-such-client' },
      'clients.snippet': { client: 'no-such-client' },
      'clients.importable': { client: 'no-such-client' },
      'clients.import': { client: 'no-such-client', names: [] },
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
  });

  it('shows a client snippet with a placeholder, creating no profile or token', async () => {
    const client = await bridge();
    const snippet = await client.call('clients.snippet', { client: 'cursor' });
    expect(snippet).toMatchObject({ ok: true });
    const text = (snippet as { result: { text: string } }).result.text;
    expect(text).toContain('/mcp');
    expect(text).toContain('<token: create one under Clients → Client profiles and tokens>');
    const profiles = await client.call('profiles.list');
    expect((profiles as { result: { id: string }[] }).result.map((p) => p.id)).not.toContain('cursor');
  });

  it('answers unknown methods and malformed frames with errors as data', async () => {
    const client = await bridge();
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

describe('backends through the bridge', () => {
  it('checks a server without adding it', async () => {
    const client = await bridge();
    const check = await client.call('backends.check', { id: 'probe', entry: nodeServer(MEMORY) });
    expect(check).toMatchObject({ ok: true, result: { ok: true, serverInfo: { name: 'memory-server' } } });
    expect(check.ok && check.result.counts?.tools).toBeGreaterThan(0);
    const list = await client.call('backends.list');
    expect(list.ok && list.result.map((view) => view.health.id)).toEqual(['mem', 'remote']);
  });

  it('refuses to add a broken command and saves nothing; force saves it anyway', async () => {
    const client = await bridge();
    const before = await savedServers();
    const refused = await client.call('backends.add', {
      id: 'broken',
      entry: nodeServer(fixture('faulty.mjs'), ['exit-at-start']),
    });
    expect(refused).toMatchObject({ ok: false, error: { code: 'connect_failed' } });
    expect(!refused.ok && refused.error.message).toContain('fatal: cannot start');
    const missing = await client.call('backends.add', { id: 'missing', entry: { command: '/nonexistent/command' } });
    expect(missing).toMatchObject({ ok: false });
    expect(await savedServers()).toEqual(before);
    const list = await client.call('backends.list');
    expect(list.ok && list.result.map((view) => view.health.id)).toEqual(['mem', 'remote']);
    const forced = await client.call('backends.add', {
      id: 'forced',
      entry: { command: '/nonexistent/command' },
      force: true,
    });
    expect(forced).toMatchObject({ ok: true, result: { health: { id: 'forced' }, enabled: true } });
    expect((await savedServers())['forced']).toEqual({ command: '/nonexistent/command' });
    expect(await client.call('backends.remove', { id: 'forced' })).toMatchObject({ ok: true });
    expect(await savedServers()).toEqual(before);
  });

  it('sends backendsChanged and catalogChanged when a backend is added and removed', async () => {
    const client = await bridge();
    const added = nextEvent(client, 'backendsChanged', (p) => p.backendId === 'mem2' || p.backendId === undefined);
    const catalog = nextEvent(client, 'catalogChanged');
    const result = await client.call('backends.add', {
      id: 'mem2',
      entry: nodeServer(fixture('faulty.mjs'), ['garbage']),
    });
    expect(result).toMatchObject({ ok: true, result: { health: { id: 'mem2', status: 'up' } } });
    await Promise.all([added, catalog]);
    expect((await savedServers())['mem2']).toBeDefined();
    const listed = await client.call('catalog.list');
    expect(listed.ok && listed.result.some((entry) => entry.backendId === 'mem2')).toBe(true);
    const removed = nextEvent(client, 'backendsChanged');
    const catalogAgain = nextEvent(client, 'catalogChanged');
    expect(await client.call('backends.remove', { id: 'mem2' })).toMatchObject({ ok: true });
    await Promise.all([removed, catalogAgain]);
    expect((await savedServers())['mem2']).toBeUndefined();
  });

  it('coalesces a burst of changes into one event of each kind', async () => {
    const client = await bridge();
    let count = 0;
    const stop = client.on('catalogChanged', () => count++);
    for (let i = 0; i < 20; i++)
      headless.core.events.emit('catalogChanged', { tools: true, prompts: false, resources: false });
    await new Promise((resolve) => setTimeout(resolve, 300));
    stop();
    expect(count).toBe(1);
  });

  it('reads a pasted snippet, moving secret-looking values out of the entry', async () => {
    const client = await bridge();
    const parsed = await client.call('backends.parseSnippet', {
      text: `{ "mcpServers": { "my server": { "command": "npx", "args": ["-y", "srv"],
        "env": { "GITHUB_TOKEN": "ghp_${'x'.repeat(30)}", "LEVEL": "debug" } },
        "vs": { "command": "x", "env": { "K": "\${input:key}" } } } }`,
    });
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    const [server] = parsed.result.servers;
    expect(server).toMatchObject({ id: 'my-server', secretFields: ['env.GITHUB_TOKEN'] });
    expect(JSON.stringify(server)).not.toContain('ghp_');
    expect((server?.entry['env'] as Record<string, unknown>)['LEVEL']).toBe('debug');
    expect(parsed.result.problems.join('\n')).toContain('vs:');
  });

  it('edits and disables a backend, keeping hidden values it does not set', async () => {
    const client = await bridge();
    const list = await client.call('backends.list');
    const mem = list.ok ? list.result.find((view) => view.health.id === 'mem') : undefined;
    expect(mem?.values?.['API_TOKEN']).toEqual({ kind: 'hidden' });
    expect((mem?.entry['env'] as Record<string, unknown>)['API_TOKEN']).toBeUndefined();
    const updated = await client.call('backends.update', { id: 'mem', entry: { ...mem!.entry, prefix: 'memory' } });
    expect(updated).toMatchObject({ ok: true, result: { entry: { prefix: 'memory' } } });
    const saved = (await savedServers())['mem'] as { env: Record<string, string> };
    expect(saved.env['API_TOKEN']).toBe(ENV_SECRET);
    const disabled = await client.call('backends.setEnabled', { id: 'mem', enabled: false });
    expect(disabled).toMatchObject({ ok: true, result: { enabled: false, health: { status: 'disabled' } } });
    const enabled = await client.call('backends.setEnabled', { id: 'mem', enabled: true });
    expect(enabled).toMatchObject({ ok: true, result: { enabled: true, health: { status: 'up' } } });
    expect(await client.call('backends.update', { id: 'mem', entry: mem!.entry })).toMatchObject({ ok: true });
  });
});

describe('catalog, policy, approvals, profiles, sessions and the log', () => {
  it('lists connected MCP sessions of both eras', async () => {
    const client = await bridge();
    const changed = nextEvent(client, 'sessionsChanged');
    const legacy = await mcpClient('legacy');
    const modern = await mcpClient('modern');
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
    const client = await bridge();
    const appended = nextEvent(client, 'logAppended');
    expect(
      await client.call('policy.setRule', { backendId: 'mem', kind: 'tools', original: 'read_graph', rule: 'ask' }),
    ).toMatchObject({ ok: true });
    const policy = await client.call('policy.get', {});
    const item = policy.ok ? policy.result.items.find((entry) => entry.original === 'read_graph') : undefined;
    expect(item).toMatchObject({ rule: 'ask', source: 'item' });
    const mcp = await mcpClient('legacy');
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
    const client = await bridge();
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
      new StreamableHTTPClientTransport(new URL(headless.url), {
        requestInit: { headers: { Authorization: `Bearer ${token}` } },
      }),
    );
    mcpClients.push(tester);
    const names = (await tester.listTools()).tools.map((t) => t.name);
    expect(names.some((name) => name.startsWith('remote__'))).toBe(true);
    expect(names.some((name) => name.startsWith('mem__'))).toBe(false);
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
  it('keeps header, env and keychain values out of every response', async () => {
    const client = await bridge();
    const keychain = headless.core.secrets ? await headless.core.secrets.status() : { available: false };
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
    if (keychain.available) await headless.core.secrets!.delete(name);
    const everything = clients.flatMap((c) => c.received).join('\n');
    expect(everything.length).toBeGreaterThan(1000);
    for (const secret of [ENV_SECRET, HEADER_SECRET, KEYCHAIN_SECRET, headless.token]) {
      expect(everything.includes(secret), secret.slice(0, 12)).toBe(false);
    }
  });
});

describe('mcp-switchboard serve', () => {
  it('prints the UI login link once; the link works once', async () => {
    const home = join(root, 'cli-home');
    const env = { HOME: home, XDG_CONFIG_HOME: join(home, 'config'), XDG_STATE_HOME: join(home, 'state') };
    const child = spawn(process.execPath, [BIN, 'serve', '--port', '0'], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let stdout = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      await waitUntil(() => /^Config: /m.test(stdout), { timeoutMs: 20_000, description: 'serve to print its banner' });
      const links = stdout.match(/^UI: (http:\/\/127\.0\.0\.1:\d+\/ui\?login=[A-Za-z0-9_-]+)$/gm) ?? [];
      expect(links).toHaveLength(1);
      const url = links[0]!.slice('UI: '.length);
      const cookie = await login(url);
      await expect(login(url)).rejects.toMatchObject({ status: 403 });
      const page = await fetch(new URL('/', url), { headers: { Cookie: cookie } });
      // 200 with the built UI; 503 (saying to build it) when dist/renderer is missing.
      expect([200, 503]).toContain(page.status);
      expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
    } finally {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    }
  });
});
