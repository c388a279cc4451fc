/**
 * One-shot clients through `connect` with nothing running (issue 18 item 6):
 * `connect` starts serve and relays only once every enabled backend has had
 * its first connection attempt, so a first `tools/call` right after
 * `initialize` succeeds and a first `tools/list` is complete, in both eras,
 * with a backend that starts slowly and one that never starts (which must not
 * hold the client beyond its first attempt).
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client, type ClientOptions } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readRuntimeFile } from '../../../electron/core/install/index.js';
import { BIN } from '../../helpers/cli.js';
import { EVERYTHING, firstText, fixture, nodeServer, tempDir } from '../../helpers/harness.js';
import { descendantPids, isAlive, waitUntil } from '../../helpers/processes.js';

/** A stdio server that takes 1.5 s before it reads its first message (the configurable fixture, late). */
const slowStart = {
  command: process.execPath,
  args: ['-e', `setTimeout(() => import(${JSON.stringify(fixture('configurable.mjs'))}), 1500)`],
};

describe('connect with nothing running', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let env: Record<string, string>;
  let configPath: string;
  let client: Client | undefined;

  beforeEach(async () => {
    dir = await tempDir();
    configPath = join(dir.path, 'config.json');
    await writeFile(
      configPath,
      JSON.stringify({
        mcpServers: {
          everything: nodeServer(EVERYTHING, ['stdio']),
          late: slowStart,
          broken: { command: process.execPath, args: ['-e', 'process.exit(3)'] },
        },
      }),
    );
    env = {
      ...(process.env as Record<string, string>),
      HOME: join(dir.path, 'home'),
      XDG_STATE_HOME: join(dir.path, 'state'),
      XDG_CONFIG_HOME: join(dir.path, 'xdg'),
      SWITCHBOARD_TOKEN: '',
    };
  });

  afterEach(async () => {
    await client?.close();
    client = undefined;
    const info = await readRuntimeFile(join(dir.path, 'state', 'mcp-switchboard'));
    if (info && isAlive(info.pid)) {
      const tree = await descendantPids(info.pid);
      process.kill(info.pid, 'SIGTERM');
      await waitUntil(() => !isAlive(info.pid) && tree.every((pid) => !isAlive(pid)), { timeoutMs: 10_000 });
    }
    await dir.cleanup();
  });

  async function connect(options: ClientOptions = {}): Promise<Client> {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'connect', '--config', configPath, '--port', '0'],
      env,
      stderr: 'ignore',
    });
    client = new Client({ name: 'one-shot', version: '1' }, options);
    await client.connect(transport);
    return client;
  }

  it('answers the first tools/call (2025-11-25 session) without a list first', async () => {
    const session = await connect();
    expect(session.getNegotiatedProtocolVersion()).toBe('2025-11-25');
    const echoed = await session.callTool({ name: 'everything__echo', arguments: { message: 'first' } });
    expect(echoed.isError).toBeFalsy();
    expect(firstText(echoed as { content?: unknown })).toContain('first');
    const late = await session.callTool({ name: 'late__echo', arguments: { n: 1 } });
    expect(firstText(late as { content?: unknown })).toBe('echo:{"n":1}');
  }, 60_000);

  it('gives a complete first tools/list (2026-07-28 stateless)', async () => {
    const stateless = await connect({ versionNegotiation: { mode: { pin: '2026-07-28' } } });
    const names = (await stateless.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain('late__echo');
    const everything = names.filter((name) => name.startsWith('everything__'));
    expect(everything).toContain('everything__echo');
    // The same list a moment later: nothing was still on its way in.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await stateless.listTools()).tools.map((tool) => tool.name).sort()).toEqual([...names].sort());
  }, 60_000);
});
