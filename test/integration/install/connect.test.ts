/**
 * `mcp-switchboard connect` as clients launch it: with no instance running it
 * starts a headless one and bridges to it; later connects reuse it; a stale
 * runtime file counts as none. Both eras on the stdio side (v2 default, v2
 * pinned to 2026-07-28, v1 SDK), with the same tool names as over HTTP.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport, type ClientOptions } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as V1StdioTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readRuntimeFile, type RuntimeInfo } from '../../../electron/core/install/index.js';
import { ROOT, firstText, fixture, nodeServer, tempDir } from '../../helpers/harness.js';
import { descendantPids, isAlive, waitUntil } from '../../helpers/processes.js';

const BIN = join(ROOT, 'bin/mcp-switchboard.js');

describe('mcp-switchboard connect', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let env: Record<string, string>;
  let stateDir: string;
  let configPath: string;
  const clients: { close(): Promise<void> }[] = [];

  beforeEach(async () => {
    dir = await tempDir();
    stateDir = join(dir.path, 'state', 'mcp-switchboard');
    configPath = join(dir.path, 'config.json');
    await writeFile(configPath, JSON.stringify({ mcpServers: { one: nodeServer(fixture('configurable.mjs')) } }));
    env = {
      ...(process.env as Record<string, string>),
      HOME: join(dir.path, 'home'),
      XDG_STATE_HOME: join(dir.path, 'state'),
      XDG_CONFIG_HOME: join(dir.path, 'xdg'),
      SWITCHBOARD_TOKEN: '',
    };
  });

  afterEach(async () => {
    await Promise.allSettled(clients.splice(0).map((client) => client.close()));
    // The headless instance outlives its clients by design: stop it, and check it cleans up after itself.
    const info = await readRuntimeFile(stateDir);
    if (info && isAlive(info.pid)) {
      const tree = await descendantPids(info.pid);
      process.kill(info.pid, 'SIGTERM');
      await waitUntil(() => !isAlive(info.pid) && tree.every((pid) => !isAlive(pid)), {
        timeoutMs: 10_000,
        description: 'the headless instance and its backends to exit',
      });
      await waitUntil(async () => (await readRuntimeFile(stateDir)) === undefined, {
        description: 'the runtime file to be removed on a clean exit',
      });
    }
    await dir.cleanup();
  });

  const connectArgs = () => [BIN, 'connect', '--config', configPath, '--port', '0'];

  async function connectV2(options: ClientOptions = {}): Promise<{ client: Client; stderr: () => string }> {
    const transport = new StdioClientTransport({ command: process.execPath, args: connectArgs(), env, stderr: 'pipe' });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const client = new Client({ name: 'connect-test', version: '1' }, options);
    await client.connect(transport);
    clients.push(client);
    return { client, stderr: () => stderr };
  }

  async function echo(client: Pick<Client, 'listTools' | 'callTool'>, tag: string): Promise<string> {
    await waitUntil(async () => (await client.listTools()).tools.some((tool) => tool.name === 'one__echo'), {
      timeoutMs: 15_000,
    });
    return firstText((await client.callTool({ name: 'one__echo', arguments: { tag } })) as { content?: unknown });
  }

  it('starts a headless instance when none runs, and later connects (both eras) reuse it', async () => {
    const first = await connectV2();
    expect(await echo(first.client, 'first')).toBe('echo:{"tag":"first"}');
    expect(first.stderr()).toContain('started Switchboard at');
    const info = (await readRuntimeFile(stateDir)) as RuntimeInfo;
    expect(info).toMatchObject({ url: `http://127.0.0.1:${info.port}/mcp`, config: configPath });
    expect((await stat(join(stateDir, 'runtime.json'))).mode & 0o777).toBe(0o600);

    const pinned = await connectV2({ versionNegotiation: { mode: { pin: '2026-07-28' } } });
    expect(pinned.client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    expect(await echo(pinned.client, 'pinned')).toBe('echo:{"tag":"pinned"}');
    await waitUntil(() => pinned.stderr().includes('using Switchboard at'));

    const v1 = new V1Client({ name: 'connect-v1', version: '1' });
    await v1.connect(new V1StdioTransport({ command: process.execPath, args: connectArgs(), env, stderr: 'ignore' }));
    clients.push(v1);
    expect(await echo(v1 as unknown as Client, 'v1')).toBe('echo:{"tag":"v1"}');
    expect((await readRuntimeFile(stateDir))?.pid).toBe(info.pid); // one instance, one set of backends

    // The same names as an HTTP client of that instance sees (no extra prefix).
    const token = (await readFile(join(dir.path, 'xdg', 'mcp-switchboard', 'frontend-token'), 'utf8')).trim();
    const http = new Client({ name: 'http', version: '1' });
    await http.connect(
      new StreamableHTTPClientTransport(new URL(info.url), {
        requestInit: { headers: { Authorization: `Bearer ${token}` } },
      }),
    );
    clients.push(http);
    const names = async (client: Pick<Client, 'listTools'>) =>
      (await client.listTools()).tools.map((t) => t.name).sort();
    expect(await names(first.client)).toEqual(await names(http));
    expect(await names(pinned.client)).toEqual(await names(http));
    // The background instance's log says where the token is kept, never the token.
    const log = await readFile(join(stateDir, 'serve.log'), 'utf8');
    expect(log).toContain('Bearer token: kept in');
    expect(log).not.toContain(token);
  });

  it('carries on when the instance dies: a new one is started and sessions of both eras continue', async () => {
    const legacy = await connectV2();
    const modern = await connectV2({ versionNegotiation: { mode: { pin: '2026-07-28' } } });
    expect(await echo(legacy.client, 'before')).toBe('echo:{"tag":"before"}');
    expect(await echo(modern.client, 'before')).toBe('echo:{"tag":"before"}');
    const first = (await readRuntimeFile(stateDir)) as RuntimeInfo;
    const tree = await descendantPids(first.pid);
    process.kill(first.pid, 'SIGKILL');
    for (const pid of tree) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
    await waitUntil(() => !isAlive(first.pid), { description: 'the first instance to die' });
    // The 2025 client keeps its session as far as it knows: the bridge re-initializes behind it.
    expect(await echo(legacy.client, 'after')).toBe('echo:{"tag":"after"}');
    expect(await echo(modern.client, 'after')).toBe('echo:{"tag":"after"}');
    const second = (await readRuntimeFile(stateDir)) as RuntimeInfo;
    expect(second.pid).not.toBe(first.pid);
    expect(isAlive(second.pid)).toBe(true);
    const restarts = `${legacy.stderr()}${modern.stderr()}`.match(/started Switchboard at/g) ?? [];
    expect(restarts.length).toBe(2); // the first start, and exactly one restart between the two bridges
  });

  it('two connects launched at once start one instance between them', async () => {
    const [a, b] = await Promise.all([connectV2(), connectV2()]);
    expect(await echo(a.client, 'a')).toBe('echo:{"tag":"a"}');
    expect(await echo(b.client, 'b')).toBe('echo:{"tag":"b"}');
    const started = [a.stderr(), b.stderr()].filter((text) => text.includes('started Switchboard at'));
    expect(started).toHaveLength(1);
  });

  it('treats a stale runtime file (dead pid, nothing listening) as no instance', async () => {
    const dead = spawn(process.execPath, ['-e', '']);
    await once(dead, 'exit');
    const { mkdir } = await import('node:fs/promises');
    await mkdir(stateDir, { recursive: true });
    await writeFile(
      join(stateDir, 'runtime.json'),
      JSON.stringify({ port: 1, pid: dead.pid, url: 'http://127.0.0.1:1/mcp', startedAt: '2020-01-01T00:00:00Z' }),
    );
    const { client, stderr } = await connectV2();
    expect(await echo(client, 'fresh')).toBe('echo:{"tag":"fresh"}');
    expect(stderr()).toContain('started Switchboard at');
    const info = await readRuntimeFile(stateDir);
    expect(info?.pid).not.toBe(dead.pid);
    expect(isAlive(info!.pid)).toBe(true);
  });

  it('answers with an error rather than hanging when the token is wrong', async () => {
    const first = await connectV2();
    await echo(first.client, 'warm-up');
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: connectArgs(),
      env: { ...env, SWITCHBOARD_CLIENT_TOKEN: 'wrong-token' },
      stderr: 'ignore',
    });
    const client = new Client({ name: 'wrong-token', version: '1' });
    clients.push(client);
    await expect(client.connect(transport)).rejects.toThrow(/Switchboard at .* did not answer/);
  });
});
