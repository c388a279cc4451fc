/**
 * A dock-like start: `serve` launched with the minimal PATH a desktop app gets
 * (/usr/bin:/bin) still starts a stdio backend whose `node` only the user's
 * login profile puts on PATH (as nvm, Volta or Homebrew do); and a login shell
 * slow to answer (a zsh with plugins) holds back only the servers' start, not
 * the endpoint nor the cached catalog.
 */
import { chmod, mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { BIN } from '../../helpers/cli.js';
import { MEMORY, tempDir } from '../../helpers/harness.js';
import { isAlive, waitUntil } from '../../helpers/processes.js';
import { spawnServer } from '../../helpers/spawnServer.js';

let dir: Awaited<ReturnType<typeof tempDir>>;
beforeEach(async () => {
  dir = await tempDir();
});
afterEach(async () => {
  await dir.cleanup();
});

const TOKEN = 'dock-token';

/** A dock-like launch whose only `node` for the backend (`sb-node`) is on the login profile's PATH. */
async function dockLike() {
  const home = join(dir.path, 'home');
  await mkdir(join(home, '.nvm-like', 'bin'), { recursive: true });
  await symlink(process.execPath, join(home, '.nvm-like', 'bin', 'sb-node'));
  await writeFile(join(home, '.profile'), 'export PATH="$HOME/.nvm-like/bin:$PATH"\n');
  const config = join(dir.path, 'config.json');
  await writeFile(config, JSON.stringify({ mcpServers: { memory: { command: 'sb-node', args: [MEMORY] } } }));
  const env = {
    PATH: '/usr/bin:/bin',
    HOME: home,
    SHELL: '/bin/sh',
    XDG_CONFIG_HOME: join(dir.path, 'xdg'),
    XDG_STATE_HOME: join(dir.path, 'state'),
    SWITCHBOARD_TOKEN: TOKEN,
    MEMORY_FILE_PATH: join(dir.path, 'memory.json'),
  };
  return { config, env };
}

function serve(config: string, env: Record<string, string>) {
  return spawnServer([BIN, 'serve', '--config', config, '--port', '0', '--quiet'], /MCP endpoint: (\S+)/, env);
}

/** `/readyz`'s backend counts, once the answer is 200 (every backend settled). */
async function settledCounts(url: string): Promise<Record<string, number> | undefined> {
  const readyz = url.replace(/\/mcp$/, '/readyz');
  let body: { counts?: Record<string, number> } = {};
  for (let i = 0; i < 100; i++) {
    const response = await fetch(readyz);
    body = (await response.json()) as typeof body;
    if (response.status === 200) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return body.counts;
}

async function toolNames(url: string, token: string): Promise<string[]> {
  const client = new Client({ name: 'login-path-test', version: '1.0.0' });
  const headers = { Authorization: `Bearer ${token}` };
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  try {
    return (await client.listTools()).tools.map((tool) => tool.name).sort();
  } finally {
    await client.close();
  }
}

it.skipIf(process.platform === 'win32')(
  'serve started with PATH=/usr/bin:/bin runs a backend found through the login shell',
  async () => {
    const { config, env } = await dockLike();
    const server = await serve(config, env);
    try {
      expect((await settledCounts(server.match[1]!))?.['up']).toBe(1);
    } finally {
      await server.stop();
    }
  },
  30_000,
);

it.skipIf(process.platform === 'win32')(
  'a login shell slow to answer holds back the servers, not the endpoint nor the cached catalog',
  async () => {
    const { config, env } = await dockLike();
    // The first start learns the catalog (and caches it) with a shell that answers at once.
    const first = await serve(config, env);
    let cached: string[];
    try {
      expect((await settledCounts(first.match[1]!))?.['up']).toBe(1);
      cached = await toolNames(first.match[1]!, TOKEN);
    } finally {
      await first.stop();
    }
    expect(cached.length).toBeGreaterThan(0);
    // This login shell answers only once the test lets it (well within serve's 5 s limit for it).
    const gate = join(dir.path, 'gate');
    await mkdir(gate);
    const shell = join(dir.path, 'slow-shell');
    await writeFile(
      shell,
      `#!/bin/sh\necho $$ > "${gate}/pid"\nwhile [ ! -e "${gate}/release" ]; do sleep 0.05; done\nexec /bin/sh "$@"\n`,
    );
    await chmod(shell, 0o755);
    const second = await serve(config, { ...env, SHELL: shell });
    try {
      const url = second.match[1]!;
      // Listening while the shell still waits: it was neither waited for nor given up on.
      const shellPid = Number(await readFile(join(gate, 'pid'), 'utf8'));
      expect(isAlive(shellPid)).toBe(true);
      expect(await toolNames(url, TOKEN)).toEqual(cached);
      const health = (await (await fetch(url.replace(/\/mcp$/, '/readyz'))).json()) as {
        counts?: Record<string, number>;
      };
      expect(health.counts?.['up'] ?? 0).toBe(0);
      // Once the shell answers, the server starts with its PATH (`sb-node` is only there).
      await writeFile(join(gate, 'release'), '');
      await waitUntil(async () => (await settledCounts(url))?.['up'] === 1, { description: 'memory up' });
    } finally {
      await second.stop();
    }
  },
  45_000,
);
