/**
 * `mcp-switchboard override` through the built CLI against a real running
 * `serve`: set, show and clear an override (the running instance applies it
 * without restarting the server, and its clients see the new name), a fixed
 * value the tool's schema refuses is refused before anything is written,
 * naming the field, and bad flags are usage errors.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { runCli } from '../../helpers/cli.js';
import { fixture, tempDir } from '../../helpers/harness.js';
import { waitUntil } from '../../helpers/processes.js';
import { startServeHttp, type ServedHttp } from '../../helpers/serveHttp.js';

const TOOLS = [
  {
    name: 'read_file',
    description: 'Reads a file',
    inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  },
];

describe('override command', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let served: ServedHttp;
  let client: Client;
  const run = (...args: string[]) => runCli([...args, '--config', served.configPath], served.env);
  const names = async () => (await client.listTools()).tools.map((tool) => tool.name);
  const onDisk = async () =>
    (JSON.parse(await readFile(served.configPath, 'utf8')) as { mcpServers: { fs: { overrides?: unknown } } })
      .mcpServers.fs.overrides;

  beforeAll(async () => {
    dir = await tempDir();
    const toolsFile = join(dir.path, 'tools.json');
    await writeFile(toolsFile, JSON.stringify(TOOLS));
    served = await startServeHttp({
      mcpServers: {
        fs: { command: process.execPath, args: [fixture('configurable.mjs')], env: { FIXTURE_TOOLS_FILE: toolsFile } },
      },
      policy: { clients: { cursor: { name: 'Cursor' } } },
    });
    client = await served.connect();
    await waitUntil(async () => (await names()).includes('fs__read_file'));
  });
  afterAll(async () => {
    await served?.stop();
    await dir?.cleanup();
  });

  it('sets an override the running instance applies at once, shows it, and clears it', async () => {
    const set = await run(
      'override',
      'fs',
      'read_file',
      '--name',
      'read_note',
      '--read-only',
      '--fix',
      'path="/notes/a.md"',
    );
    expect(set).toMatchObject({ code: 0 });
    expect(await onDisk()).toEqual({
      tools: {
        read_file: {
          name: 'read_note',
          annotations: { readOnlyHint: true },
          arguments: { path: { fixed: '/notes/a.md' } },
        },
      },
    });
    await waitUntil(async () => (await names()).includes('fs__read_note'));
    const result = await client.callTool({ name: 'fs__read_note', arguments: {} });
    expect(JSON.stringify(result.content)).toContain('read_file:{\\"path\\":\\"/notes/a.md\\"}');

    const shown = await run('override', 'fs', 'read_file');
    expect(shown.code).toBe(0);
    expect(JSON.parse(shown.stdout.slice(shown.stdout.indexOf('{')))).toMatchObject({ name: 'read_note' });

    const profile = await run('override', 'fs', 'read_file', '--description', 'For Cursor', '--profile', 'cursor');
    expect(profile.code).toBe(0);
    const policy = (JSON.parse(await readFile(served.configPath, 'utf8')) as { policy: unknown }).policy;
    expect(policy).toMatchObject({
      clients: { cursor: { overrides: { fs: { tools: { read_file: { description: 'For Cursor' } } } } } },
    });

    expect((await run('override', 'fs', 'read_file', '--clear')).code).toBe(0);
    expect(await onDisk()).toBeUndefined();
    await waitUntil(async () => (await names()).includes('fs__read_file'));
  });

  it('refuses a fixed value the tool schema refuses, naming the field, and writes nothing', async () => {
    const before = await readFile(served.configPath, 'utf8');
    const refused = await run('override', 'fs', 'read_file', '--fix', 'path=42');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('mcpServers.fs.overrides.tools.read_file.arguments.path.fixed: must be string');
    expect(await readFile(served.configPath, 'utf8')).toBe(before);
  });

  it('answers bad flags with a usage error', async () => {
    const notJson = await run('override', 'fs', 'read_file', '--fix', 'path=/notes');
    expect(notJson.code).toBe(2);
    expect(notJson.stderr).toMatch(/must be JSON/);
    expect((await run('override', 'fs', 'read_file', '--read-only', '--no-read-only')).code).toBe(2);
    expect((await run('override', 'fs', 'summarize', '--prompt', '--fix', 'a=1')).code).toBe(2);
    const unknown = await run('override', 'nope', 'read_file', '--name', 'x');
    expect(unknown).toMatchObject({ code: 1, stderr: expect.stringContaining('no server "nope"') });
  });
});
