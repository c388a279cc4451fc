/**
 * The CLI as separate processes writing one config: parallel imports and
 * installs lose nothing; with `serve --config X` running, `install` without
 * flags targets X and its port, and the entry it writes works against that
 * instance at once (also when repeated on a busy machine, under a flood of
 * wrong tokens, which are still refused); `connect` entries carry the port;
 * the client token key lives in the OS keychain, so no file lets anyone
 * recompute a token.
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TOKEN_KEY_ACCOUNT } from '../../../electron/core/catalog/index.js';
import { BIN } from '../../helpers/cli.js';
import { isolatedUser, serveAs, type IsolatedUser } from '../../helpers/isolatedUser.js';
import { spawnServer } from '../../helpers/spawnServer.js';
import { waitUntil } from '../../helpers/processes.js';

/** Client config files (relative to HOME) whose `mcpServers` import reads. */
const CLIENT_FILES: Record<string, string> = {
  cursor: '.cursor/mcp.json',
  'claude-code': '.claude.json',
  windsurf: '.codeium/windsurf/mcp_config.json',
  'claude-desktop': '.config/Claude/claude_desktop_config.json',
};

/** Every client `install` knows. */
const ALL_CLIENTS = ['cursor', 'claude-code', 'vscode', 'windsurf', 'zed', 'codex', 'claude-desktop'];

/** The client token an `install` wrote (as a header or, for a `connect` entry, in its env). */
function tokenIn(text: string): string | undefined {
  return /(?:Bearer |SWITCHBOARD_CLIENT_TOKEN"\s*:\s*")([A-Za-z0-9_-]{43})\b/.exec(text)?.[1];
}

/** The status of a client's first request, as a 2025-era client sends it: initialize. */
async function firstRequest(url: string, token: string): Promise<number> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'new-client', version: '1' } },
    }),
    signal: AbortSignal.timeout(10_000),
  });
  await response.body?.cancel();
  return response.status;
}

/** Requests with wrong tokens, `parallel` at a time, until stopped; resolves with every status seen. */
function wrongTokenFlood(url: string, parallel: number): { stop(): Promise<number[]> } {
  const statuses: number[] = [];
  let stopped = false;
  const loop = async () => {
    while (!stopped) statuses.push(await firstRequest(url, randomBytes(32).toString('base64url')).catch(() => 0));
  };
  const loops = Array.from({ length: parallel }, loop);
  return {
    async stop() {
      stopped = true;
      await Promise.all(loops);
      return statuses;
    },
  };
}

type SavedConfig = { mcpServers?: Record<string, unknown>; policy?: { clients?: Record<string, unknown> } };

