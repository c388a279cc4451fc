/**
 * An endpoint per server and per profile, over the real HTTP endpoint with real
 * SDK clients of both eras and real child servers: `/servers/<id>/mcp` lists
 * one server's items under its own names and URIs, calls them, keeps the
 * policy, progress and tasks; `/profiles/<name>/mcp` serves one profile's view
 * to the tokens that may use it. One proxy for the whole file.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1HttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { ClientTokens } from '../../../electron/core/catalog/index.js';
import { firstText, fixture, nodeServer, ROOT, startProxy, tempDir, type Harness } from '../../helpers/harness.js';
import { connectTasks2026 } from '../../helpers/tasks2026Client.js';

const JOBS = join(ROOT, 'test/fixtures/tasks-2025/jobs.mjs');
const ERAS = ['legacy', 'modern'] as const;

describe('an endpoint per server and per profile', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let proxy: Harness;
  const tokens: Record<string, string> = {};
  const opened: { close(): Promise<void> }[] = [];
  const base = (): string => proxy.url.replace(/\/mcp$/, '');

  /** A v2 client of `era` on `path` with `token` (default: the main token). */
  async function connect(path: string, era: (typeof ERAS)[number], token = proxy.token): Promise<Client> {
    const client = new Client(
      { name: `endpoints-${era}`, version: '1.0.0' },
      era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
    );
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${base()}${path}`), {
        requestInit: { headers: { Authorization: `Bearer ${token}` } },
      }),
    );
    opened.push(client);
    return client;
  }
  const names = async (client: Client): Promise<string[]> => (await client.listTools()).tools.map((t) => t.name).sort();
  const post = (path: string, token?: string): Promise<Response> =>
    fetch(`${base()}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      }),
    });

  beforeAll(async () => {
    dir = await tempDir();
    proxy = await startProxy(
      {
        mcpServers: {
          odd: nodeServer(fixture('odd-names.mjs')),
          slow: nodeServer(fixture('slow.mjs')),
          jobs: nodeServer(JOBS),
          off: { ...nodeServer(fixture('slow.mjs')), enabled: false },
          renamed: {
            ...nodeServer(fixture('slow.mjs')),
            overrides: { tools: { sleep: { name: 'nap', description: 'Naps for ms milliseconds' } } },
          },
          broken: { command: process.execPath, args: ['-e', 'process.exit(3)'] },
        },
        policy: { backends: { slow: { tools: { hang: 'deny' } } } },
      },
      { tokens: new ClientTokens(join(dir.path, 'client-tokens.json')) },
    );
    tokens['alice'] = await proxy.core.profiles.createProfile('alice', { name: 'alice', backends: ['odd', 'jobs'] });
    tokens['bob'] = await proxy.core.profiles.createProfile('bob', { name: 'bob' });
  });
  afterAll(async () => {
    await Promise.allSettled(opened.map((client) => client.close()));
    await proxy?.close();
    await dir?.cleanup();
  });

  describe.each(ERAS)('/servers/<id>/mcp, %s client', (era) => {
    it("lists only that server's tools under their own names and calls one", async () => {
      const client = await connect('/servers/odd/mcp', era);
      const listed = await names(client);
      expect(listed).toEqual(expect.arrayContaining(['ok_name', 'read_file', 'links']));
      expect(listed.some((name) => name.includes('__'))).toBe(false);
      expect(listed).not.toContain('sleep');
      // The model is told the names are the server's own, not prefixed.
      expect(client.getInstructions()).toContain('"odd" under their own names');
      const result = await client.callTool({ name: 'ok_name', arguments: { x: 1 } });
      expect(firstText(result)).toBe('called ok_name with {"x":1}');
      // Another server's tool is unknown here, even under its own name.
      await expect(client.callTool({ name: 'sleep', arguments: { ms: 1 } })).rejects.toThrow(/Unknown tool: sleep/);
    });

    it("serves resources, templates and results under the server's own URIs", async () => {
      const client = await connect('/servers/odd/mcp', era);
      expect((await client.listResources()).resources.map((r) => r.uri).sort()).toEqual(['note://a', 'note://b']);
      expect((await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate)).toContain(
        'note://tpl/{id}',
      );
      const read = await client.readResource({ uri: 'note://tpl/7' });
      expect(read.contents[0]).toMatchObject({ uri: 'note://tpl/7', text: 'read note://tpl/7' });
      const links = await client.callTool({ name: 'links', arguments: {} });
      const uris = (links.content as { type: string; uri?: string; resource?: { uri: string } }[]).map(
        (block) => block.uri ?? block.resource?.uri,
      );
      expect(uris).toEqual(expect.arrayContaining(['note://a', 'note://tpl/42', 'note://b']));
      expect(uris.some((uri) => uri?.startsWith('mcp-proxy://'))).toBe(false);
      const prompt = await client.getPrompt({ name: 'summarize', arguments: { topic: 't' } });
      expect(JSON.stringify(prompt.messages)).toContain('"note://a"');
    });

    it('keeps the policy: a denied tool is absent and cannot be called; a profile that lacks the server sees nothing', async () => {
      const client = await connect('/servers/slow/mcp', era);
      const listed = await names(client);
      expect(listed).toContain('sleep');
      expect(listed).not.toContain('hang');
      await expect(client.callTool({ name: 'hang', arguments: {} })).rejects.toThrow(/Unknown tool: hang/);
      const alice = await connect('/servers/slow/mcp', era, tokens['alice']);
      expect(await names(alice)).toEqual([]);
    });

    it("shows the server's overrides under the overridden name, without prefix, and calls it", async () => {
      const client = await connect('/servers/renamed/mcp', era);
      const { tools } = await client.listTools();
      const nap = tools.find((tool) => tool.name === 'nap');
      expect(nap?.description).toBe('Naps for ms milliseconds');
      expect(tools.map((tool) => tool.name)).not.toContain('sleep');
      const result = await client.callTool({ name: 'nap', arguments: { ms: 1 } });
      expect(result.isError).not.toBe(true);
    });

    it('relays progress under the client’s own token', async () => {
      const client = await connect('/servers/slow/mcp', era);
      const seen: number[] = [];
      await client.callTool(
        { name: 'sleep', arguments: { ms: 200, steps: 4 } },
        { onprogress: (progress) => seen.push(progress.progress) },
      );
      expect(seen.length).toBeGreaterThanOrEqual(2);
    });
  });

  it('runs a 2025-11-25 task through a server endpoint, under the tool’s own name', async () => {
    const client = new V1Client({ name: 'tasks', version: '1.0.0' });
    await client.connect(
      new V1HttpTransport(new URL(`${base()}/servers/jobs/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${proxy.token}` } },
      }),
    );
    opened.push(client);
    const support = Object.fromEntries(
      (await client.listTools()).tools.map((tool) => [tool.name, tool.execution?.taskSupport]),
    );
    expect(support).toMatchObject({ long: 'required' });
    const { task } = await client.request(
      { method: 'tools/call', params: { name: 'long', arguments: { tag: 's', steps: 2, stepMs: 20 }, task: {} } },
      CreateTaskResultSchema,
    );
    const result = await client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
    expect(firstText(result as { content?: unknown })).toBe('long(s) after 2 steps');
    expect((await client.experimental.tasks.listTasks()).tasks.map((t) => t.taskId)).toContain(task.taskId);
  });

  it('runs a 2026-07-28 task through a server endpoint', async () => {
    const tasks = await connectTasks2026(`${base()}/servers/jobs/mcp`, {
      headers: { Authorization: `Bearer ${proxy.token}` },
    });
    opened.push(tasks);
    const created = await tasks.createTask('long', { tag: 'm', steps: 2, stepMs: 20 });
    const done = await tasks.waitForStatus(created.taskId, ['completed', 'failed', 'cancelled']);
    expect(done.status).toBe('completed');
    expect(firstText((done as { result: { content?: unknown } }).result)).toBe('long(m) after 2 steps');
  });

  it('answers 404 naming an unknown or disabled server, after the token check', async () => {
    for (const id of ['nope', 'off']) {
      const response = await post(`/servers/${id}/mcp`, proxy.token);
      expect(response.status).toBe(404);
      const body = (await response.json()) as { error: { message: string } };
      expect(body.error.message).toContain(`no server "${id}"`);
    }
    expect((await post('/servers/nope/mcp')).status).toBe(401);
  });

  it('serves an empty catalog for a server that is down', async () => {
    const client = await connect('/servers/broken/mcp', 'legacy');
    expect(await names(client)).toEqual([]);
    expect(proxy.core.backends.health().find((h) => h.id === 'broken')?.status).toBe('down');
  });

  describe('/profiles/<name>/mcp', () => {
    it.each(ERAS)("serves the profile's view to the main token and to its own token (%s)", async (era) => {
      for (const token of [proxy.token, tokens['alice']]) {
        const listed = await names(await connect('/profiles/alice/mcp', era, token));
        expect(listed).toContain('odd__ok_name');
        expect(listed.some((name) => name.startsWith('slow__'))).toBe(false);
      }
    });

    it("refuses another profile's token (403), no token (401) and an unknown profile (404)", async () => {
      const forbidden = await post('/profiles/alice/mcp', tokens['bob']);
      expect(forbidden.status).toBe(403);
      expect(((await forbidden.json()) as { error: { message: string } }).error.message).toMatch(
        /client profile "bob".*not profile "alice"/,
      );
      expect((await post('/profiles/alice/mcp')).status).toBe(401);
      const unknown = await post('/profiles/carol/mcp', proxy.token);
      expect(unknown.status).toBe(404);
      expect(((await unknown.json()) as { error: { message: string } }).error.message).toContain(
        'no client profile "carol"',
      );
    });
  });

  it('leaves /mcp as it is: prefixed names of every server', async () => {
    const client = await connect('/mcp', 'legacy');
    expect(client.getInstructions()).toContain('start with the name of the server');
    const listed = await names(client);
    expect(listed).toEqual(expect.arrayContaining(['odd__ok_name', 'slow__sleep', 'jobs__long', 'renamed__nap']));
  });
});
