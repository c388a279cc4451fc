/**
 * A quarantined server is contained, not only hidden (issue 37): with the
 * default sandbox off, a server added at run time (never approved) runs
 * under the strict sandbox with real bubblewrap, so the hostile fixture's
 * canary read of a key in its home is refused before approval, and works
 * once approved (its own setting: no sandbox); put back under review
 * ("Quarantine again") it is contained again. Where no sandbox can run, a
 * quarantined server is not started, and says the exact command that starts
 * it unsandboxed; run, that recorded choice starts it. A quarantined npx,
 * pnpm dlx or bunx server has no network either: it starts offline from its private cache.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PinStore, ServerApprovals } from '../../../electron/core/catalog/index.js';
import { sandboxSupport } from '../../../electron/core/backends/index.js';
import { fixture, firstText, nodeServer, startProxy, tempDir, type Harness } from '../../helpers/harness.js';
import { fillSandboxNpxCache } from '../../helpers/npxCache.js';

const support = await sandboxSupport();
const why = support.available ? '' : ` (skipped: ${support.reason})`;
const mustRun = process.env['CI'] === 'true';
const run = promisify(execFile);

let dir: Awaited<ReturnType<typeof tempDir>>;
let home: string;
let key: string;
let proxy: Harness;

beforeAll(async () => {
  dir = await tempDir();
  home = join(dir.path, 'home');
  key = join(home, '.ssh', 'id_rsa');
  await mkdir(join(home, '.ssh'), { recursive: true });
  await writeFile(key, 'PRIVATE KEY CANARY\n');
  const pins = new PinStore(join(dir.path, 'tool-pins.json'));
  await pins.load();
  const approvals = new ServerApprovals(join(dir.path, 'server-approvals.json'));
  // The default sandbox is off (the proxy's default): only quarantine contains anything here.
  proxy = await startProxy(
    { mcpServers: { known: nodeServer(fixture('hostile.mjs'), [], { env: { HOME: home } }) } },
    { pins, approvals },
  );
}, 60_000);
afterAll(async () => {
  await proxy.close();
  await dir.cleanup();
});

const health = (id: string) => proxy.core.health().find((backend) => backend.id === id);

describe.skipIf(!support.available && !mustRun)(`a never-approved server${why}`, () => {
  it('runs under the strict sandbox whatever the default: its canary read is refused until approved', async () => {
    // Reads the key before serving, and exits saying why when it cannot.
    const hostile = nodeServer(fixture('hostile.mjs'), [], { env: { HOME: home, HOSTILE_READ_AT_START: key } });
    await proxy.core.addBackend('newcomer', hostile);
    expect(health('newcomer')).toMatchObject({
      quarantined: true,
      review: { reason: 'new' },
      sandbox: { state: 'on', engine: 'bubblewrap', network: 'none', quarantine: { mode: 'strict' } },
    });
    expect(health('newcomer')?.status).not.toBe('up');
    await expect.poll(() => health('newcomer')?.sandbox?.blocked ?? []).toContainEqual({ kind: 'read', target: key });
    // The approved server beside it runs as its own setting says (no sandbox), reading the same file.
    expect(health('known')?.sandbox).toMatchObject({ state: 'off' });
    expect(health('known')?.sandbox?.quarantine).toBeUndefined();
    const client = await proxy.connect();
    expect(firstText(await client.callTool({ name: 'known__read_file', arguments: { path: key } }))).toBe(
      'PRIVATE KEY CANARY\n',
    );

    await proxy.core.reviews.approveServer('newcomer');
    await expect.poll(() => health('newcomer')?.status, { timeout: 20_000 }).toBe('up');
    expect(health('newcomer')?.sandbox).toMatchObject({ state: 'off' });
    expect(health('newcomer')?.sandbox?.quarantine).toBeUndefined();
    await expect
      .poll(async () => (await client.listTools()).tools.some((tool) => tool.name === 'newcomer__read_file'))
      .toBe(true);
    expect(firstText(await client.callTool({ name: 'newcomer__read_file', arguments: { path: key } }))).toBe(
      'PRIVATE KEY CANARY\n',
    );
  }, 60_000);

  it('put back under review, is hidden and contained again until approved again', async () => {
    const review = await proxy.core.reviews.quarantineAgain('newcomer');
    expect(review).toMatchObject({ quarantined: true, reason: 'requested' });
    const client = await proxy.connect();
    expect((await client.listTools()).tools.map((tool) => tool.name)).not.toContain('newcomer__read_file');
    await expect.poll(() => health('newcomer')?.sandbox?.quarantine, { timeout: 20_000 }).toEqual({ mode: 'strict' });
    await expect.poll(() => health('newcomer')?.status, { timeout: 20_000 }).not.toBe('up');
    await proxy.core.reviews.approveServer('newcomer');
    await expect.poll(() => health('newcomer')?.status, { timeout: 20_000 }).toBe('up');
  }, 60_000);
});

describe.skipIf(!support.available && !mustRun)(`a never-approved npx server${why}`, () => {
  const SPEC = '@modelcontextprotocol/server-memory@2026.8.31';
  it('has no network while quarantined: its packages are fetched into its private cache first, and npx runs offline', async () => {
    const stateDir = join(dir.path, 'npx-state');
    // As an earlier start leaves its private home (no download in this test): the fetch then finds it all cached.
    await fillSandboxNpxCache(stateDir, 'memnew', SPEC);
    const approvals = new ServerApprovals(join(dir.path, 'npx-approvals.json'));
    const harness = await startProxy({ mcpServers: {} }, { approvals, deps: { stateDir } });
    try {
      await harness.core.addBackend('memnew', { command: 'npx', args: ['-y', SPEC] });
      const started = harness.core.health().find((backend) => backend.id === 'memnew');
      // No registry in its host list (npx used to reach it): no network at all, and it started.
      expect(started).toMatchObject({
        status: 'up',
        quarantined: true,
        sandbox: { state: 'on', engine: 'bubblewrap', network: 'none', quarantine: { mode: 'strict' } },
      });
      expect(started?.counts.tools).toBeGreaterThan(0);
      // The fetch's cache is the private home's, where npx reads it offline.
      const index = await readdir(join(stateDir, 'sandboxes', 'memnew', 'home', '.npm', '_cacache'));
      expect(index).toContain('index-v5');
    } finally {
      await harness.close();
    }
  }, 120_000);

  it('pnpm dlx too: its packages are fetched into its private pnpm store first, and dlx runs offline', async () => {
    const stateDir = join(dir.path, 'pnpm-state');
    const approvals = new ServerApprovals(join(dir.path, 'pnpm-approvals.json'));
    const harness = await startProxy({ mcpServers: {} }, { approvals, deps: { stateDir } });
    // pnpm as a user has it: on the server's PATH (this repository's dev dependency, pnpm 10).
    const path = `${join(process.cwd(), 'node_modules', '.bin')}:${process.env['PATH'] ?? ''}`;
    try {
      await harness.core.addBackend('mempnpm', { command: 'pnpm', args: ['dlx', SPEC], env: { PATH: path } });
      const started = harness.core.health().find((backend) => backend.id === 'mempnpm');
      expect(started).toMatchObject({
        status: 'up',
        quarantined: true,
        sandbox: { state: 'on', engine: 'bubblewrap', network: 'none', quarantine: { mode: 'strict' } },
      });
      expect(started?.counts.tools).toBeGreaterThan(0);
      // The fetch filled the private home's pnpm store, where dlx reads it offline.
      const store = await readdir(join(stateDir, 'sandboxes', 'mempnpm', 'home', '.local', 'share', 'pnpm', 'store'));
      expect(store.length).toBeGreaterThan(0);
    } finally {
      await harness.close();
    }
  }, 120_000);
});

/** Bun (its Linux x64 build, from npm), fetched once per machine: bunx is how some servers are started. */
async function bunBinaryFolder(): Promise<string> {
  const prefix = join(tmpdir(), `switchboard-test-bun-${BUN_VERSION}`);
  const folder = join(prefix, 'node_modules', '@oven', 'bun-linux-x64', 'bin');
  if (!existsSync(join(folder, 'bun'))) {
    const args = ['install', '--no-save', '--no-audit', '--no-fund', '--prefix', prefix];
    await run('npm', [...args, `@oven/bun-linux-x64@${BUN_VERSION}`], { timeout: 120_000 });
  }
  return folder;
}
const BUN_VERSION = '1.3.14';
const bunHere = process.platform === 'linux' && process.arch === 'x64';

