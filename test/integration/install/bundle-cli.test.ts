/**
 * .mcpb bundles through the CLI: a bundle zipped in the test (manifest.json
 * plus a small server) is installed, its user_config substituted (a sensitive
 * value into the real keychain), checked by starting it, and called through
 * `serve`; a bad bundle is refused naming the field and leaves nothing behind.
 */
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { KeytarStore } from '../../../electron/core/platform/index.js';
import { BIN, runCli } from '../../helpers/cli.js';
import { bundleBytes, bundleManifest } from '../../helpers/bundles.js';
import { firstText, tempDir } from '../../helpers/harness.js';
import { spawnServer } from '../../helpers/spawnServer.js';
import { keychainForTests } from '../../helpers/keychain.js';

const SERVICE = `mcp-switchboard-test-bundle-${process.pid}`;
const keychain = new KeytarStore({ service: SERVICE, timeoutMs: 5000 });
// Skip without a keychain, saying why, unless it is required (helpers/keychain.ts).
const { status: keychainStatus, required, titleSuffix } = await keychainForTests(keychain);

let dir: Awaited<ReturnType<typeof tempDir>>;
let env: Record<string, string>;
let configPath: string;
beforeEach(async () => {
  dir = await tempDir();
  configPath = join(dir.path, 'config.json');
  await writeFile(configPath, JSON.stringify({ mcpServers: {} }));
  env = {
    XDG_CONFIG_HOME: join(dir.path, 'xdg'),
    XDG_STATE_HOME: join(dir.path, 'state'),
    SWITCHBOARD_KEYCHAIN_SERVICE: SERVICE,
    SWITCHBOARD_TOKEN: 'bundle-token',
  };
});
afterEach(async () => {
  await dir.cleanup();
});
afterAll(async () => {
  if (keychainStatus.available) for (const name of await keychain.list()) await keychain.delete(name);
});

const manifest = (overrides: Record<string, unknown> = {}) => bundleManifest('greeter', overrides);

/** The bundle `name`, written beside the config. */
async function bundle(name: string, content: Record<string, unknown>, extra: Record<string, string> = {}) {
  const path = join(dir.path, name);
  await writeFile(path, await bundleBytes(content, extra));
  return path;
}

const cli = (args: string[]) => runCli([...args, '--config', configPath], env);
const servers = async () =>
  (JSON.parse(await readFile(configPath, 'utf8')) as { mcpServers: Record<string, Record<string, unknown>> })
    .mcpServers;
const bundlesDir = () => join(dir.path, 'state', 'mcp-switchboard', 'bundles');
const leftovers = async () => readdir(bundlesDir()).catch(() => [] as string[]);

