/**
 * The sandbox on macOS and Windows (srt), with the real engine: the check a
 * maintainer with a Mac or a Windows machine runs (docs/security.md, "The
 * manual check"). The hostile fixture's read of a key in its home, its write
 * outside its folders, its shell (macOS) and its connections are refused
 * under the default sandbox and named in health; granted exactly those, the
 * read and the write work. Learn mode learns those three from srt's
 * refusals (learnByRefusals.ts). Elsewhere (Linux runs bubblewrap:
 * sandbox.test.ts) it skips, saying why.
 */
import { createServer, type Server } from 'node:net';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { fixture, nodeServer, startProxy, tempDir, type Harness } from '../../helpers/harness.js';
import { sandboxSupport } from '../../../electron/core/backends/index.js';
import { learnByRefusals } from '../../../electron/core/backends/supervisor/learnByRefusals.js';

const support = await sandboxSupport();
const srt = support.available && support.engine === 'srt';
const why = srt
  ? ''
  : ` (skipped: ${support.available ? `this machine runs ${support.engine}; srt runs on macOS and Windows` : support.reason})`;

let dir: { path: string; cleanup: () => Promise<void> };
let listener: Server;
let port: number;
let home: string;
let key: string;
let outside: string;

async function call(client: Client, name: string, args: Record<string, unknown>) {
  const result = await client.callTool({ name, arguments: args });
  const content = result.content as { type: string; text?: string }[];
  return { ok: result.isError !== true, text: content.map((block) => block.text ?? '').join('') };
}

describe.skipIf(!srt)(`a server sandboxed by srt${why}`, () => {
  let proxy: Harness;
  let client: Client;
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
    proxy = await startProxy({
      mcpServers: {
        jailed: nodeServer(fixture('hostile.mjs'), [], { env: { HOME: home }, sandbox: true }),
        granted: nodeServer(fixture('hostile.mjs'), [], {
          env: { HOME: home },
          sandbox: { read: [join(home, '.ssh')], write: [outside], network: ['example.com'] },
        }),
      },
    });
    client = await proxy.connect();
  }, 120_000);
  afterAll(async () => {
    await proxy?.close();
    listener?.close();
    await dir?.cleanup();
  });

  const blocked = (id: string) => proxy.core.health().find((backend) => backend.id === id)?.sandbox?.blocked ?? [];

  it('runs under srt, as health says', () => {
    expect(proxy.core.health().find((backend) => backend.id === 'jailed')).toMatchObject({
      status: 'up',
      sandbox: { state: 'on', engine: 'srt', network: 'none' },
    });
  });

  it('cannot read a key in its home folder; granted, it can', async () => {
    const read = await call(client, 'jailed__read_file', { path: key });
    expect(read.ok).toBe(false);
    expect(read.text).not.toContain('CANARY');
    await expect.poll(() => blocked('jailed'), { timeout: 10_000 }).toContainEqual({ kind: 'read', target: key });
    expect(await call(client, 'granted__read_file', { path: key })).toEqual({ ok: true, text: 'PRIVATE KEY CANARY\n' });
  });

  it('cannot write outside its folders; granted a folder, it can write there', async () => {
    const target = join(outside, 'jailed.txt');
    expect((await call(client, 'jailed__write_file', { path: target, content: 'x' })).ok).toBe(false);
    expect(existsSync(target)).toBe(false);
    await expect.poll(() => blocked('jailed'), { timeout: 10_000 }).toContainEqual({ kind: 'write', target });
    expect((await call(client, 'granted__write_file', { path: join(outside, 'granted.txt'), content: 'x' })).ok).toBe(
      true,
    );
  });

  it.skipIf(process.platform === 'win32')('a shell it spawns is held by the same sandbox', async () => {
    const cat = await call(client, 'jailed__shell', { command: `cat ${key}` });
    expect(cat.ok).toBe(false);
    expect(cat.text).not.toContain('CANARY');
  });

  it('cannot connect anywhere but through srt, which refuses hosts not on its list and names them', async () => {
    expect((await call(client, 'jailed__connect', { host: '127.0.0.1', port })).ok).toBe(false);
    const fetched = await call(client, 'jailed__fetch', { url: 'http://example.org/' });
    expect(fetched.text).not.toMatch(/^200 /);
    await expect
      .poll(() => blocked('jailed'), { timeout: 10_000 })
      .toContainEqual({ kind: 'connect', target: 'example.org:80' });
  });

  it('learn mode learns the read, the write and the host from srt’s refusals, one run each', async () => {
    const result = await learnByRefusals({
      launch: {
        id: 'learned',
        command: process.execPath,
        args: [fixture('hostile.mjs')],
        cwd: undefined,
        env: { ...(process.env as Record<string, string>), HOME: home, HOSTILE_READ_AT_START: key },
      },
      stateDir: join(dir.path, 'learn-state'),
      extraPath: [],
      calls: [
        { name: 'write_file', arguments: { path: join(outside, 'learned.txt'), content: 'x' } },
        { name: 'fetch', arguments: { url: 'http://example.org/' } },
      ],
      windowMs: 0,
      timeoutMs: 120_000,
    });
    expect(result.grant).toMatchObject({ read: ['~/.ssh/id_rsa'], write: [outside], network: ['example.org:80'] });
    expect(result.calls.map((call) => call.ok)).toEqual([true, true]);
  }, 150_000);
});