describe.skipIf(!(support.available && bunHere) && !mustRun)(`a never-approved bunx server${why}`, () => {
  it('has no network while quarantined: bun fetches into its private cache first, and the line names the version fetched', async () => {
    const stateDir = join(dir.path, 'bun-state');
    const approvals = new ServerApprovals(join(dir.path, 'bun-approvals.json'));
    const harness = await startProxy({ mcpServers: {} }, { approvals, deps: { stateDir } });
    const path = `${await bunBinaryFolder()}:${process.env['PATH'] ?? ''}`;
    try {
      // No version named: bunx would ask the registry for the latest at every start, even with it cached.
      const name = '@modelcontextprotocol/server-memory';
      await harness.core.addBackend('membun', { command: 'bun', args: ['x', name], env: { PATH: path } });
      const started = harness.core.health().find((backend) => backend.id === 'membun');
      expect(started).toMatchObject({
        status: 'up',
        quarantined: true,
        sandbox: { state: 'on', engine: 'bubblewrap', network: 'none', quarantine: { mode: 'strict' } },
      });
      expect(started?.counts.tools).toBeGreaterThan(0);
      const cache = await readdir(join(stateDir, 'sandboxes', 'membun', 'home', '.bun', 'install', 'cache'));
      expect(cache.length).toBeGreaterThan(0);
    } finally {
      await harness.close();
    }
  }, 180_000);
});

describe('a quarantined server where no sandbox can run', () => {
  it('is not started; its status names the command that starts it unsandboxed, and that choice starts it', async () => {
    // No bubblewrap on this server's PATH: as on a machine without it.
    await proxy.core.addBackend(
      'nowhere',
      nodeServer(fixture('hostile.mjs'), [], { env: { HOME: home, PATH: '/nonexistent' } }),
    );
    const command = 'mcp-switchboard review nowhere --start-unsandboxed';
    expect(health('nowhere')?.pid).toBeUndefined();
    expect(health('nowhere')).toMatchObject({
      quarantined: true,
      sandbox: { state: 'unavailable', quarantine: { mode: 'held', command } },
      lastError: { code: 'sandbox_unavailable', message: expect.stringContaining(command) },
    });
    await proxy.core.reviews.startUnsandboxed('nowhere');
    await expect.poll(() => health('nowhere')?.status, { timeout: 20_000 }).toBe('up');
    expect(health('nowhere')).toMatchObject({
      quarantined: true,
      sandbox: { state: 'off', quarantine: { mode: 'unsandboxed' } },
    });
  }, 60_000);
});