describe('the CLI writing one config from several processes', () => {
  let user: IsolatedUser;
  const servers: { stop(): Promise<void> }[] = [];

  beforeEach(async () => {
    user = await isolatedUser();
  });
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.stop()));
    await user.cleanup();
  });

  const saved = async (path = user.configPath) => JSON.parse(await readFile(path, 'utf8')) as SavedConfig;
  const write = async (path: string, value: unknown) => {
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, `${JSON.stringify(value, null, 2)}\n`);
  };

  it('loses no server when four imports run at once (twice over)', async () => {
    for (const [client, file] of Object.entries(CLIENT_FILES)) {
      const entries = Object.fromEntries(
        Array.from({ length: 8 }, (_, i) => [`${client}-s${i}`, { command: 'node', args: [`/srv/${client}/${i}.js`] }]),
      );
      await write(join(user.home, file), { mcpServers: entries });
    }
    for (let round = 0; round < 2; round++) {
      await rm(user.configPath, { force: true });
      const runs = await Promise.all(Object.keys(CLIENT_FILES).map((client) => user.run('import', client, '--all')));
      for (const run of runs) expect(run, run.stderr).toMatchObject({ code: 0 });
      expect(Object.keys((await saved()).mcpServers ?? {})).toHaveLength(32);
    }
  });

  it('keeps every profile and token digest when four installs run at once (twice over)', async () => {
    const clients = ['cursor', 'claude-code', 'windsurf', 'vscode'];
    for (let round = 0; round < 2; round++) {
      await rm(user.configPath, { force: true });
      await rm(join(user.configDir, 'client-tokens.json'), { force: true });
      const runs = await Promise.all(clients.map((client) => user.run('install', client)));
      for (const run of runs) expect(run, run.stderr).toMatchObject({ code: 0 });
      expect(Object.keys((await saved()).policy?.clients ?? {}).sort()).toEqual([...clients].sort());
      const digests = JSON.parse(await readFile(join(user.configDir, 'client-tokens.json'), 'utf8')) as {
        clients: Record<string, { digest: string }>;
      };
      expect(Object.keys(digests.clients).sort()).toEqual([...clients].sort());
      // The token written into each client's own file is the one whose digest was kept.
      for (const path of ['.cursor/mcp.json', '.claude.json', '.codeium/windsurf/mcp_config.json']) {
        const token = /Bearer ([A-Za-z0-9_-]+)/.exec(await readFile(join(user.home, path), 'utf8'))?.[1] ?? '';
        const digest = createHash('sha256').update(token).digest('hex');
        expect(
          Object.values(digests.clients).map((stored) => stored.digest),
          path,
        ).toContain(digest);
      }
    }
  });

  it('targets the running instance (serve --config X): install without flags writes an entry that works there', async () => {
    const custom = join(user.root, 'elsewhere', 'config.json');
    await write(custom, { mcpServers: {} });
    const served = await serveAs(user, ['--config', custom]);
    servers.push(served);
    const port = new URL(served.url).port;

    const installed = await user.run('install', 'cursor');
    expect(installed.code, installed.stderr).toBe(0);
    expect(installed.stdout).toContain(`note: acting on the running Switchboard (config ${custom}, port ${port})`);
    expect((await saved(custom)).policy?.clients?.['cursor']).toEqual({
      name: 'Cursor',
      exposure: 'auto',
      maxTools: 40,
    });
    await expect(stat(user.configPath)).rejects.toMatchObject({ code: 'ENOENT' });
    const entry = JSON.parse(await readFile(join(user.home, '.cursor/mcp.json'), 'utf8')).mcpServers.switchboard as {
      url: string;
      headers: Record<string, string>;
    };
    expect(entry.url).toBe(served.url);
    // The entry works against the running instance (it picks the new profile up from the file).
    let listed: string[] | undefined;
    await waitUntil(
      async () => {
        const client = new Client({ name: 'cursor-like', version: '1.0.0' });
        try {
          await client.connect(
            new StreamableHTTPClientTransport(new URL(entry.url), { requestInit: { headers: entry.headers } }),
          );
          listed = (await client.listTools()).tools.map((tool) => tool.name);
          return true;
        } catch {
          return false;
        } finally {
          await client.close().catch(() => undefined);
        }
      },
      { timeoutMs: 10_000, description: "cursor's entry to be accepted" },
    );
    expect(listed).toEqual([]);

    // A connect entry carries the running instance's config and port.
    expect((await user.run('install', 'claude-desktop')).code).toBe(0);
    const desktop = JSON.parse(await readFile(join(user.home, CLIENT_FILES['claude-desktop']!), 'utf8'));
    expect(desktop.mcpServers.switchboard.args.slice(-5)).toEqual(['connect', '--config', custom, '--port', port]);

    // An explicit flag that disagrees is honoured, with a warning.
    const flagged = await user.run('install', 'windsurf', '--port', '47999');
    expect(flagged.stdout).toContain(`warning: the running Switchboard (pid ${served.child.pid}) uses port ${port}`);
    expect(await readFile(join(user.home, '.codeium/windsurf/mcp_config.json'), 'utf8')).toContain(
      'http://127.0.0.1:47999/mcp',
    );
  });

  it('a client installed while serve runs connects at once, also with seven installed at once under a flood of wrong tokens (still refused)', async () => {
    const served = await serveAs(user);
    servers.push(served);
    const { url } = served;
    // A busy machine: seven CLI processes at once, and wrong tokens flooding in (they must not spend what a new client needs).
    const flood = wrongTokenFlood(url, 4);
    const installThenConnect = async (client: string): Promise<[string, number | string]> => {
      const installed = await user.run('install', client);
      if (installed.code !== 0) return [client, installed.stderr];
      const written = /Switchboard added to (\S+)/.exec(installed.stdout)?.[1];
      if (written === undefined) return [client, installed.stdout];
      const token = tokenIn(await readFile(written!, 'utf8'));
      if (token === undefined) return [client, `no token in ${written}`];
      // At once, as the client's first request: no retry, no wait for the file watcher.
      return [client, await firstRequest(url, token)];
    };
    const firsts = Object.fromEntries(await Promise.all(ALL_CLIENTS.map(installThenConnect)));
    const wrong = await flood.stop();
    expect(firsts).toEqual(Object.fromEntries(ALL_CLIENTS.map((client) => [client, 200])));
    expect(wrong.length).toBeGreaterThan(ALL_CLIENTS.length);
    expect(new Set(wrong)).toEqual(new Set([401]));
  });

  it('install claude-desktop --port N carries the port into the connect entry', async () => {
    expect((await user.run('install', 'claude-desktop', '--port', '47555')).code).toBe(0);
    const desktop = JSON.parse(await readFile(join(user.home, CLIENT_FILES['claude-desktop']!), 'utf8'));
    expect(desktop.mcpServers.switchboard.args.slice(-3)).toEqual(['connect', '--port', '47555']);
  });

  it('without a keychain keeps the token key in a 0600 file, and serve says so', async () => {
    // No Secret Service reachable: keytar cannot reach the session bus.
    const noKeychain = { ...user.env, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus' };
    await write(user.configPath, { mcpServers: {} });
    const served = await spawnServer(
      [BIN, 'serve', '--port', '0'],
      /Client token key: in (\S+) \(mode 0600\), no OS keychain: .+/,
      noKeychain,
    );
    servers.push(served);
    expect(served.match[1]).toBe(join(user.configDir, 'client-token-key'));
    expect((await stat(served.match[1]!)).mode & 0o777).toBe(0o600);
  });

  it('keeps the token key in the OS keychain: an old key file is moved there and no file can recompute a token', async () => {
    const status = await user.keychain.status();
    if (!status.available) {
      console.warn(`skipped: no OS keychain (${status.reason}); run under test/helpers/keyring-run.mjs`);
      return;
    }
    // A key file and a digest as an earlier version kept them.
    const key = 'legacy-key-0123456789abcdefghijklmnopqrstuv';
    const token = createHmac('sha256', key).update('cursor\u00001').digest('base64url');
    await writeFile(join(user.configDir, 'client-token-key'), `${key}\n`, { mode: 0o600 });
    await write(join(user.configDir, 'client-tokens.json'), {
      clients: {
        cursor: {
          digest: createHash('sha256').update(token).digest('hex'),
          createdAt: new Date().toISOString(),
          generation: 1,
        },
      },
    });
    await write(user.configPath, { mcpServers: {}, policy: { clients: { cursor: { name: 'Cursor' } } } });
    servers.push(await serveAs(user));
    await expect(stat(join(user.configDir, 'client-token-key'))).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await user.keychain.get(TOKEN_KEY_ACCOUNT)).toBe(key);
    // The same token as before the move (clients keep working) ...
    expect((await user.run('install', 'cursor')).code).toBe(0);
    expect(await readFile(join(user.home, '.cursor/mcp.json'), 'utf8')).toContain(`Bearer ${token}`);
    // The key is Switchboard's own: not listed as a user secret, and not deletable as one.
    expect((await user.run('secret', 'list')).stdout).not.toContain(TOKEN_KEY_ACCOUNT);
    expect(await user.run('secret', 'delete', TOKEN_KEY_ACCOUNT)).toMatchObject({ code: 2 });
    expect(await user.keychain.get(TOKEN_KEY_ACCOUNT)).toBe(key);
    // ... and no file of Switchboard's holds the key.
    const files = async (dir: string): Promise<string[]> =>
      (await readdir(dir, { withFileTypes: true, recursive: true }))
        .filter((entry) => entry.isFile())
        .map((entry) => join(entry.parentPath, entry.name));
    for (const file of [...(await files(user.configDir)), ...(await files(user.stateDir))]) {
      expect(await readFile(file, 'utf8'), file).not.toContain(key);
    }
  });
});
