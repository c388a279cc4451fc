/**
 * SEP-2243 parameter headers through a real `serve`: a 2026-07-28 HTTP
 * backend (our param-headers fixture, an SDK McpServer) declares
 * `x-mcp-header` parameters. A 2026-07-28 client calling the tool through
 * Switchboard must send them as `Mcp-Param-*` headers: missing, badly encoded
 * or disagreeing ones get HTTP 400 with JSON-RPC -32020 (HeaderMismatch), as
 * the conformance suite's http-custom-header-server-validation scenario asks;
 * a 2025-era client is not concerned. On the way out, the backend receives
 * the headers its schema asks for (the fixture reports what it got).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { firstText, fixture } from '../../helpers/harness.js';
import { startServeHttp, type ServedHttp } from '../../helpers/serveHttp.js';
import { spawnServer, type SpawnedServer } from '../../helpers/spawnServer.js';
import { MODERN_REVISION, postRpc, type RpcOutcome, type WireTarget } from '../../helpers/tasks2026Wire.js';

const TOOL = 'ph__locate';
const base64 = (text: string) => `=?base64?${Buffer.from(text, 'utf8').toString('base64')}?=`;

/** What the fixture's locate tool reports: its arguments and the Mcp-Param-* headers its request carried. */
interface Located {
  region: string;
  shard?: number;
  headers: Record<string, string>;
}

