/**
 * Sandboxed stdio servers (backends/process/sandbox/), with real bubblewrap:
 * a hostile server that tries to read a key in the user's home, write outside
 * its folder, run a shell that does the same, and connect to a local port is
 * refused each under the default sandbox, and health names what was refused;
 * granted exactly that (a read, a write, the network), each works. A server
 * whose sandbox cannot run here is not started, and says why.
 */
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer, type Server } from 'node:net';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import {
  EVERYTHING,
  MEMORY,
  fixture,
  nodeServer,
  ROOT,
  startProxy,
  tempDir,
  type Harness,
} from '../../helpers/harness.js';
import { sandboxSupport } from '../../../electron/core/backends/index.js';
import { runCli } from '../../helpers/cli.js';

const support = await sandboxSupport();
const why = support.available ? '' : ` (skipped: ${support.reason})`;
const mustRun = process.env['CI'] === 'true';

let dir: { path: string; cleanup: () => Promise<void> };
let listener: Server;
let port: number;
/** A home with a private key in it, as the server is told its home is. */
let home: string;
let key: string;
/** A folder outside the server's own, which it may write to only once granted. */
let outside: string;

beforeAll(async () => {
  dir = await tempDir();
  home = join(dir.path, 'home');
  key = join(home, '.ssh', 'id_rsa');
  outside = join(dir.path, 'outside');
  await mkdir(join(home, '.ssh'), { recursive: true });
  await mkdir(outside, { recursive: true });
  await writeFile(key, 'PRIVATE KEY CANARY\n');
  listener = createServer((socket) => socket.end());
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  port = (listener.address() as { port: number }).port;
});
afterAll(async () => {
  listener.close();
  await dir.cleanup();
});

