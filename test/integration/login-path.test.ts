/**
 * A dock-like start: `serve` launched with the minimal PATH a desktop app gets
 * (/usr/bin:/bin) still starts a stdio backend whose `node` only the user's
 * login profile puts on PATH (as nvm, Volta or Homebrew do).
 */
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { BIN } from '../helpers/cli.js';
import { MEMORY, tempDir } from '../helpers/harness.js';
import { spawnServer } from '../helpers/spawnServer.js';

let dir: Awaited<ReturnType<typeof tempDir>>;
beforeEach(async () => {
  dir = await tempDir();
});
afterEach(async () => {
  await dir.cleanup();
});

it.skipIf(process.platform === 'win32')(
  'serve started with PATH=/usr/bin:/bin runs a backend found through the login shell',
  async () => {
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
      SWITCHBOARD_TOKEN: 'dock-token',
      MEMORY_FILE_PATH: join(dir.path, 'memory.json'),
    };
    const serve = await spawnServer(
      [BIN, 'serve', '--config', config, '--port', '0', '--quiet'],
      /MCP endpoint: (\S+)/,
      env,
    );
    try {
      const readyz = serve.match[1]!.replace(/\/mcp$/, '/readyz');
      let body: { counts?: Record<string, number> } = {};
      for (let i = 0; i < 100; i++) {
        const response = await fetch(readyz);
        body = (await response.json()) as typeof body;
        if (response.status === 200) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(body.counts?.['up']).toBe(1);
    } finally {
      await serve.stop();
    }
  },
  30_000,
);