describe('Mcp-Param-* headers (SEP-2243) through serve', () => {
  let backend: SpawnedServer;
  /** The same fixture declaring the tasks extension: task-declaring calls go to it as raw requests. */
  let taskBackend: SpawnedServer;
  let serve: ServedHttp;
  let target: WireTarget;

  /** A raw 2026-07-28 tools/call with the _meta envelope (declaring `capabilities`), the standard headers and `headers`. */
  const call = (
    name: string,
    args: Record<string, unknown>,
    headers: Record<string, string> = {},
    capabilities: Record<string, unknown> = {},
  ) =>
    postRpc(
      target,
      {
        method: 'tools/call',
        params: {
          name,
          arguments: args,
          _meta: {
            'io.modelcontextprotocol/protocolVersion': MODERN_REVISION,
            'io.modelcontextprotocol/clientInfo': { name: 'param-headers-test', version: '1.0.0' },
            'io.modelcontextprotocol/clientCapabilities': capabilities,
          },
        },
      },
      { headers },
    );

  /** The 2026-07-28 tools/list of serve. */
  const listTools = async () => {
    const listed = await postRpc(target, {
      method: 'tools/list',
      params: {
        _meta: {
          'io.modelcontextprotocol/protocolVersion': MODERN_REVISION,
          'io.modelcontextprotocol/clientInfo': { name: 'param-headers-test', version: '1.0.0' },
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    });
    if (listed.kind === 'error') throw new Error(`tools/list: ${JSON.stringify(listed.error)}`);
    return listed.result.tools as { name: string; inputSchema: unknown }[];
  };

  const located = (outcome: RpcOutcome): Located => {
    if (outcome.kind === 'error') throw new Error(`HTTP ${outcome.httpStatus}: ${JSON.stringify(outcome.error)}`);
    return JSON.parse(firstText(outcome.result as { content?: unknown })) as Located;
  };

  const expectMismatch = (outcome: RpcOutcome, header: string, why: RegExp) => {
    expect(outcome).toMatchObject({ kind: 'error', httpStatus: 400, error: { code: -32020 } });
    if (outcome.kind !== 'error') return;
    expect(outcome.error.message).toMatch(why);
    expect(outcome.error.data).toEqual({ mismatch: { header } });
  };

  beforeAll(async () => {
    backend = await spawnServer([fixture('param-headers.mjs')], /LISTENING (\S+)/);
    taskBackend = await spawnServer([fixture('param-headers.mjs')], /LISTENING (\S+)/, {
      DECLARE_TASKS_EXTENSION: '1',
    });
    serve = await startServeHttp({
      mcpServers: { ph: { url: backend.match[1] }, pt: { url: taskBackend.match[1] } },
    });
    target = { url: serve.url, headers: { authorization: `Bearer ${serve.token}` } };
    // Both backends' tools in the catalog before any call (serve answers while they connect).
    await vi.waitFor(
      async () => {
        const names = (await listTools()).map((tool) => tool.name);
        if (!names.includes(TOOL) || !names.includes('pt__locate')) throw new Error(`listed so far: ${names}`);
      },
      { timeout: 20_000, interval: 100 },
    );
  }, 60_000);
  afterAll(async () => {
    await serve?.stop();
    await backend?.stop();
    await taskBackend?.stop();
  });

  it('lists the tool with its x-mcp-header declarations, as the backend wrote them', async () => {
    const locate = (await listTools()).find((tool) => tool.name === TOOL);
    expect(locate?.inputSchema).toMatchObject({
      properties: { region: { 'x-mcp-header': 'Region' }, shard: { 'x-mcp-header': 'Shard' } },
    });
  });

  it('runs a call whose headers agree, and the backend receives them', async () => {
    const got = located(
      await call(TOOL, { region: 'eu-west', shard: 7 }, { 'Mcp-Param-Region': 'eu-west', 'MCP-PARAM-SHARD': '7' }),
    );
    expect(got).toEqual({
      region: 'eu-west',
      shard: 7,
      headers: { 'mcp-param-region': 'eu-west', 'mcp-param-shard': '7' },
    });
  });

  it('decodes a Base64 header value, and mirrors non-ASCII values to the backend Base64-encoded', async () => {
    const got = located(await call(TOOL, { region: 'Zürich' }, { 'Mcp-Param-Region': base64('Zürich') }));
    expect(got).toEqual({ region: 'Zürich', headers: { 'mcp-param-region': base64('Zürich') } });
  });

  it('takes a value without the full =?base64?…?= sentinel literally', async () => {
    const literal = `=?base64?${Buffer.from('Hello').toString('base64')}`;
    expect(located(await call(TOOL, { region: literal }, { 'Mcp-Param-Region': literal })).region).toBe(literal);
  });

  it('refuses a missing header with 400 / -32020', async () => {
    expectMismatch(await call(TOOL, { region: 'eu-west' }), 'Mcp-Param-Region', /Mcp-Param-Region header is missing/);
    const shardOnly = await call(TOOL, { region: 'eu-west', shard: 1 }, { 'Mcp-Param-Region': 'eu-west' });
    expectMismatch(shardOnly, 'Mcp-Param-Shard', /Mcp-Param-Shard header is missing/);
  });

  it('refuses badly encoded Base64 (padding, alphabet) with 400 / -32020', async () => {
    for (const bad of ['=?base64?SGVsbG8?=', '=?base64?SGVs!!!bG8=?=']) {
      expectMismatch(await call(TOOL, { region: 'Hello' }, { 'Mcp-Param-Region': bad }), 'Mcp-Param-Region', /Base64/);
    }
  });

  it('refuses a header that disagrees with the arguments with 400 / -32020, echoing neither value', async () => {
    const outcome = await call(TOOL, { region: 'secret-eu' }, { 'Mcp-Param-Region': 'secret-us' });
    expectMismatch(outcome, 'Mcp-Param-Region', /does not match the argument region/);
    expect(JSON.stringify(outcome)).not.toMatch(/secret-/);
    expectMismatch(
      await call(TOOL, { region: 'eu', shard: 2 }, { 'Mcp-Param-Region': 'eu', 'Mcp-Param-Shard': '3' }),
      'Mcp-Param-Shard',
      /does not match/,
    );
  });

  it('gives a task-declaring call to a 2026-07-28 backend with the tasks extension its headers too', async () => {
    const tasks = { extensions: { 'io.modelcontextprotocol/tasks': {} } };
    const headers = { 'Mcp-Param-Region': base64('Zürich'), 'Mcp-Param-Shard': '5' };
    const got = located(await call('pt__locate', { region: 'Zürich', shard: 5 }, headers, tasks));
    expect(got).toEqual({
      region: 'Zürich',
      shard: 5,
      headers: { 'mcp-param-region': base64('Zürich'), 'mcp-param-shard': '5' },
    });
    expectMismatch(await call('pt__locate', { region: 'eu' }, {}, tasks), 'Mcp-Param-Region', /missing/);
  });

  it('asks nothing of tools without declarations', async () => {
    const echoed = await call('ph__echo', { text: 'plain' });
    expect(echoed.kind === 'result' && firstText(echoed.result as { content?: unknown })).toBe('plain');
  });

  it('lets a 2026-07-28 SDK client call the tool: it sends the headers itself from the listed schema', async () => {
    const client = new Client(
      { name: 'param-headers-sdk', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: MODERN_REVISION } } },
    );
    const transport = new StreamableHTTPClientTransport(new URL(serve.url), {
      requestInit: { headers: { Authorization: `Bearer ${serve.token}` } },
    });
    await client.connect(transport);
    try {
      await client.listTools();
      const result = await client.callTool({ name: TOOL, arguments: { region: 'ap-south', shard: 3 } });
      const got = JSON.parse(firstText(result)) as Located;
      expect(got.headers).toEqual({ 'mcp-param-region': 'ap-south', 'mcp-param-shard': '3' });
    } finally {
      await client.close();
    }
  });

  it('leaves 2025-era clients alone: no headers asked, and the backend still gets its own', async () => {
    const client = await serve.connect();
    const got = JSON.parse(
      firstText(await client.callTool({ name: TOOL, arguments: { region: 'us-east' } })),
    ) as Located;
    expect(got).toEqual({ region: 'us-east', headers: { 'mcp-param-region': 'us-east' } });
  });
});
