/**
 * Hostile .mcpb bundles, installed as a user would: through the built CLI
 * (`mcp-switchboard add ./x.mcpb`, a child process) and through the UI's
 * upload (`bundles.install` over the bridge of a running `serve`). Each is
 * refused with its specific error, nothing is installed and no temporary
 * folder stays; the process's peak memory grows by far less than what the
 * bundle would inflate to; an install killed with SIGKILL mid-unpack leaves a
 * folder that the next install, or the next start of serve, removes.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connectBridge } from '../../helpers/bridgeClient.js';
import { bundledServer, bundleManifest } from '../../helpers/bundles.js';
import { BIN } from '../../helpers/cli.js';
import { hostileZip, zerosDeflated, type HostileEntry } from '../../helpers/hostileZip.js';
import { isolatedUser, serveAs, type IsolatedUser } from '../../helpers/isolatedUser.js';
import { peakRssOf, withPeakRss } from '../../helpers/peakMemory.js';
import { spawnServer } from '../../helpers/spawnServer.js';
import { waitUntil } from '../../helpers/processes.js';

const MiB = 1024 * 1024;

/**
 * A bundle whose server runs our configurable fixture with one tool (self-contained, as a
 * published bundle is), plus `extra` entries. Its server does not take the peak-memory
 * hook the CLI is measured with (NODE_OPTIONS): it measures the CLI, and the sandbox the
 * server runs in does not show the hook's file.
 */
async function hostileBundle(...extra: HostileEntry[]): Promise<Buffer> {
  const manifest = bundleManifest('greeter', {
    server: {
      type: 'node',
      entry_point: 'server/index.mjs',
      mcp_config: {
        command: 'node',
        args: ['${__dirname}/server/index.mjs'],
        env: { FIXTURE_TOOLS: 'greet', NODE_OPTIONS: '' },
      },
    },
    user_config: undefined,
  });
  const server = await bundledServer();
  return hostileZip([
    { name: 'manifest.json', data: Buffer.from(JSON.stringify(manifest)) },
    { name: 'server/index.mjs', data: Buffer.from(server) },
    ...extra,
  ]);
}

/** 1 GiB of zeros in about 1 MB that says it is 1 KiB. */
const lyingBomb = (): HostileEntry => ({ name: 'server/blob.bin', deflated: zerosDeflated(1024), size: 1024, crc: 0 });

let user: IsolatedUser;
beforeEach(async () => {
  user = await isolatedUser();
  await writeFile(user.configPath, JSON.stringify({ mcpServers: {} }));
});
afterEach(() => user.cleanup());

const servers = async () =>
  Object.keys((JSON.parse(await readFile(user.configPath, 'utf8')) as { mcpServers: object }).mcpServers);
const listing = (folder: string) => readdir(join(user.stateDir, folder)).catch(() => [] as string[]);
/** What is in bundles/ and downloads/: nothing after a refused install. */
const leftovers = async () => [...(await listing('bundles')), ...(await listing('downloads'))];

async function bundleFile(bytes: Buffer, name = 'x.mcpb'): Promise<string> {
  const path = join(user.root, name);
  await writeFile(path, bytes);
  return path;
}

/** `mcp-switchboard add <file>` with the peak memory of the process. */
async function addWithPeak(path: string) {
  const { result, peak } = await withPeakRss(
    (env) =>
      new Promise<{ code: number; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, [BIN, 'add', path], { env: { ...process.env, ...user.env, ...env } });
        let stderr = '';
        child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        child.once('exit', (code) => resolve({ code: code ?? -1, stderr }));
      }),
  );
  return { ...result, peak };
}

describe('through the CLI', () => {
  it('a zip bomb that lies about its size: refused naming the entry, nothing left, memory bounded', async () => {
    const baseline = await addWithPeak(await bundleFile(await hostileBundle(), 'fine.mcpb'));
    expect(baseline.stderr).toBe('');
    expect(await servers()).toEqual(['greeter']);

    const bomb = await bundleFile(await hostileBundle(lyingBomb()));
    const refused = await addWithPeak(bomb);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('entry "server/blob.bin" inflates to more than the 1024 bytes it declares');
    expect(await servers()).toEqual(['greeter']);
    expect(await leftovers()).toEqual(['greeter']);
    // The bomb inflates to 1 GiB; unpacking it grows the command by far less than a tenth of that.
    expect(refused.peak - baseline.peak).toBeLessThan(100 * MiB);
  }, 60_000);

  it.each([
    [
      'an entry declaring 300 MB',
      { name: 'blob.bin', deflated: zerosDeflated(300), size: 300 * MiB, crc: 0 },
      'entry "blob.bin" unpacks to more than 256 MB, the most one entry may have',
    ],
    [
      'a `../` entry',
      { name: '../../escape.txt', data: Buffer.from('x') },
      'entry "../../escape.txt" points outside the bundle',
    ],
    [
      'an absolute entry',
      { name: '/tmp/escape.txt', data: Buffer.from('x') },
      'entry "/tmp/escape.txt" is an absolute path',
    ],
    [
      'a symbolic link',
      { name: 'server/key', data: Buffer.from('/etc/passwd'), mode: 0o120777 },
      'entry "server/key" is a symbolic link',
    ],
  ])('%s: refused with its error, nothing installed', async (_label, entry, message) => {
    const result = await user.run('add', await bundleFile(await hostileBundle(entry)));
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(message);
    expect(await servers()).toEqual([]);
    expect(await leftovers()).toEqual([]);
  });

  it('more than 20,000 entries: refused before any is read', async () => {
    const many = Array.from({ length: 20_000 }, (_, i) => ({ name: `node_modules/${i}.js` }));
    const result = await user.run('add', await bundleFile(await hostileBundle(...many)));
    expect(result.stderr).toContain('20002 entries, more than the 20000 a bundle may hold');
    expect(await leftovers()).toEqual([]);
  });
});

