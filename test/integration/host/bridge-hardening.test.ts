/**
 * What must not leak or pile up at the headless bridge, end to end (the real
 * core, endpoint and UI pipes built by `startHeadless`): secrets in errors
 * and events, secrets inline in a server's URL or arguments, a login link
 * spent by a HEAD, and 2026 client entries of a revoked profile.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BackendView, SessionView } from '../../../shared/model/views.js';
import { startHeadless, type Headless } from '../../../electron/host/startHeadless.js';
import { connectBridge, login, type BridgeClient } from '../../helpers/bridgeClient.js';
import { BIN } from '../../helpers/cli.js';
import { MEMORY, nodeServer } from '../../helpers/harness.js';
import { waitUntil } from '../../helpers/processes.js';

const ENV_SECRET = 'env-secret-value-hardening-4e1f';
const URL_SECRET = 'url-secret-value-hardening-77aa';
const ARG_SECRET = 'arg-secret-value-hardening-91bc';

const root = await mkdtemp(join(tmpdir(), 'sb-bridge-hardening-'));
process.env['HOME'] = root;
process.env['XDG_CONFIG_HOME'] = join(root, 'config');
process.env['XDG_STATE_HOME'] = join(root, 'state');
delete process.env['SWITCHBOARD_TOKEN'];
const configPath = join(root, 'config', 'mcp-switchboard', 'config.json');
const uiDir = join(root, 'ui');

let headless: Headless;
let origin: string;
const clients: BridgeClient[] = [];
const mcpClients: Client[] = [];

async function bridge(): Promise<BridgeClient> {
  const client = await connectBridge({ origin, token: headless.token });
  clients.push(client);
  return client;
}

/** Every frame any bridge client received, as text. */
const everything = (): string => clients.flatMap((client) => client.received).join('\n');

beforeAll(async () => {
  await mkdir(join(root, 'config', 'mcp-switchboard'), { recursive: true });
  await writeFile(
    configPath,
    JSON.stringify({
      mcpServers: {
        mem: nodeServer(MEMORY, [], { env: { API_TOKEN: ENV_SECRET, MEMORY_FILE_PATH: join(root, 'memory.jsonl') } }),
      },
    }),
  );
  await mkdir(uiDir, { recursive: true });
  await writeFile(join(uiDir, 'index.html'), '<!doctype html><title>test UI</title>');
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
  await rm(root, { recursive: true, force: true });
});

describe('secrets in errors and events', () => {
  it("keeps a known secret out of a failed add's error (the server's stderr in its data)", async () => {
    const client = await bridge();
    const script = `console.error("cannot start: API_TOKEN=${ENV_SECRET} refused"); process.exit(3)`;
    const added = await client.call('backends.add', {
      id: 'leaky',
      entry: { command: process.execPath, args: ['-e', script] },
    });
    expect(added.ok).toBe(false);
    const text = JSON.stringify(added);
    expect(text).toContain('[redacted]');
    expect(text).not.toContain(ENV_SECRET);
  });

  it('keeps a known secret out of event payloads (a config error quoting a value)', async () => {
    const client = await bridge();
    const changed = new Promise<unknown>((resolve) => client.on('configChanged', resolve));
    headless.core.events.emit('configError', { message: `mem.env.API_TOKEN: "${ENV_SECRET}" is refused` });
    expect(await changed).toEqual({ error: 'mem.env.API_TOKEN: "[redacted]" is refused' });
    expect(everything()).not.toContain(ENV_SECRET);
  });
});

describe('secrets inline in a URL or the arguments', () => {
  it('are masked in the view and redacted from every answer and the audit log', async () => {
    const client = await bridge();
    expect(
      await client.call('backends.add', {
        id: 'inline',
        force: true,
        entry: {
          command: process.execPath,
          args: ['-e', 'setInterval(() => {}, 1000)', '--api-key', ARG_SECRET],
          enabled: false,
        },
      }),
    ).toMatchObject({ ok: true });
    expect(
      await client.call('backends.add', {
        id: 'inline-remote',
        force: true,
        entry: { url: `http://127.0.0.1:9/mcp?access_token=${URL_SECRET}`, enabled: false },
      }),
    ).toMatchObject({ ok: true });
    const list = await client.call('backends.list');
    expect(list.ok).toBe(true);
    const views = list.ok ? list.result : [];
    const local = views.find((view: BackendView) => view.health.id === 'inline');
    const remoteView = views.find((view: BackendView) => view.health.id === 'inline-remote');
    expect(local?.target).toContain('--api-key ****');
    expect(remoteView?.target).toBe('http://127.0.0.1:9/mcp?access_token=****');
    expect(remoteView?.entry['url']).toBe('http://127.0.0.1:9/mcp?access_token=****');
    // Both are in the redaction list, so they cannot reach the UI any other way either.
    expect(headless.secretValues()).toEqual(expect.arrayContaining([ARG_SECRET, URL_SECRET]));
    // An edit that sends the masked entry back keeps the real values.
    expect(await client.call('backends.update', { id: 'inline-remote', entry: remoteView!.entry })).toMatchObject({
      ok: true,
    });
    expect(headless.core.backendConfigs().find((backend) => backend.id === 'inline-remote')).toMatchObject({
      url: `http://127.0.0.1:9/mcp?access_token=${URL_SECRET}`,
    });
    await client.call('log.query', {});
    await client.call('app.info');
    expect(everything()).not.toContain(ARG_SECRET);
    expect(everything()).not.toContain(URL_SECRET);
    for (const id of ['inline', 'inline-remote'])
      expect(await client.call('backends.remove', { id })).toMatchObject({ ok: true });
  });
});

describe('the login link', () => {
  it('is not spent by a HEAD request', async () => {
    const url = headless.bridge!.loginUrl();
    const head = await fetch(url, { method: 'HEAD', redirect: 'manual' });
    expect(head.headers.get('set-cookie')).toBeNull();
    const cookie = await login(url);
    expect(cookie).toMatch(new RegExp(`^sb_ui_${headless.port}=`));
    await expect(login(url)).rejects.toMatchObject({ status: 403 });
  });
});

describe('2026 clients of a revoked profile', () => {
  it('leave the session list when the profile is revoked', async () => {
    const client = await bridge();
    const created = await client.call('profiles.createToken', { id: 'modern-tester', name: 'Modern tester' });
    expect(created.ok).toBe(true);
    const token = created.ok ? created.result.token : '';
    const mcp = new Client(
      { name: 'hardening-modern', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL(headless.url), {
        requestInit: { headers: { Authorization: `Bearer ${token}` } },
      }),
    );
    mcpClients.push(mcp);
    await mcp.listTools();
    const modernOf = async (): Promise<SessionView[]> => {
      const sessions = await client.call('sessions.list');
      return (sessions.ok ? sessions.result : []).filter(
        (session: SessionView) => session.profile === 'modern-tester' && session.era === 'modern',
      );
    };
    expect(await modernOf()).toHaveLength(1);
    expect(await client.call('profiles.revoke', { id: 'modern-tester' })).toMatchObject({ ok: true });
    await waitUntil(async () => (await modernOf()).length === 0, {
      timeoutMs: 5000,
      description: "the revoked profile's 2026 entry to go",
    });
  });
});
