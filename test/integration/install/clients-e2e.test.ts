/**
 * End to end: install every client into a throwaway HOME, then connect
 * exactly as each client would with what was written (spawn the command with
 * its env and a minimal PATH, or use the URL and headers) and call a tool
 * through Switchboard. mcp-remote, a third-party stdio-to-HTTP bridge, is
 * run against the endpoint as an independent client.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as V1StdioTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { parse as parseJsonc } from 'jsonc-parser';
import { parse as parseToml } from 'smol-toml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  clientDefinitions,
  type ClientDefinition,
  installClient,
  type ClientsContext,
  writeRuntimeFile,
} from '../../../electron/core/install/index.js';
import { linuxPlatform, populateHome } from '../../fixtures/client-configs/home.js';
import { ROOT, firstText, fixture, nodeServer, startProxy, tempDir, type Harness } from '../../helpers/harness.js';

const BIN = join(ROOT, 'bin/mcp-switchboard.js');
/** What a macOS GUI app or a bare service gets: no node, no npx on it. */
const MINIMAL_PATH = '/usr/bin:/bin';

function parseFile(definition: ClientDefinition, text: string): Record<string, unknown> {
  if (definition.format === 'toml') return parseToml(text) as Record<string, unknown>;
  return parseJsonc(text, [], { allowTrailingComma: true }) as Record<string, unknown>;
}

/** Expands `${VAR}` and `${env:VAR}` as Claude Code and Cursor do for project files. */
function expand(value: string, env: Record<string, string>): string {
  return value.replace(/\$\{(?:env:)?([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, name: string) => env[name] ?? '');
}

describe('installed entries, used as each client uses them', () => {
  let harness: Harness;
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let ctx: ClientsContext;
  let baseEnv: Record<string, string>;

  beforeAll(async () => {
    harness = await startProxy({ mcpServers: { one: nodeServer(fixture('configurable.mjs')) } });
    dir = await tempDir();
    const home = join(dir.path, 'home');
    baseEnv = { HOME: home, PATH: MINIMAL_PATH, XDG_STATE_HOME: join(dir.path, 'state') };
    const stateDir = join(dir.path, 'state', 'mcp-switchboard');
    ctx = {
      platform: linuxPlatform(home),
      stateDir,
      url: harness.url,
      launcher: { command: process.execPath, args: [BIN] },
      tokens: { tokenFor: async () => harness.token },
    };
    await populateHome(home);
    // The runtime file a running Switchboard publishes: `connect` finds this instance through it.
    await writeRuntimeFile(stateDir, {
      port: Number(new URL(harness.url).port),
      pid: process.pid,
      url: harness.url,
      startedAt: new Date().toISOString(),
    });
  });
  afterAll(async () => {
    await harness?.close();
    await dir?.cleanup();
  });

  async function callThroughEntry(definition: ClientDefinition, entry: Record<string, unknown>, env = baseEnv) {
    const client = new Client({ name: `as-${definition.id}`, version: '1' });
    if (typeof entry['command'] === 'string') {
      await client.connect(
        new StdioClientTransport({
          command: entry['command'],
          args: entry['args'] as string[],
          env: { ...env, ...(entry['env'] as Record<string, string>) },
          stderr: 'ignore',
        }),
      );
    } else {
      const url = (entry['url'] ?? entry['serverUrl']) as string;
      const raw = (entry['headers'] ?? entry['http_headers']) as Record<string, string>;
      const headers = Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, expand(v, env)]));
      await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
    }
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('one__echo');
      return firstText(await client.callTool({ name: 'one__echo', arguments: { from: definition.id } }));
    } finally {
      await client.close();
    }
  }

  for (const definition of clientDefinitions()) {
    it(`${definition.id}: the written ${definition.transport} entry reaches a tool through Switchboard`, async () => {
      const outcome = await installClient(ctx, definition.id);
      const parsed = parseFile(definition, await readFile(outcome.path, 'utf8'));
      const entry = (parsed[definition.container] as Record<string, Record<string, unknown>>)[definition.entryKey]!;
      if (definition.transport === 'stdio') {
        // Absolute paths only: the client's PATH may not hold node.
        expect(entry['command']).toBe(process.execPath);
        expect(JSON.stringify(entry['args'])).not.toContain(harness.token); // the token travels in env, not argv
      }
      expect(await callThroughEntry(definition, entry)).toBe(`echo:{"from":"${definition.id}"}`);
    });
  }

  it('claude-code project scope: the ${SWITCHBOARD_TOKEN} reference works once the variable is set', async () => {
    const project = join(dir.path, 'project');
    const outcome = await installClient(ctx, 'claude-code', { project });
    const definition = clientDefinitions().find((d) => d.id === 'claude-code')!;
    const entry = (JSON.parse(await readFile(outcome.path, 'utf8')) as { mcpServers: Record<string, never> })
      .mcpServers['sb']!;
    const env = { ...baseEnv, SWITCHBOARD_TOKEN: harness.token };
    expect(await callThroughEntry(definition, entry, env)).toBe('echo:{"from":"claude-code"}');
  });

  it('mcp-remote (third-party stdio bridge from npm) reaches a tool through the endpoint', async () => {
    const client = new V1Client({ name: 'via-mcp-remote', version: '1' });
    await client.connect(
      new V1StdioTransport({
        command: process.execPath,
        // mcp-remote's documented way to pass a header with a space: an env var referenced in the argument.
        args: [
          join(ROOT, 'node_modules/mcp-remote/dist/proxy.js'),
          harness.url,
          '--header',
          'Authorization:${SB_AUTH}',
        ],
        env: { ...baseEnv, SB_AUTH: `Bearer ${harness.token}` },
        stderr: 'ignore',
      }),
    );
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('one__echo');
      const result = await client.callTool({ name: 'one__echo', arguments: { via: 'mcp-remote' } });
      expect(firstText(result as { content?: unknown })).toBe('echo:{"via":"mcp-remote"}');
    } finally {
      await client.close();
    }
  });
});
