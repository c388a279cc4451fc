/**
 * Nothing a stdio backend started outlives it: our fault server starts `sh`
 * with two `sleep` children and one child that calls setsid, all carrying a
 * marker variable; after a crash, a restart, a removal and serve's own exit,
 * the process table holds none of them.
 */
import { randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { BIN } from '../../helpers/cli.js';
import { firstText, fixture, nodeServer, startProxy, tempDir } from '../../helpers/harness.js';
import { processesWithEnv, waitUntil } from '../../helpers/processes.js';
import { spawnServer } from '../../helpers/spawnServer.js';

const FAULT = fixture('fault-server.mjs');
const describeLinux = process.platform === 'linux' ? describe : describe.skip;

/** A backend whose processes carry FAULT_MARKER=<marker>. */
function markedBackend(marker: string): Record<string, unknown> {
  return nodeServer(FAULT, ['stdio'], { env: { FAULT_MARKER: marker } });
}

const marked = (marker: string) => processesWithEnv('FAULT_MARKER', marker);

describeLinux('stdio backend process groups', () => {
  it('reaps the children, grandchildren and setsid children of a crashed backend', async () => {
    const marker = randomUUID();
    const proxy = await startProxy({
      // No restart during the test: only the crashed instance's processes are under watch.
      proxy: { reconnectInitialMs: 600_000 },
      mcpServers: { f: markedBackend(marker) },
    });
    try {
      const client = await proxy.connect();
      const spawned = JSON.parse(firstText(await client.callTool({ name: 'f__spawn_tree', arguments: {} })));
      // The server, sh, its two sleeps and the setsid sleep.
      await waitUntil(() => marked(marker).length === 5, { description: 'five marked processes' });
      expect(marked(marker)).toEqual(expect.arrayContaining([spawned.sh, spawned.setsid]));
      await expect(client.callTool({ name: 'f__crash', arguments: {} })).rejects.toThrow(/disconnected/);
      await waitUntil(() => marked(marker).length === 0, {
        timeoutMs: 5000,
        description: 'every process of the crashed backend to be gone',
      });
    } finally {
      await proxy.close();
    }
  });

  it('reaps the old instance on restart and everything on remove', async () => {
    const marker = randomUUID();
    const proxy = await startProxy({ mcpServers: { f: markedBackend(marker) } });
    try {
      const client = await proxy.connect();
      await client.callTool({ name: 'f__spawn_tree', arguments: {} });
      await waitUntil(() => marked(marker).length === 5);
      const before = marked(marker);
      await proxy.core.restartBackend('f');
      // The new instance alone remains.
      await waitUntil(() => marked(marker).every((pid) => !before.includes(pid)), { timeoutMs: 5000 });
      expect(marked(marker)).toHaveLength(1);
      await client.callTool({ name: 'f__spawn_tree', arguments: {} });
      await waitUntil(() => marked(marker).length === 5);
      await proxy.core.removeBackend('f', { persist: false });
      await waitUntil(() => marked(marker).length === 0, { timeoutMs: 5000 });
    } finally {
      await proxy.close();
    }
  });

  it('serve reaps every backend process, setsid ones included, when it is stopped', async () => {
    const marker = randomUUID();
    const dir = await tempDir();
    const configPath = join(dir.path, 'config.json');
    await writeFile(configPath, JSON.stringify({ mcpServers: { f: markedBackend(marker) } }));
    const env = {
      XDG_CONFIG_HOME: join(dir.path, 'xdg'),
      XDG_STATE_HOME: join(dir.path, 'state'),
      SWITCHBOARD_TOKEN: 'serve-test-token-0123',
    };
    const server = await spawnServer([BIN, 'serve', '--config', configPath, '--port', '0'], /MCP endpoint: (\S+)/, env);
    try {
      const url = server.match[1]!;
      await waitUntil(async () => (await fetch(url.replace(/\/mcp$/, '/readyz'))).status === 200, {
        timeoutMs: 15_000,
      });
      const client = new Client({ name: 'groups-test', version: '1' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(url), {
          requestInit: { headers: { Authorization: `Bearer ${env.SWITCHBOARD_TOKEN}` } },
        }),
      );
      await client.callTool({ name: 'f__spawn_tree', arguments: {} });
      await waitUntil(() => marked(marker).length === 5);
      await client.close();
      await server.stop();
      await waitUntil(() => marked(marker).length === 0, {
        timeoutMs: 5000,
        description: 'serve to reap its backends',
      });
    } finally {
      await server.stop();
      await dir.cleanup();
    }
  }, 30_000);
});

describeLinux('stdio backend with protocol auto', () => {
  it('negotiates on the serving instance itself: the server is started once', async () => {
    const marker = randomUUID();
    const proxy = await startProxy({
      mcpServers: { f: nodeServer(FAULT, ['stdio'], { env: { FAULT_MARKER: marker }, protocol: 'auto' }) },
    });
    try {
      const backend = proxy.core.health().find((entry) => entry.id === 'f');
      expect(backend).toMatchObject({ status: 'up' });
      expect(backend?.era).toBe('modern');
      // No second copy for the probe: the serving instance alone carries the marker.
      expect(marked(marker)).toEqual([backend?.pid]);
      const client = await proxy.connect('modern');
      expect(firstText(await client.callTool({ name: 'f__echo', arguments: { text: 'auto' } }))).toBe('auto');
    } finally {
      await proxy.close();
    }
    await waitUntil(() => marked(marker).length === 0);
  });
});
