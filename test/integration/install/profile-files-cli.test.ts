/**
 * `profile export` and `profile import` as a user runs them: the built CLI,
 * a real keychain, and `serve`. A profile exported with its servers from one
 * config and imported into an EMPTY one (another config and state dir) gives
 * the same profile and server policy; its secrets are asked for (one from
 * SWITCHBOARD_INPUT_<NAME>, one from stdin), kept in the keychain or written
 * back in place, never in the file; `serve` then starts the server, and an
 * SDK client with the new client's own token calls it and gets the secret
 * the server was started with. A file that does not validate is refused
 * naming its field, and config.json stays byte for byte as it was.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClientTokens } from '../../../electron/core/catalog/index.js';
import { KeytarStore, parseConfig } from '../../../electron/core/platform/index.js';
import { BIN, runCli } from '../../helpers/cli.js';
import { firstText, fixture, nodeServer, tempDir } from '../../helpers/harness.js';
import { keychainForTests } from '../../helpers/keychain.js';
import { waitUntil } from '../../helpers/processes.js';
import { spawnServer } from '../../helpers/spawnServer.js';

const SERVICE = `mcp-switchboard-profile-test-${process.pid}`;
const keychain = new KeytarStore({ service: SERVICE });
const { status, required, titleSuffix } = await keychainForTests(keychain);

const KEYCHAIN_SECRET = 'profile-keychain-secret-7d1e93';
const INLINE_SECRET = 'profile-inline-secret-4c20aa';

const policy = {
  backends: { notes: { defaultRule: 'allow', tools: { echo_request: 'deny' } }, other: { enabled: false } },
  clients: {
    team: {
      name: 'Team laptop',
      backends: ['notes'],
      maxTools: 12,
      exposure: 'all',
      items: { notes: { tools: { echo_env: 'allow' } } },
    },
  },
};

let dir: Awaited<ReturnType<typeof tempDir>>;
const homes = { from: '', to: '' };
const envOf = (home: string): Record<string, string> => ({
  HOME: home,
  XDG_CONFIG_HOME: join(home, 'config'),
  XDG_STATE_HOME: join(home, 'state'),
  SWITCHBOARD_KEYCHAIN_SERVICE: SERVICE,
  SWITCHBOARD_TOKEN: 'profile-test-main-token',
  SWITCHBOARD_NO_BROWSER: '1',
});
const configOf = (home: string): string => join(home, 'config', 'mcp-switchboard', 'config.json');

beforeAll(async () => {
  dir = await tempDir();
  homes.from = join(dir.path, 'from');
  homes.to = join(dir.path, 'to');
  const { mkdir } = await import('node:fs/promises');
  for (const home of [homes.from, homes.to]) await mkdir(join(home, 'config', 'mcp-switchboard'), { recursive: true });
  await writeFile(
    configOf(homes.from),
    JSON.stringify({
      mcpServers: {
        notes: nodeServer(fixture('echo-secrets.mjs'), [`--api-key=${INLINE_SECRET}`], {
          env: { LEAKY_TOKEN: { secret: 'notes-token' }, PLAIN: 'kept' },
        }),
        other: nodeServer(fixture('echo-secrets.mjs')),
      },
      policy,
    }),
  );
});

afterAll(async () => {
  await keychain.delete('notes-token').catch(() => undefined);
  await keychain.delete('switchboard:client-token-key').catch(() => undefined);
  await dir?.cleanup();
});

describe.skipIf(!status.available && !required)(`profile export and import${titleSuffix}`, () => {
  let exported = '';
  const file = () => join(dir.path, 'team.profile.json');

  it('exports the profile with its servers and no secret value', async () => {
    const result = await runCli(['profile', 'export', 'team', '--servers', '--out', file()], envOf(homes.from));
    expect(result).toMatchObject({ code: 0, stderr: '' });
    exported = await readFile(file(), 'utf8');
    expect(exported).not.toContain(INLINE_SECRET);
    const parsed = JSON.parse(exported) as {
      servers: Record<string, { env: unknown; args: string[] }>;
      inputs: object;
    };
    expect(Object.keys(parsed.servers)).toEqual(['notes']);
    expect(parsed.servers['notes']?.env).toEqual({ LEAKY_TOKEN: { input: 'notes-token' }, PLAIN: 'kept' });
    expect(parsed.servers['notes']?.args[1]).toBe('--api-key=${input:notes.args1}');
    expect(Object.keys(parsed.inputs).sort()).toEqual(['notes-token', 'notes.args1']);
    expect((await runCli(['profile'], envOf(homes.from))).stdout).toMatch(/^team\s+Team laptop$/m);
  });

  it('refuses a file that does not validate, naming the field, and leaves config.json as it was', async () => {
    await writeFile(configOf(homes.to), '{\n  "mcpServers": {}\n}\n');
    const before = await readFile(configOf(homes.to));
    const bad = JSON.parse(exported) as { profile: Record<string, unknown> };
    bad.profile['exposure'] = 'sometimes';
    await writeFile(join(dir.path, 'bad.json'), JSON.stringify(bad));
    const result = await runCli(['profile', 'import', join(dir.path, 'bad.json'), '--yes'], envOf(homes.to), '');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('profile.exposure: Invalid option');
    expect(await readFile(configOf(homes.to))).toEqual(before);
  });

  it('export without an ID names the profiles there are, exit 2', async () => {
    const result = await runCli(['profile', 'export'], envOf(homes.from));
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^mcp-switchboard: profile export needs the ID of a profile: team\nusage: /);
  });

  it('import without --yes and without a terminal says "not applied" first, plan on stderr, exit 1', async () => {
    const before = await readFile(configOf(homes.to));
    const result = await runCli(['profile', 'import', file()], envOf(homes.to), '');
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    const [first, ...plan] = result.stderr.split('\n');
    expect(first).toMatch(/^mcp-switchboard: not applied: .*--yes/);
    expect(plan).toContain('profile team: new');
    expect(plan).toContain('  server notes: added');
    expect(await readFile(configOf(homes.to))).toEqual(before);
  });

  it('imports into an empty config: same profile, secrets asked for and kept, and serve runs the server', async () => {
    const env = { ...envOf(homes.to), SWITCHBOARD_INPUT_NOTES_TOKEN: KEYCHAIN_SECRET };
    const result = await runCli(['profile', 'import', file(), '--yes'], env, `notes.args1=${INLINE_SECRET}\n`);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('profile team: new');
    expect(result.stdout).toContain('server notes: added');
    expect(result.stdout).toContain('secret notes-token (notes: env.LEAKY_TOKEN): kept in the OS keychain');
    expect(result.stdout).toContain('imported profile team with servers notes');
    expect(result.stdout).not.toContain(KEYCHAIN_SECRET);
    expect(await keychain.get('notes-token')).toBe(KEYCHAIN_SECRET);

    const text = await readFile(configOf(homes.to), 'utf8');
    expect(text).not.toContain(KEYCHAIN_SECRET);
    const fromConfig = parseConfig(JSON.parse(await readFile(configOf(homes.from), 'utf8'))).config!;
    const toConfig = parseConfig(JSON.parse(text)).config!;
    expect(toConfig.policy.clients).toEqual(fromConfig.policy.clients);
    expect(toConfig.policy.backends).toEqual({ notes: fromConfig.policy.backends['notes'] });
    expect(toConfig.backends.map((backend) => backend.id)).toEqual(['notes']);
    // The keychain secret is referred to; the one inside an argument is back in place (as it was exported).
    expect(toConfig.backends[0]).toMatchObject({
      env: { LEAKY_TOKEN: { secret: 'notes-token' }, PLAIN: 'kept' },
      args: [fixture('echo-secrets.mjs'), `--api-key=${INLINE_SECRET}`],
    });

    // Importing again is refused (the profile exists); nothing changes.
    const again = await runCli(['profile', 'import', file(), '--yes'], env, '');
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('--as NEWID');
    expect(await readFile(configOf(homes.to), 'utf8')).toBe(text);

    // The new client has a token of its own (derived as install derives it): serve accepts it.
    const tokens = new ClientTokens(
      join(homes.to, 'config', 'mcp-switchboard', 'client-tokens.json'),
      undefined,
      keychain,
    );
    const token = await tokens.tokenFor('team');
    expect(token).toBeDefined();
    const serve = await spawnServer(
      [BIN, 'serve', '--config', configOf(homes.to), '--port', '0'],
      /MCP endpoint: (\S+)/,
      envOf(homes.to),
    );
    const client = new Client({ name: 'profile-test', version: '1' });
    try {
      await client.connect(
        new StreamableHTTPClientTransport(new URL(serve.match[1]!), {
          requestInit: { headers: { Authorization: `Bearer ${token}` } },
        }),
      );
      await waitUntil(async () => (await client.listTools()).tools.some((t) => t.name === 'notes__echo_env'), {
        timeoutMs: 15_000,
      });
      // The profile's rule: echo_request denied (hidden), echo_env allowed.
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['notes__echo_env']);
      const called = await client.callTool({ name: 'notes__echo_env', arguments: { name: 'LEAKY_TOKEN' } });
      // The server got the keychain's value (answers to clients are redacted of known secrets).
      expect(firstText(called)).toMatch(new RegExp(`^LEAKY_TOKEN=(${KEYCHAIN_SECRET}|\\[redacted\\])$`));
      expect(firstText(called)).not.toBe('LEAKY_TOKEN=');
    } finally {
      await client.close().catch(() => undefined);
      await serve.stop();
    }
  }, 60_000);
});
