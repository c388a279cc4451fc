/**
 * A registry package that serves HTTP (server.json `transport` streamable-http
 * with a URL template): `add` saves one entry that runs the package and
 * connects to its URL (`url` + `launch`), checked by starting it; `serve`
 * starts it, calls through it, and stops the server with itself. The package
 * is @modelcontextprotocol/server-everything in its streamableHttp mode
 * (installed as a devDependency, so npx runs it offline).
 */
import { readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { createServer, connect } from 'node:net';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BIN, runCli } from '../../helpers/cli.js';
import { firstText, tempDir } from '../../helpers/harness.js';
import { startLocalRegistry, type LocalRegistry } from '../../helpers/localRegistry.js';
import { spawnServer } from '../../helpers/spawnServer.js';

const NAME = 'io.github.modelcontextprotocol/server-everything-http';
const fixture = join(import.meta.dirname, '../../fixtures/registry/entries/server-everything-http.json');

let registry: LocalRegistry;
let dir: Awaited<ReturnType<typeof tempDir>>;
let configPath: string;
let env: Record<string, string>;
beforeEach(async () => {
  registry = await startLocalRegistry([JSON.parse(readFileSync(fixture, 'utf8')) as Record<string, unknown>]);
  dir = await tempDir();
  configPath = join(dir.path, 'config.json');
  await writeFile(configPath, JSON.stringify({ registry: { url: [registry.url] }, mcpServers: {} }));
  env = {
    XDG_CONFIG_HOME: join(dir.path, 'xdg'),
    XDG_STATE_HOME: join(dir.path, 'state'),
    SWITCHBOARD_TOKEN: 'http-package-token',
  };
});
afterEach(async () => {
  await registry.close().catch(() => undefined);
  await dir.cleanup();
});

/** A port nothing listens on now. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Whether something accepts connections on `port`. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

describe('a registry package serving Streamable HTTP', () => {
  it('is run and reached at its URL: added, checked, called through serve, and stopped with it', async () => {
    const port = await freePort();
    const added = await runCli(['add', NAME, '--env', `PORT=${port}`, '--config', configPath], env);
    expect(added.stderr).toBe('');
    expect(added.stdout).toContain(`serving streamable-http at http://127.0.0.1:{PORT}/mcp`);
    expect(added.stdout).toMatch(/checked: it started and lists \d+ tools/);
    const saved = (JSON.parse(await readFile(configPath, 'utf8')) as { mcpServers: Record<string, unknown> })
      .mcpServers;
    expect(saved['server-everything-http']).toMatchObject({
      url: `http://127.0.0.1:${port}/mcp`,
      type: 'http',
      launch: {
        command: 'npx',
        args: ['-y', '@modelcontextprotocol/server-everything@2026.8.31', 'streamableHttp'],
        env: { PORT: String(port) },
      },
    });
    // The check's server was stopped with the check.
    expect(await listening(port)).toBe(false);

    const serve = await spawnServer([BIN, 'serve', '--config', configPath, '--port', '0'], /MCP endpoint: (\S+)/, env);
    const client = new Client({ name: 'http-package-test', version: '1' });
    try {
      await client.connect(
        new StreamableHTTPClientTransport(new URL(serve.match[1]!), {
          requestInit: { headers: { Authorization: 'Bearer http-package-token' } },
        }),
      );
      const tool = 'server-everything-http__echo';
      let names: string[] = [];
      for (let i = 0; i < 200 && !names.includes(tool); i++) {
        names = (await client.listTools()).tools.map((t) => t.name);
        if (!names.includes(tool)) await new Promise((r) => setTimeout(r, 100));
      }
      const called = await client.callTool({ name: tool, arguments: { message: 'over http' } });
      expect(firstText(called)).toContain('over http');
      expect(await listening(port)).toBe(true);
    } finally {
      await client.close().catch(() => undefined);
      await serve.stop();
    }
    expect(await listening(port)).toBe(false);
  }, 120_000);
});