describe('a bad bundle is refused, naming the field, and leaves nothing behind', () => {
  it.each([
    [
      'no entry point',
      manifest({ server: { type: 'node', mcp_config: { command: 'node' } } }),
      'manifest.json: server.entry_point: is required',
    ],
    [
      'unknown server type',
      manifest({ server: { type: 'ruby', entry_point: 'x', mcp_config: { command: 'ruby' } } }),
      'manifest.json: server.type: must be one of',
    ],
    ['an unknown field', manifest({ colour: 'blue' }), 'manifest.json: colour: is not a manifest field'],
    [
      'an unknown manifest version',
      manifest({ manifest_version: '9.9' }),
      'manifest.json: manifest_version: must be one of 0.1, 0.2, 0.3, 0.4',
    ],
  ])('%s', async (_label, content, message) => {
    const path = await bundle('bad.mcpb', content);
    const result = await cli(['add', path, '--arg', 'tools=greet', '--arg', 'api_key=k']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(message);
    expect(await servers()).toEqual({});
    expect(await leftovers()).toEqual([]);
  });

  it('a zip entry pointing outside the bundle', async () => {
    const path = await bundle('slip.mcpb', manifest(), { '../../escape.txt': 'x' });
    const result = await cli(['add', path, '--arg', 'tools=greet', '--arg', 'api_key=k']);
    expect(result.stderr).toContain('points outside the bundle');
    expect(await leftovers()).toEqual([]);
  });

  it('a required user_config value that is missing', async () => {
    const path = await bundle('greeter.mcpb', manifest());
    const result = await cli(['add', path, '--arg', 'api_key=k']);
    expect(result.stderr).toContain('user_config.tools (Tools) is required: pass --arg tools=...');
    expect(await leftovers()).toEqual([]);
  });

  it('a server that does not start: unpacked files removed again', async () => {
    const broken = manifest({
      server: {
        type: 'node',
        entry_point: 'x.mjs',
        mcp_config: { command: 'node', args: ['${__dirname}/missing.mjs'] },
      },
      user_config: {},
    });
    const result = await cli(['add', await bundle('broken.mcpb', broken)]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('greeter did not start');
    expect(await leftovers()).toEqual([]);
    expect(await servers()).toEqual({});
  }, 60_000);
});

describe.skipIf(!keychainStatus.available && !required)(`installing a bundle${titleSuffix}`, () => {
  it('unpacks it, substitutes its config, keeps the sensitive value in the keychain, and serve calls it', async () => {
    const path = await bundle('greeter.mcpb', manifest());
    const result = await cli(['add', path, '--arg', 'tools=greet,wave', '--arg', 'api_key=t0p-s3cret']);
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain('added greeter (Greeter 1.2.0 by Switchboard tests)');
    expect(result.stdout).toContain('declares tools: greet');
    expect(result.stdout).toContain('env.API_KEY -> keychain:greeter.API_KEY');
    expect(result.stdout).toContain('checked: it started and lists 2 tools');
    expect(result.stdout).not.toContain('t0p-s3cret');
    const directory = join(bundlesDir(), 'greeter');
    expect((await servers())['greeter']).toEqual({
      command: 'node',
      args: [`${directory}/server/index.mjs`],
      cwd: directory,
      env: { FIXTURE_TOOLS: 'greet,wave', FIXTURE_NAME: 'greeter', API_KEY: { secret: 'greeter.API_KEY' } },
      description: 'Says hello',
      source: { registry: `file://${path}`, name: 'greeter', version: '1.2.0' },
      // Sandboxed by default: it asks for no folder or file, so it is granted none.
      sandbox: true,
    });
    expect(await readFile(configPath, 'utf8')).not.toContain('t0p-s3cret');
    expect(await keychain.get('greeter.API_KEY')).toBe('t0p-s3cret');
    expect(await readdir(directory)).toEqual(expect.arrayContaining(['manifest.json', 'server']));

    const serve = await spawnServer([BIN, 'serve', '--config', configPath, '--port', '0'], /MCP endpoint: (\S+)/, env);
    const client = new Client({ name: 'bundle-test', version: '1' });
    try {
      await client.connect(
        new StreamableHTTPClientTransport(new URL(serve.match[1]!), {
          requestInit: { headers: { Authorization: 'Bearer bundle-token' } },
        }),
      );
      let names: string[] = [];
      for (let i = 0; i < 100 && !names.includes('greeter__wave'); i++) {
        names = (await client.listTools()).tools.map((t) => t.name);
        if (!names.includes('greeter__wave')) await new Promise((r) => setTimeout(r, 100));
      }
      const called = await client.callTool({ name: 'greeter__wave', arguments: { to: 'Ada' } });
      expect(firstText(called)).toBe('wave:{"to":"Ada"}');
    } finally {
      await client.close().catch(() => undefined);
      await serve.stop();
    }
  }, 60_000);
});

describe('the check before a bundle is saved', () => {
  it('runs its server under the sandbox it will be served with: what it writes to the home stays in its private one', async () => {
    const home = join(dir.path, 'home');
    await mkdir(home);
    // A server that writes into its home as it starts, then serves as the others do.
    const start = `import { writeFileSync } from 'node:fs';\nwriteFileSync(process.env.HOME + '/written-at-start', 'x');\nawait import('./index.mjs');\n`;
    const path = await bundle(
      'writer.mcpb',
      manifest({
        server: {
          type: 'node',
          entry_point: 'server/start.mjs',
          mcp_config: { command: 'node', args: ['${__dirname}/server/start.mjs'], env: { FIXTURE_TOOLS: 'greet' } },
        },
        user_config: undefined,
      }),
      { 'server/start.mjs': start },
    );
    const result = await runCli(['add', path, '--config', configPath], { ...env, HOME: home });
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain('checked: it started and lists 1 tools');
    expect((await servers())['greeter']?.['sandbox']).toBe(true);
    expect(existsSync(join(home, 'written-at-start'))).toBe(false);
    expect(
      existsSync(join(dir.path, 'state', 'mcp-switchboard', 'sandboxes', 'greeter', 'home', 'written-at-start')),
    ).toBe(true);
  }, 60_000);
});

describe('running a bundle unsandboxed is a choice, recorded on it', () => {
  it('--unsandboxed saves "sandbox": false, and its server runs with your rights (it writes to your home)', async () => {
    const home = join(dir.path, 'home');
    await mkdir(home);
    const start = `import { writeFileSync } from 'node:fs';\nwriteFileSync(process.env.HOME + '/written-at-start', 'x');\nawait import('./index.mjs');\n`;
    const path = await bundle(
      'writer.mcpb',
      manifest({
        server: {
          type: 'node',
          entry_point: 'server/start.mjs',
          mcp_config: { command: 'node', args: ['${__dirname}/server/start.mjs'], env: { FIXTURE_TOOLS: 'greet' } },
        },
        user_config: undefined,
      }),
      { 'server/start.mjs': start },
    );
    const result = await runCli(['add', path, '--unsandboxed', '--config', configPath], { ...env, HOME: home });
    expect(result.stderr).toBe('');
    expect((await servers())['greeter']?.['sandbox']).toBe(false);
    expect(existsSync(join(home, 'written-at-start'))).toBe(true);
  }, 60_000);
});

describe('a sensitive value without a keychain', () => {
  // D-Bus pointed nowhere: no Secret Service, so no keychain.
  const noKeychain = (args: string[]) =>
    runCli([...args, '--config', configPath], {
      ...env,
      DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus',
      DISPLAY: '',
      API_KEY: 'key-from-env',
    });
  const add = ['add', '--arg', 'tools=greet', '--arg', 'api_key=typed-in-key'];

  it('asks where it goes, naming the variable and the flag, and leaves nothing behind', async () => {
    const path = await bundle('greeter.mcpb', manifest());
    const result = await noKeychain([...add, path]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('there is no OS keychain for env.API_KEY');
    expect(result.stderr).toContain('pass --secret-storage reference');
    expect(await servers()).toEqual({});
    expect(await leftovers()).toEqual([]);
    const wrong = await noKeychain([...add, path, '--secret-storage', 'disk']);
    expect(wrong.stderr).toContain('--secret-storage takes reference or config, not "disk"');
  });

  it('--secret-storage reference: the ${VAR} is saved, the value nowhere', async () => {
    const path = await bundle('greeter.mcpb', manifest());
    const result = await noKeychain([...add, path, '--secret-storage', 'reference']);
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain('env.API_KEY -> ${API_KEY}');
    expect((await servers())['greeter']?.['env']).toMatchObject({ API_KEY: '${API_KEY}' });
    expect(await readFile(configPath, 'utf8')).not.toContain('typed-in-key');
  }, 60_000);

  it('--secret-storage config: the value is kept in config.json, as chosen', async () => {
    const path = await bundle('greeter.mcpb', manifest());
    const result = await noKeychain([...add, path, '--secret-storage', 'config']);
    expect(result.stdout).toContain('env.API_KEY -> config.json (plain text)');
    expect((await servers())['greeter']?.['env']).toMatchObject({ API_KEY: 'typed-in-key' });
  }, 60_000);
});