async function call(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<{ ok: boolean; text: string }> {
  const result = await client.callTool({ name, arguments: args });
  const content = result.content as { type: string; text?: string }[];
  return { ok: result.isError !== true, text: content.map((block) => block.text ?? '').join('') };
}

describe.skipIf(!support.available && !mustRun)(`a sandboxed server${why}`, () => {
  let proxy: Harness;
  let client: Client;
  beforeAll(async () => {
    proxy = await startProxy({
      mcpServers: {
        jailed: nodeServer(fixture('hostile.mjs'), [], { env: { HOME: home }, sandbox: true }),
        granted: nodeServer(fixture('hostile.mjs'), [], {
          env: { HOME: home },
          sandbox: { read: [join(home, '.ssh')], write: [outside], network: 'all' },
        }),
        free: nodeServer(fixture('hostile.mjs'), [], { env: { HOME: home } }),
      },
    });
    client = await proxy.connect();
  }, 60_000);
  afterAll(() => proxy.close());

  const blocked = (id: string) => proxy.core.health().find((backend) => backend.id === id)?.sandbox?.blocked ?? [];

  it('runs under bubblewrap, as health says', () => {
    const health = proxy.core.health();
    expect(health.find((backend) => backend.id === 'jailed')).toMatchObject({
      status: 'up',
      sandbox: { state: 'on', engine: 'bubblewrap', network: 'none' },
    });
    expect(health.find((backend) => backend.id === 'free')?.sandbox).toMatchObject({ state: 'off' });
  });

  it('cannot read a key in the home folder, and health names the file', async () => {
    const read = await call(client, 'jailed__read_file', { path: key });
    expect(read.ok).toBe(false);
    expect(read.text).not.toContain('CANARY');
    await expect.poll(() => blocked('jailed')).toContainEqual({ kind: 'read', target: key });
    expect(await call(client, 'free__read_file', { path: key })).toEqual({ ok: true, text: 'PRIVATE KEY CANARY\n' });
  });

  it('cannot write outside its folders, and health names the path', async () => {
    const target = join(ROOT, 'test', 'fixtures', 'servers', 'sandbox-escape.txt');
    const write = await call(client, 'jailed__write_file', { path: target, content: 'x' });
    expect(write.ok).toBe(false);
    expect(existsSync(target)).toBe(false);
    await expect.poll(() => blocked('jailed')).toContainEqual({ kind: 'write', target });
    const outsideFile = join(outside, 'jailed.txt');
    expect((await call(client, 'jailed__write_file', { path: outsideFile, content: 'x' })).ok).toBe(false);
    expect(existsSync(outsideFile)).toBe(false);
  });

  it('a shell it spawns is held by the same sandbox', async () => {
    const cat = await call(client, 'jailed__shell', { command: `cat ${key}` });
    expect(cat.ok).toBe(false);
    expect(cat.text).not.toContain('CANARY');
    const touch = await call(client, 'jailed__shell', { command: `echo x > ${join(outside, 'shell.txt')}` });
    expect(touch.ok).toBe(false);
    expect(existsSync(join(outside, 'shell.txt'))).toBe(false);
  });

  it('cannot open a connection, and health names the address', async () => {
    const opened = await call(client, 'jailed__connect', { host: '127.0.0.1', port });
    expect(opened.ok).toBe(false);
    await expect.poll(() => blocked('jailed')).toContainEqual({ kind: 'connect', target: `127.0.0.1:${port}` });
  });

  it('a server that cannot start for a refused read says so in its error', async () => {
    const health = await proxy.core.addBackend(
      'needy',
      nodeServer(fixture('hostile.mjs'), [], { env: { HOME: home, HOSTILE_READ_AT_START: key }, sandbox: true }),
      { persist: false },
    );
    expect(health.status).not.toBe('up');
    expect(health.lastError?.message).toContain('blocked by the sandbox: read of ~/.ssh/id_rsa');
    await proxy.core.removeBackend('needy', { persist: false });
  });

  it('granted a read, a write and the network, it may do exactly that', async () => {
    expect(await call(client, 'granted__read_file', { path: key })).toEqual({ ok: true, text: 'PRIVATE KEY CANARY\n' });
    const file = join(outside, 'granted.txt');
    expect((await call(client, 'granted__write_file', { path: file, content: 'ok' })).ok).toBe(true);
    expect(existsSync(file)).toBe(true);
    expect(
      (await call(client, 'granted__shell', { command: `echo x > ${join(outside, 'granted-shell.txt')}` })).ok,
    ).toBe(true);
    expect(existsSync(join(outside, 'granted-shell.txt'))).toBe(true);
    expect(await call(client, 'granted__connect', { host: '127.0.0.1', port })).toEqual({
      ok: true,
      text: `connected to 127.0.0.1:${port}`,
    });
    // What was not granted stays refused: the rest of the home.
    await writeFile(join(home, '.aws-credentials'), 'AWS CANARY');
    expect((await call(client, 'granted__read_file', { path: join(home, '.aws-credentials') })).ok).toBe(false);
    expect(blocked('granted')).toContainEqual({ kind: 'read', target: join(home, '.aws-credentials') });
  });
});

describe.skipIf(!support.available && !mustRun)(`real servers, sandboxed with the defaults${why}`, () => {
  it('server-everything and server-memory work, memory writing only where granted', async () => {
    const memoryFile = join(outside, 'memory.json');
    const proxy = await startProxy({
      mcpServers: {
        everything: nodeServer(EVERYTHING, ['stdio'], { sandbox: true }),
        memory: nodeServer(MEMORY, [], { env: { MEMORY_FILE_PATH: memoryFile }, sandbox: { write: [outside] } }),
      },
    });
    try {
      const client = await proxy.connect();
      const echo = await call(client, 'everything__echo', { message: 'in a box' });
      expect(echo).toEqual({ ok: true, text: 'Echo: in a box' });
      const created = await call(client, 'memory__create_entities', {
        entities: [{ name: 'box', entityType: 'thing', observations: ['sandboxed'] }],
      });
      expect(created.ok).toBe(true);
      expect(existsSync(memoryFile)).toBe(true);
      expect(proxy.core.health().every((backend) => backend.sandbox?.state === 'on')).toBe(true);
    } finally {
      await proxy.close();
    }
  }, 60_000);
});

describe.skipIf(!support.available && !mustRun)(`a sandboxed server with a list of hosts${why}`, () => {
  let proxy: Harness;
  let client: Client;
  let allowed: HttpServer;
  let other: HttpServer;
  const portOf = (server: HttpServer) => (server.address() as { port: number }).port;
  beforeAll(async () => {
    const serve = (body: string) =>
      new Promise<HttpServer>((resolve) => {
        const server = createHttpServer((_req, res) => res.end(body));
        server.listen(0, '127.0.0.1', () => resolve(server));
      });
    allowed = await serve('allowed here');
    other = await serve('not for you');
    proxy = await startProxy({
      mcpServers: {
        listed: nodeServer(fixture('hostile.mjs'), [], {
          env: { HOME: home },
          sandbox: { network: [`localhost:${portOf(allowed)}`, '*.example.invalid'] },
        }),
      },
    });
    client = await proxy.connect();
  }, 60_000);
  afterAll(async () => {
    await proxy.close();
    allowed.close();
    other.close();
  });
  const blocked = () => proxy.core.health().find((backend) => backend.id === 'listed')?.sandbox?.blocked ?? [];

  it('reaches a listed host by name through its proxy', async () => {
    expect(await call(client, 'listed__http_get', { url: `http://localhost:${portOf(allowed)}/` })).toEqual({
      ok: true,
      text: '200 allowed here',
    });
  });

  // Node honours the proxy variables itself from 22.21 (NODE_USE_ENV_PROXY, which the sandbox sets).
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
  const nodeProxies = major > 22 || (major === 22 && minor >= 21);
  it.skipIf(!nodeProxies)(
    `a Node server's own fetch() goes through it${nodeProxies ? '' : ` (skipped: Node ${process.versions.node} ignores HTTP_PROXY)`}`,
    async () => {
      expect(await call(client, 'listed__fetch', { url: `http://localhost:${portOf(allowed)}/` })).toEqual({
        ok: true,
        text: '200 allowed here',
      });
      expect((await call(client, 'listed__fetch', { url: `http://localhost:${portOf(other)}/` })).ok).toBe(false);
    },
  );

  it('is refused any other host or port, and health names it', async () => {
    const refused = await call(client, 'listed__http_get', { url: `http://localhost:${portOf(other)}/` });
    expect(refused.ok).toBe(false);
    expect(refused.text).not.toContain('not for you');
    await expect.poll(blocked).toContainEqual({ kind: 'connect', target: `localhost:${portOf(other)}` });
    expect((await call(client, 'listed__http_get', { url: 'http://example.invalid/' })).ok).toBe(false);
    expect(blocked()).toContainEqual({ kind: 'connect', target: 'example.invalid:80' });
  });

  it('has no other way out: a direct connection to the listed host fails', async () => {
    expect((await call(client, 'listed__connect', { host: '127.0.0.1', port: portOf(allowed) })).ok).toBe(false);
  });
});

describe('a server whose sandbox cannot run here', () => {
  it('doctor says so per server, beside one that runs sandboxed and one that does not', async () => {
    const config = join(dir.path, 'doctor.json');
    await writeFile(
      config,
      JSON.stringify({
        mcpServers: {
          nowhere: nodeServer(fixture('hostile.mjs'), [], { env: { PATH: '/nonexistent' }, sandbox: true }),
          free: nodeServer(fixture('hostile.mjs')),
          ...(support.available ? { jailed: nodeServer(fixture('hostile.mjs'), [], { sandbox: true }) } : {}),
        },
      }),
    );
    const doctor = await runCli(['doctor', '--config', config], {});
    expect(doctor.stdout).toContain('nowhere: down');
    expect(doctor.stdout).toContain('[sandbox unavailable: bubblewrap is not installed');
    expect(doctor.stdout).toMatch(/free: up \(\d+ tools\) \[not sandboxed\]/);
    if (support.available)
      expect(doctor.stdout).toMatch(/jailed: up \(\d+ tools\) \[sandboxed \(bubblewrap\), network none\]/);
    expect(doctor.code).toBe(1);
  }, 60_000);

  it('is not started, and health and its error say why', async () => {
    // No bubblewrap on this server's PATH: as on a machine without it.
    const proxy = await startProxy({
      mcpServers: {
        nowhere: nodeServer(fixture('hostile.mjs'), [], { env: { PATH: '/nonexistent' }, sandbox: true }),
      },
    });
    try {
      const health = proxy.core.health().find((backend) => backend.id === 'nowhere');
      expect(health?.status).not.toBe('up');
      expect(health?.pid).toBeUndefined();
      expect(health?.sandbox).toMatchObject({
        state: 'unavailable',
        reason: expect.stringContaining('bubblewrap is not installed'),
      });
      expect(health?.lastError).toMatchObject({ code: 'sandbox_unavailable' });
    } finally {
      await proxy.close();
    }
  });
});
