/**
 * Tool overrides through the real endpoint, real SDK clients of both eras and
 * real fixture servers: what the model sees (renamed, described, annotated,
 * arguments fixed or defaulted), what the backend receives, a profile's
 * override seen only by that profile, a prompt and a resource offered as
 * tools, search mode finding the overridden description, pinning still
 * holding an upstream change under an override, and the request log naming
 * both names.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { AuditLog, ClientTokens, PinStore } from '../../../electron/core/catalog/index.js';
import { firstText, fixture, nodeServer, startProxy, tempDir, type Harness } from '../../helpers/harness.js';
import { waitUntil } from '../../helpers/processes.js';

const TOOLS = [
  {
    name: 'read_file',
    description: 'Reads a file',
    inputSchema: {
      type: 'object',
      properties: { path: { type: 'string' }, encoding: { type: 'string' }, lines: { type: 'number' } },
      required: ['path', 'encoding'],
    },
  },
  { name: 'write_file', description: 'Writes a file', inputSchema: { type: 'object', properties: {} } },
];

const eras = ['legacy', 'modern'] as const;
const text = (result: unknown): string => firstText(result as { content?: unknown });
const toolNamed = async (client: Client, name: string) => (await client.listTools()).tools.find((t) => t.name === name);

describe('tool overrides', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let proxy: Harness;
  let audit: AuditLog;
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    dir = await tempDir();
    const toolsFile = join(dir.path, 'tools.json');
    await writeFile(toolsFile, JSON.stringify(TOOLS));
    const pins = new PinStore(join(dir.path, 'pins.json'));
    await pins.load();
    audit = new AuditLog({ dir: join(dir.path, 'audit') });
    proxy = await startProxy(
      {
        mcpServers: {
          fs: {
            ...nodeServer(fixture('configurable.mjs'), [], {
              env: {
                FIXTURE_TOOLS_FILE: toolsFile,
                FIXTURE_PROMPTS: 'summarize',
                FIXTURE_RESOURCES: 'file:///notes/index.md',
              },
            }),
            overrides: {
              tools: {
                read_file: {
                  name: 'read_note',
                  title: 'Read a note',
                  description: 'Reads the note of the day from the notebook',
                  annotations: { readOnlyHint: true, openWorldHint: false },
                  arguments: {
                    path: { fixed: '/notes/today.md' },
                    encoding: { default: 'utf8', description: 'text encoding' },
                  },
                },
              },
              promptsAsTools: { summarize: { description: 'Summarize the notes' } },
              resourcesAsTools: { 'file:///notes/index.md': { name: 'notes_index' } },
            },
          },
          mut: {
            ...nodeServer(fixture('mutable.mjs')),
            overrides: { tools: { echo: { description: 'Says it back' } } },
          },
        },
        policy: { backends: { fs: { capture: true } } },
      },
      { tokens: new ClientTokens(join(dir.path, 'client-tokens.json')), pins, audit },
    );
    const profiles = proxy.core.profiles;
    tokens['cursor'] = await profiles.createProfile('cursor', {
      name: 'Cursor',
      overrides: {
        fs: {
          tools: {
            read_file: { name: 'today', description: 'Cursor: the note of today', arguments: { lines: { fixed: 10 } } },
          },
        },
      },
    });
    tokens['searcher'] = await profiles.createProfile('searcher', { name: 'Searcher', exposure: 'search' });
    tokens['grocer'] = await profiles.createProfile('grocer', {
      name: 'Grocer',
      exposure: 'search',
      overrides: { fs: { tools: { write_file: { description: 'Adds an item to the grocery shopping list' } } } },
    });
  });
  afterAll(async () => {
    await proxy?.close();
    await audit?.close();
    await dir?.cleanup();
  });

  it.each(eras)(
    'lists the overridden definition: name, title, description, annotations, arguments (%s)',
    async (era) => {
      const client = await proxy.connect(era);
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).toContain('fs__read_note');
      expect(names).not.toContain('fs__read_file');
      const tool = await toolNamed(client, 'fs__read_note');
      expect(tool).toMatchObject({
        title: 'Read a note',
        description: 'Reads the note of the day from the notebook',
        annotations: { readOnlyHint: true, openWorldHint: false },
      });
      const schema = tool!.inputSchema as { properties: Record<string, { default?: unknown }>; required?: string[] };
      expect(Object.keys(schema.properties)).toEqual(['encoding', 'lines']);
      expect(schema.properties['encoding']).toMatchObject({
        type: 'string',
        default: 'utf8',
        description: 'text encoding',
      });
      expect(schema.required).toBeUndefined();
      expect(await toolNamed(client, 'fs__write_file')).toMatchObject({ description: 'Writes a file' });
    },
  );

  it.each(eras)(
    'sends the fixed value and fills the default; a client setting a hidden argument is refused (%s)',
    async (era) => {
      const client = await proxy.connect(era);
      const result = await client.callTool({ name: 'fs__read_note', arguments: { lines: 3 } });
      expect(JSON.parse(text(result).replace(/^read_file:/, ''))).toEqual({
        lines: 3,
        path: '/notes/today.md',
        encoding: 'utf8',
      });
      const own = await client.callTool({ name: 'fs__read_note', arguments: { encoding: 'latin1' } });
      expect(text(own)).toContain('"encoding":"latin1"');
      const refused = await client
        .callTool({ name: 'fs__read_note', arguments: { path: '/etc/passwd' } })
        .catch((error: unknown) => error);
      expect(refused).toMatchObject({ code: -32602 });
      expect((refused as Error).message).toMatch(/"path" is fixed by the configuration/);
      await expect(client.callTool({ name: 'fs__read_file', arguments: {} })).rejects.toMatchObject({ code: -32602 });
    },
  );

  it.each(eras)("lays a profile's override over the server's, for that profile only (%s)", async (era) => {
    const cursor = await proxy.connect(era, tokens['cursor']);
    const tool = await toolNamed(cursor, 'fs__today');
    expect(tool).toMatchObject({ title: 'Read a note', description: 'Cursor: the note of today' });
    expect(Object.keys((tool!.inputSchema as { properties: object }).properties)).toEqual(['encoding']);
    expect(await toolNamed(cursor, 'fs__read_note')).toBeUndefined();
    const result = await cursor.callTool({ name: 'fs__today', arguments: {} });
    expect(JSON.parse(text(result).replace(/^read_file:/, ''))).toEqual({
      path: '/notes/today.md',
      encoding: 'utf8',
      lines: 10,
    });
    await expect(cursor.callTool({ name: 'fs__today', arguments: { lines: 1 } })).rejects.toMatchObject({
      code: -32602,
    });

    const local = await proxy.connect(era);
    expect(await toolNamed(local, 'fs__today')).toBeUndefined();
    expect(await toolNamed(local, 'fs__read_note')).toMatchObject({
      description: 'Reads the note of the day from the notebook',
    });
  });

  it.each(eras)('offers a prompt and a resource as tools (%s)', async (era) => {
    const client = await proxy.connect(era);
    expect(await toolNamed(client, 'fs__summarize')).toMatchObject({
      description: 'Summarize the notes',
      annotations: { readOnlyHint: true },
    });
    expect(await toolNamed(client, 'fs__notes_index')).toMatchObject({ inputSchema: { type: 'object' } });
    const prompt = await client.callTool({ name: 'fs__summarize', arguments: { topic: 'x' } });
    expect(text(prompt)).toBe('summarize:{"topic":"x"}');
    const read = await client.callTool({ name: 'fs__notes_index', arguments: {} });
    expect(text(read)).toBe('read file:///notes/index.md');
    // The prompt and the resource stay themselves too.
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toContain('fs__summarize');
  });

  it('search mode finds a tool by its overridden description, under its overridden name', async () => {
    const client = await proxy.connect('modern', tokens['searcher']);
    const result = await client.callTool({
      name: 'search_tools',
      arguments: { query: 'note of the day notebook', limit: 3 },
    });
    const found = (result.structuredContent as { tools: { name: string; purpose: string }[] }).tools;
    expect(found[0]).toMatchObject({
      name: 'fs__read_note',
      purpose: 'Reads the note of the day from the notebook',
    });
  });

  it("search mode finds a tool by its profile's own description, for that profile only", async () => {
    const query = async (token: string | undefined) => {
      const client = await proxy.connect('legacy', token);
      const result = await client.callTool({ name: 'search_tools', arguments: { query: 'grocery shopping list' } });
      return (result.structuredContent as { tools: { name: string; purpose: string }[] }).tools;
    };
    expect((await query(tokens['grocer']))[0]).toMatchObject({
      name: 'fs__write_file',
      purpose: 'Adds an item to the grocery shopping list',
    });
    expect((await query(tokens['searcher'])).map((tool) => tool.name)).not.toContain('fs__write_file');
  });

  it('records the name the client called and the upstream name in the request log', async () => {
    const client = await proxy.connect('legacy');
    await client.callTool({ name: 'fs__read_note', arguments: {} });
    await waitUntil(async () => (await audit.query({})).some((e) => e.exposed === 'fs__read_note'));
    const entry = (await audit.query({})).find((e) => e.exposed === 'fs__read_note');
    expect(entry).toMatchObject({ item: 'read_file', backend: 'fs', outcome: 'ok' });
  });

  it('still holds a changed upstream definition under an override (pins are of the upstream definition)', async () => {
    const client = await proxy.connect('legacy');
    expect(await toolNamed(client, 'mut__echo')).toMatchObject({ description: 'Says it back' });
    await client.callTool({ name: 'mut__redescribe', arguments: {} });
    await waitUntil(async () => (await toolNamed(client, 'mut__echo')) === undefined);
    const change = proxy.core.policy.pinChanges().find((c) => c.tool === 'echo');
    expect(change?.offered.definition.description).toMatch(/evil\.example/);
    expect(change?.pinned?.definition.description).toBe('echo');
  });
});
