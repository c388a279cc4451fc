/**
 * The registry commands end to end: the built CLI against a local registry of
 * ours (documented endpoints, cursors, ETags) serving real server.json
 * documents; an npm entry (server-memory) added, checked and then called
 * through `serve`'s endpoint, sandboxed (npx's cache in its private home
 * filled first, as an earlier start leaves it: helpers/npxCache.ts); a remote
 * entry whose header secret lands in the real keychain; offline results
 * marked; a missing runtime reported with where to get it.
 */
import { readFileSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { KeytarStore } from '../../../electron/core/platform/index.js';
import { BIN, runCli } from '../../helpers/cli.js';
import { firstText, fixture, tempDir } from '../../helpers/harness.js';
import { startLocalRegistry, type LocalRegistry } from '../../helpers/localRegistry.js';
import { spawnServer } from '../../helpers/spawnServer.js';
import { keychainForTests } from '../../helpers/keychain.js';
import { fillSandboxNpxCache } from '../../helpers/npxCache.js';

const fixtures = join(import.meta.dirname, '../../fixtures/registry');
const doc = (path: string): Record<string, unknown> => JSON.parse(readFileSync(join(fixtures, path), 'utf8'));
const SERVICE = `mcp-switchboard-test-registry-${process.pid}`;
const keychain = new KeytarStore({ service: SERVICE, timeoutMs: 5000 });
// Skip without a keychain, saying why, unless it is required (helpers/keychain.ts).
const { status: keychainStatus, required, titleSuffix } = await keychainForTests(keychain);

let registry: LocalRegistry;
let dir: Awaited<ReturnType<typeof tempDir>>;
let env: Record<string, string>;
let configPath: string;

beforeEach(async () => {
  registry = await startLocalRegistry([
    doc('entries/server-memory.json'),
    doc('entries/remote-notes.json'),
    doc('examples/docs/weather-pypi.json'),
    doc('examples/invalid/package-version-latest.json'),
  ]);
  dir = await tempDir();
  configPath = join(dir.path, 'config.json');
  await writeFile(configPath, JSON.stringify({ registry: { url: [registry.url] }, mcpServers: {} }));
  env = {
    XDG_CONFIG_HOME: join(dir.path, 'xdg'),
    XDG_STATE_HOME: join(dir.path, 'state'),
    SWITCHBOARD_KEYCHAIN_SERVICE: SERVICE,
    SWITCHBOARD_TOKEN: 'registry-test-token',
  };
});
afterEach(async () => {
  await registry.close().catch(() => undefined);
  await dir.cleanup();
});
afterAll(async () => {
  if (keychainStatus.available) for (const name of await keychain.list()) await keychain.delete(name);
});

const cli = (args: string[], input?: string) => runCli([...args, '--config', configPath], env, input);
const servers = async (): Promise<Record<string, Record<string, unknown>>> =>
  (JSON.parse(await readFile(configPath, 'utf8')) as { mcpServers: Record<string, Record<string, unknown>> })
    .mcpServers;

describe('registry commands', () => {
  it('search lists name, title, version and kinds; an invalid entry says why', async () => {
    const result = await cli(['search', 'io.github']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('io.github.modelcontextprotocol/server-memory  Memory  2026.8.31  npm\n');
    expect(result.stdout).toContain('io.github.switchboard-tests/remote-notes  Remote Notes  1.0.0  remote\n');
    expect(result.stdout).toMatch(/io\.github\.user\/bad-version {2}1\.0\.0 {2}invalid: packages\.0\.version/);
  });

  it('add of an npm entry checks it by starting it, saves it with its source, and serve calls it', async () => {
    const memoryFile = join(dir.path, 'memory.json');
    const stateDir = join(dir.path, 'state', 'mcp-switchboard');
    await fillSandboxNpxCache(stateDir, 'server-memory', '@modelcontextprotocol/server-memory@2026.8.31');
    const added = await cli([
      'add',
      'io.github.modelcontextprotocol/server-memory',
      '--env',
      `MEMORY_FILE_PATH=${memoryFile}`,
    ]);
    expect(added.stderr).toBe('');
    expect(added.stdout).toMatch(
      /^added server-memory \(io\.github\.modelcontextprotocol\/server-memory@2026\.8\.31, npx /,
    );
    expect(added.stdout).toMatch(/checked: it started and lists \d+ tools/);
    expect((await servers())['server-memory']).toEqual({
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-memory@2026.8.31'],
      env: { MEMORY_FILE_PATH: memoryFile },
      // Sandboxed by default, writing only the file it was given.
      sandbox: { write: [memoryFile] },
      source: {
        registry: registry.url,
        name: 'io.github.modelcontextprotocol/server-memory',
        version: '2026.8.31',
        inputs: { 'env:MEMORY_FILE_PATH': memoryFile },
      },
    });
    const again = await cli(['add', 'io.github.modelcontextprotocol/server-memory', '--id', 'server-memory']);
    expect(again).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('a backend named server-memory already exists'),
    });

    const serve = await spawnServer([BIN, 'serve', '--config', configPath, '--port', '0'], /MCP endpoint: (\S+)/, env);
    const client = new Client({ name: 'registry-test', version: '1' });
    try {
      await client.connect(
        new StreamableHTTPClientTransport(new URL(serve.match[1]!), {
          requestInit: { headers: { Authorization: 'Bearer registry-test-token' } },
        }),
      );
      let names: string[] = [];
      for (let i = 0; i < 100 && !names.includes('server-memory__create_entities'); i++) {
        names = (await client.listTools()).tools.map((t) => t.name);
        if (!names.includes('server-memory__create_entities')) await new Promise((r) => setTimeout(r, 200));
      }
      const result = await client.callTool({
        name: 'server-memory__create_entities',
        arguments: { entities: [{ name: 'Ada', entityType: 'person', observations: ['wrote the first program'] }] },
      });
      expect(firstText(result)).toContain('Ada');
      expect(await readFile(memoryFile, 'utf8')).toContain('wrote the first program');
    } finally {
      await client.close().catch(() => undefined);
      await serve.stop();
    }
  }, 60_000);

  it('an invalid entry is refused with the reason and nothing is saved', async () => {
    const result = await cli(['add', 'io.github.user/bad-version']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('io.github.user/bad-version@1.0.0 is not a valid server.json (packages.0.version');
    expect(await servers()).toEqual({});
  });

  it('a missing runtime is reported with where to get it, and nothing is saved', async () => {
    const result = await cli(['add', 'io.github.example/weather-mcp', '--env', 'WEATHER_API_KEY=abc']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('uvx is not found on PATH (');
    expect(result.stderr).toContain(
      'install uv (uvx) from https://docs.astral.sh/uv/getting-started/installation/, then retry',
    );
    expect(result.stderr).not.toContain('abc');
    expect(await servers()).toEqual({});
  });

  it('a required value that is missing is named', async () => {
    const result = await cli(['add', 'io.github.modelcontextprotocol/server-memory']);
    expect(result).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('environment variable MEMORY_FILE_PATH is required'),
    });
  });

  it('offline: search serves the cached answer and says how old it is', async () => {
    expect((await cli(['search', 'memory'])).code).toBe(0);
    await registry.close();
    // Age the cached answer by 3 hours, as if the last search was then.
    const cacheDir = join(dir.path, 'state', 'mcp-switchboard', 'registry-cache');
    for (const file of await readdir(cacheDir)) {
      const kept = JSON.parse(await readFile(join(cacheDir, file), 'utf8')) as { fetchedAt: number };
      kept.fetchedAt -= 3 * 3600_000;
      await writeFile(join(cacheDir, file), JSON.stringify(kept));
    }
    const offline = await cli(['search', 'memory']);
    expect(offline.code).toBe(0);
    expect(offline.stdout).toMatch(/^offline: showing results from 3 h ago\n/);
    expect(offline.stdout).toContain('io.github.modelcontextprotocol/server-memory  Memory  2026.8.31  npm');
    const never = await cli(['search', 'something-else']);
    expect(never).toMatchObject({ code: 1, stderr: expect.stringContaining('cannot reach http://127.0.0.1') });
  });

  it('outdated and update: a newer version is listed, the update shows what changes and applies it', async () => {
    const memoryFile = join(dir.path, 'memory.json');
    expect(
      (
        await cli([
          'add',
          'io.github.modelcontextprotocol/server-memory',
          '--env',
          `MEMORY_FILE_PATH=${memoryFile}`,
          '--no-check',
        ])
      ).code,
    ).toBe(0);
    expect((await cli(['outdated'])).stdout).toContain(
      'server-memory  io.github.modelcontextprotocol/server-memory  2026.8.31  up to date',
    );
    const next = doc('entries/server-memory.json') as { version: string; packages: { version: string }[] };
    next.version = '2026.9.1';
    next.packages[0]!.version = '2026.9.1';
    registry.publish(next as unknown as Record<string, unknown>);
    expect((await cli(['outdated'])).stdout).toContain('2026.8.31  update available: 2026.9.1');
    const dry = await cli(['update', 'server-memory', '--dry-run']);
    expect(dry.stdout).toBe(
      'server-memory: 2026.8.31 -> 2026.9.1\n' +
        '  version: 2026.8.31 -> 2026.9.1\n' +
        '  args: ["-y","@modelcontextprotocol/server-memory@2026.8.31"] -> ["-y","@modelcontextprotocol/server-memory@2026.9.1"]\n' +
        'not applied (--dry-run)\n',
    );
    expect(((await servers())['server-memory']!['source'] as { version: string }).version).toBe('2026.8.31');
    const applied = await cli(['update', 'server-memory', '--no-check']);
    expect(applied.stdout).toContain('updated\n');
    const entry = (await servers())['server-memory']!;
    expect(entry['args']).toEqual(['-y', '@modelcontextprotocol/server-memory@2026.9.1']);
    expect(entry['env']).toEqual({ MEMORY_FILE_PATH: memoryFile });
  });
});

describe.skipIf(!keychainStatus.available && !required)(`a remote entry with a secret header${titleSuffix}`, () => {
  it('fills the URL variable, checks it, and keeps the header in the keychain only', async () => {
    const remote = await spawnServer([fixture('http-server.mjs')], /LISTENING http:\/\/127\.0\.0\.1:(\d+)\/mcp/);
    try {
      const port = remote.match[1]!;
      const result = await cli([
        'add',
        'io.github.switchboard-tests/remote-notes@1.0.0',
        '--arg',
        `port=${port}`,
        '--header',
        'Authorization=Bearer s3cret-key',
      ]);
      expect(result.stderr).toBe('');
      expect(result.stdout).toContain('headers.Authorization -> keychain:remote-notes.Authorization');
      expect(result.stdout).not.toContain('s3cret');
      const text = await readFile(configPath, 'utf8');
      expect(text).not.toContain('s3cret');
      expect((await servers())['remote-notes']).toMatchObject({
        url: `http://127.0.0.1:${port}/mcp`,
        type: 'http',
        headers: { Authorization: { secret: 'remote-notes.Authorization' } },
      });
      expect(await keychain.get('remote-notes.Authorization')).toBe('Bearer s3cret-key');
    } finally {
      await remote.stop();
    }
  });
});

describe('a secret header without a keychain', () => {
  it('add asks where it goes (--secret-storage), then keeps a ${VAR} reference as chosen', async () => {
    const remote = await spawnServer([fixture('http-server.mjs')], /LISTENING http:\/\/127\.0\.0\.1:(\d+)\/mcp/);
    // D-Bus pointed nowhere: no Secret Service, so no keychain.
    const noKeychain = { ...env, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus', DISPLAY: '' };
    try {
      const args = [
        'add',
        'io.github.switchboard-tests/remote-notes@1.0.0',
        '--arg',
        `port=${remote.match[1]!}`,
        '--header',
        'Authorization=Bearer s3cret-key',
        '--config',
        configPath,
      ];
      const asked = await runCli(args, noKeychain);
      expect(asked.code).toBe(1);
      expect(asked.stderr).toContain('there is no OS keychain for headers.Authorization');
      expect(asked.stderr).toContain('pass --secret-storage reference');
      expect(await servers()).toEqual({});
      const variable = 'REMOTE_NOTES_AUTHORIZATION';
      const added = await runCli([...args, '--secret-storage', 'reference'], {
        ...noKeychain,
        [variable]: 's3cret-key',
      });
      expect(added.stderr).toBe('');
      expect(added.stdout).toContain(`headers.Authorization -> \${${variable}}`);
      expect((await servers())['remote-notes']?.['headers']).toEqual({ Authorization: `Bearer \${${variable}}` });
      expect(await readFile(configPath, 'utf8')).not.toContain('s3cret');
    } finally {
      await remote.stop();
    }
  });
});