describe('an install killed with SIGKILL mid-unpack', () => {
  /** Starts `add` of a bundle with 400 MiB of real content and kills it once its temporary folder exists. */
  async function killedMidUnpack(): Promise<string> {
    const parts = [1, 2].map((n) => ({
      name: `data/part${n}.bin`,
      deflated: zerosDeflated(200),
      size: 200 * MiB,
      crc: 0,
    }));
    const path = await bundleFile(await hostileBundle(...parts), 'big.mcpb');
    const child = spawn(process.execPath, [BIN, 'add', path], {
      env: { ...process.env, ...user.env },
      stdio: 'ignore',
    });
    const exited = once(child, 'exit');
    let partial: string | undefined;
    await waitUntil(
      async () =>
        (partial = (await listing('bundles')).find((name) => /^greeter\.installing-\d+-/.test(name))) !== undefined,
      { timeoutMs: 20_000, intervalMs: 10, description: 'the unpacking folder' },
    );
    child.kill('SIGKILL');
    await exited;
    expect(await listing('bundles')).toEqual([partial]);
    return partial!;
  }

  it('leaves a folder the next install removes', async () => {
    await killedMidUnpack();
    // The next install of anything sweeps first, even one refused.
    const next = await user.run('add', await bundleFile(await hostileBundle({ name: '../x', data: Buffer.from('x') })));
    expect(next.code).toBe(1);
    expect(await leftovers()).toEqual([]);
  }, 60_000);

  it('leaves a folder the next start of serve removes, saying so', async () => {
    const partial = await killedMidUnpack();
    const said = /removed (\S+): left by an install that was killed/;
    const served = await spawnServer([BIN, 'serve', '--port', '0'], said, user.env);
    try {
      expect(served.match[1]).toBe(join(user.stateDir, 'bundles', partial));
      expect(await leftovers()).toEqual([]);
    } finally {
      await served.stop();
    }
  }, 60_000);
});

describe('through the UI (bundles.install on a running serve)', () => {
  it('a zip bomb that lies about its size: refused, nothing left, serve memory bounded', async () => {
    const served = await serveAs(user);
    const bridge = await connectBridge({ origin: served.origin, token: user.env.SWITCHBOARD_TOKEN });
    try {
      const before = (await peakRssOf(served.child.pid!))!;
      const data = (await hostileBundle(lyingBomb())).toString('base64');
      const outcome = await bridge.call('bundles.install', { fileName: 'bomb.mcpb', data, values: {} });
      expect(outcome).toMatchObject({
        ok: false,
        error: { code: 'bundle_invalid', data: { entry: 'server/blob.bin' } },
      });
      expect(!outcome.ok && outcome.error.message).toContain('inflates to more than the 1024 bytes it declares');
      // Named as the user chose it, not as the temporary copy in the state folder (downloads/upload.installing-...).
      expect(!outcome.ok && outcome.error.message).toMatch(/^bomb\.mcpb: entry "server\/blob\.bin" /);
      expect(!outcome.ok && outcome.error.message).not.toMatch(/installing|downloads/);
      const after = (await peakRssOf(served.child.pid!))!;
      expect(after - before).toBeLessThan(100 * MiB);
      expect(await servers()).toEqual([]);
      expect(await leftovers()).toEqual([]);

      const inspected = await bridge.call('bundles.inspect', {
        fileName: 'link.mcpb',
        data: (await hostileBundle({ name: 'server/key', data: Buffer.from('/etc/passwd'), mode: 0o120777 })).toString(
          'base64',
        ),
      });
      expect(inspected).toMatchObject({ ok: false, error: { code: 'bundle_invalid', data: { entry: 'server/key' } } });
    } finally {
      await bridge.close();
      await served.stop();
    }
  }, 60_000);
});
