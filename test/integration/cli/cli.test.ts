/**
 * The `mcp-switchboard` command as a user runs it: the built bin script as a
 * child process, with a throwaway config directory.
 */
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { BIN, runCli, serveStdio } from '../../helpers/cli.js';
import { firstText, fixture, nodeServer, tempDir } from '../../helpers/harness.js';
import { descendantPids, isAlive, waitUntil } from '../../helpers/processes.js';
import { spawnServer } from '../../helpers/spawnServer.js';

const run = runCli;

describe('mcp-switchboard CLI', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let env: Record<string, string>;
  let configPath: string;

  beforeEach(async () => {
    dir = await tempDir();
    env = { XDG_CONFIG_HOME: join(dir.path, 'xdg'), SWITCHBOARD_TOKEN: '' };
    configPath = join(dir.path, 'config.json');
  });
  afterEach(() => dir.cleanup());

  it('check-config prints one line per problem naming the file and the field', async () => {
    await writeFile(
      configPath,
      JSON.stringify({
        proxy: { maxBackends: 0, requestTimeoutMs: 'soon' },
        mcpServers: {
          '1bad': { command: 'x' },
          weird: { url: 'http://127.0.0.1:1/mcp', type: 'websocket' },
          typo: { command: 'node', serialise: true },
        },
      }),
    );
    const result = await run(['check-config', '--config', configPath], env);
    expect(result.code).toBe(1);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.stringMatching(new RegExp(`^${configPath}: proxy\\.maxBackends: `)),
        expect.stringMatching(new RegExp(`^${configPath}: proxy\\.requestTimeoutMs: `)),
      ]),
    );
    expect(result.stderr).toContain(`${configPath}: mcpServers.1bad: invalid backend ID "1bad"`);
    expect(result.stderr).toContain(`${configPath}: mcpServers.weird.type: unknown transport "websocket"`);
    expect(result.stderr).toContain(`${configPath}: mcpServers.typo: unknown key(s): serialise`);
  });

  it('check-config reports invalid JSON with its line and column, and unset ${VAR} references', async () => {
    await writeFile(configPath, '{\n  "mcpServers": {\n    "a": { "command": "x", }\n  }\n}\n');
    const broken = await run(['check-config', '--config', configPath], env);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toMatch(new RegExp(`^${configPath}: \\(line 3, column \\d+\\): not valid JSON`));
    await writeFile(
      configPath,
      JSON.stringify({ mcpServers: { gh: { command: 'node', env: { TOKEN: '${SWITCHBOARD_TEST_UNSET_VAR}' } } } }),
    );
    const unset = await run(['check-config', '--config', configPath], env);
    expect(unset.code).toBe(1);
    expect(unset.stderr).toContain(
      'mcpServers.gh.env.TOKEN: environment variable ${SWITCHBOARD_TEST_UNSET_VAR} is not set',
    );
    await writeFile(configPath, JSON.stringify({ mcpServers: { ok: { command: 'node' } } }));
    const good = await run(['check-config', '--config', configPath], env);
    expect(good).toMatchObject({ code: 0, stdout: `${configPath}: OK (1 backends)\n` });
  });

  it('serve refuses to start on an invalid config, naming the field', async () => {
    await writeFile(configPath, JSON.stringify({ proxy: { requestTimeoutMs: -5 } }));
    const result = await run(['serve', '--config', configPath, '--port', '0'], env);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`${configPath}: proxy.requestTimeoutMs:`);
  });

  it('serve prints the endpoint, keeps a generated token for the next start, and reaps children on SIGTERM', async () => {
    await writeFile(
      configPath,
      JSON.stringify({ mcpServers: { tree: nodeServer(fixture('faulty.mjs'), ['spawn-grandchild']) } }),
    );
    const start = async () => {
      const server = await spawnServer(
        [BIN, 'serve', '--config', configPath, '--port', '0'],
        /Bearer token: (\S+)/,
        env,
      );
      const url = /MCP endpoint: (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(await outputOf(server))?.[1];
      if (!url) throw new Error('no endpoint line');
      return { server, url, token: server.match[1]! };
    };
    const first = await start();
    const tokenFile = join(dir.path, 'xdg', 'mcp-switchboard', 'frontend-token');
    expect((await readFile(tokenFile, 'utf8')).trim()).toBe(first.token);
    expect((await stat(tokenFile)).mode & 0o777).toBe(0o600);
    const readyz = first.url.replace(/\/mcp$/, '/readyz');
    await waitUntil(async () => (await fetch(readyz)).status === 200, { timeoutMs: 15_000 });
    const client = new Client({ name: 'cli-test', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(first.url), {
        requestInit: { headers: { Authorization: `Bearer ${first.token}` } },
      }),
    );
    const grandchild = Number(firstText(await client.callTool({ name: 'tree__grandchild_pid', arguments: {} })));
    const tree = await descendantPids(first.server.child.pid!);
    expect(tree).toContain(grandchild);
    await client.close();
    await first.server.stop();
    await waitUntil(() => tree.every((pid) => !isAlive(pid)), { description: 'the backend tree to be reaped' });

    const second = await start();
    try {
      expect(second.token).toBe(first.token);
    } finally {
      await second.server.stop();
    }
  });

  it('serve --stdio serves the merged catalog to a client that launches it', async () => {
    await writeFile(configPath, JSON.stringify({ mcpServers: { one: nodeServer(fixture('configurable.mjs')) } }));
    const client = new Client({ name: 'stdio-test', version: '1' });
    const transport = new StdioClientTransport(serveStdio(configPath, undefined, env));
    await client.connect(transport);
    try {
      await waitUntil(async () => (await client.listTools()).tools.some((tool) => tool.name === 'one__echo'), {
        timeoutMs: 15_000,
      });
      expect(firstText(await client.callTool({ name: 'one__echo', arguments: { via: 'stdio' } }))).toBe(
        'echo:{"via":"stdio"}',
      );
      const proxyPid = transport.pid!;
      const tree = await descendantPids(proxyPid);
      expect(tree.length).toBeGreaterThan(0);
      await client.close();
      await waitUntil(() => !isAlive(proxyPid) && tree.every((pid) => !isAlive(pid)), {
        description: 'the stdio proxy and its backends to exit when stdin closes',
      });
    } finally {
      await client.close();
    }
  });
});

/** Everything the spawned server printed so far (stdout). */
async function outputOf(server: Awaited<ReturnType<typeof spawnServer>>): Promise<string> {
  return server.match.input ?? '';
}
