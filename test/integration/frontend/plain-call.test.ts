/**
 * The fast path of a plain 2026-07-28 tools/call (frontend/http/plainCall.ts)
 * against the full path: two proxies over the same fixture servers, one with
 * the fast path and one with SWITCHBOARD_FULL_PATH=1, are called alike by real
 * SDK clients of both eras, and every tools/call answer must be the same
 * bytes (status, content type, body), for plain results, structured content,
 * errors, progress, a cancelled call, a deny, an `ask`, an override, a task-only
 * tool, an input request and a resource link. A 2025-era client never takes
 * the fast path; it is compared too, so the knob changes nothing there. The
 * same knob turns off the backend side's relay of a plain call
 * (backends/connection/plainRelay.ts), so both eras also compare the relay
 * against the SDK client, over stdio and over HTTP (a 2026-07-28 HTTP
 * backend's results and its JSON-RPC error).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { EVERYTHING, ROOT, fixture, nodeServer, startProxy, type Harness } from '../../helpers/harness.js';
import { waitUntil } from '../../helpers/processes.js';
import { FULL_PATH_ENV, PlainCalls } from '../../../electron/core/frontend/http/plainCall.js';
import { PlainRelay } from '../../../electron/core/backends/index.js';
import { spawnServer, type SpawnedServer } from '../../helpers/spawnServer.js';

const JOBS = join(ROOT, 'test/fixtures/tasks-2025/jobs.mjs');

/** The proxies' servers; `web` (a 2026-07-28 HTTP server) is started first. */
const config = (web: string) => ({
  mcpServers: {
    web: { url: web },
    everything: nodeServer(EVERYTHING, ['stdio']),
    slow: nodeServer(fixture('slow.mjs')),
    asks: nodeServer(fixture('asks.mjs')),
    jobs: nodeServer(JOBS),
    faults: nodeServer(fixture('fault-server.mjs'), ['stdio']),
    cfg: {
      ...nodeServer(fixture('configurable.mjs'), [], { env: { FIXTURE_TOOLS: 'read_file,plain,hidden' } }),
      overrides: { tools: { read_file: { name: 'read_note', arguments: { path: { fixed: '/notes/today.md' } } } } },
    },
  },
  policy: { backends: { cfg: { tools: { hidden: 'deny' } }, slow: { tools: { echo: 'ask' } } } },
});

/** One tools/call answer as it left the proxy. */
interface Answer {
  call: string;
  status: number;
  type: string | null;
  body: string;
}

/** Run-specific strings (task and session ids, SSE event ids, timings) made comparable. */
function comparable(body: string): string {
  return body
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uuid>')
    .replace(/^id: .*$/gm, 'id: <id>')
    .replace(/"(createdAt|lastUpdatedAt)":"[^"]*"/g, '"$1":"<time>"');
}

/** A client whose tools/call answers are recorded byte for byte. */
async function recordingClient(proxy: Harness, era: 'legacy' | 'modern', answers: Promise<Answer>[]): Promise<Client> {
  const record: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    const sent =
      typeof init?.body === 'string' ? (JSON.parse(init.body) as { method?: string; params?: { name?: string } }) : {};
    if (sent.method === 'tools/call') {
      const copy = response.clone();
      const call = sent.params?.name ?? '';
      const status = response.status;
      const type = response.headers.get('content-type');
      // Read beside the client: a 2025-era stream ends only once the client has answered what it asks.
      const body = copy.text().then(comparable, () => '<aborted>');
      answers.push(body.then((text) => ({ call, status, type, body: text })));
    }
    return response;
  };
  const client = new Client(
    { name: `plain-${era}`, version: '1.0.0' },
    {
      capabilities: { elicitation: { form: {} } },
      ...(era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}),
    },
  );
  client.setRequestHandler('elicitation/create', () => ({ action: 'accept', content: { answer: 'yes' } }));
  const transport = new StreamableHTTPClientTransport(new URL(proxy.url), {
    requestInit: { headers: { Authorization: `Bearer ${proxy.token}` } },
    fetch: record,
  });
  await client.connect(transport);
  return client;
}

/** A 2026-07-28 tools/call as an SDK client sends it, with `change` applied to its headers and body. */
async function rawCall(
  proxy: Harness,
  label: string,
  change: (headers: Record<string, string>, body: { params: Record<string, unknown> }) => void,
): Promise<Answer> {
  const headers: Record<string, string> = {
    authorization: `Bearer ${proxy.token}`,
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': 'tools/call',
    'mcp-name': 'cfg__plain',
  };
  const meta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': {},
    'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1.0.0' },
  };
  const body = {
    jsonrpc: '2.0',
    id: 7,
    method: 'tools/call',
    params: { name: 'cfg__plain', arguments: { text: 'raw' }, _meta: meta } as Record<string, unknown>,
  };
  change(headers, body);
  const response = await fetch(proxy.url, { method: 'POST', headers, body: JSON.stringify(body) });
  const type = response.headers.get('content-type');
  return { call: label, status: response.status, type, body: comparable(await response.text()) };
}

/** Requests off the plain path's shape: each must get the full path's answer, byte for byte. */
function oddRequests(proxy: Harness): Promise<Answer>[] {
  const meta = (body: { params: Record<string, unknown> }) => body.params['_meta'] as Record<string, unknown>;
  return [
    rawCall(proxy, 'plain', () => undefined),
    rawCall(proxy, 'bad capabilities', (_, body) => {
      meta(body)['io.modelcontextprotocol/clientCapabilities'] = { roots: 'yes' };
    }),
    rawCall(proxy, 'no clientInfo', (_, body) => {
      delete meta(body)['io.modelcontextprotocol/clientInfo'];
    }),
    rawCall(proxy, 'no Mcp-Name', (headers) => {
      delete headers['mcp-name'];
    }),
    rawCall(proxy, 'other Mcp-Name', (headers) => {
      headers['mcp-name'] = 'cfg__read_note';
    }),
    rawCall(proxy, 'header version', (headers) => {
      headers['mcp-protocol-version'] = '2025-11-25';
    }),
    rawCall(proxy, 'null id', (_, body) => {
      (body as unknown as { id: unknown }).id = null;
    }),
    rawCall(proxy, 'arguments array', (_, body) => {
      body.params['arguments'] = ['x'];
    }),
    rawCall(proxy, 'extra param', (_, body) => {
      body.params['requestState'] = 'forged';
    }),
    rawCall(proxy, 'text/plain', (headers) => {
      headers['content-type'] = 'text/plain';
    }),
  ];
}

/** The same calls, in the same order, on one proxy; what each answered. */
async function callAll(proxy: Harness, era: 'legacy' | 'modern'): Promise<Answer[]> {
  const answers: Promise<Answer>[] = [];
  const client = await recordingClient(proxy, era, answers);
  const call = (name: string, args: Record<string, unknown> = {}, options = {}) =>
    client.callTool({ name, arguments: args }, options).catch((error: unknown) => ({ thrown: String(error) }));
  await call('slow__sleep', { ms: 1 }); // plain text
  await call('everything__echo', { message: 'hello ✓ "quoted"' });
  await call('everything__get-sum', { a: 2, b: 3 });
  await call('everything__get-structured-content', { location: 'New York' }); // structured content
  await call('everything__get-resource-links', { count: 2 }); // resource links, rewritten
  await call('everything__get-tiny-image'); // other content
  await call('faults__big', { bytes: 70_000 });
  await call('faults__deep', { depth: 5 });
  await call('no_such__tool'); // unknown
  await call('cfg__hidden'); // denied
  await call('cfg__read_note', {}); // override fixes an argument
  await call('cfg__read_note', { path: '/etc/passwd' }); // override refuses a fixed argument
  await call('cfg__plain', { x: 1 });
  await call('everything__get-sum', { a: 'not a number' }); // the backend's error
  await call('web__echo', { text: 'over HTTP' }); // a 2026-07-28 HTTP backend
  await call('web__add', { a: 2, b: 3 }); // its structured content
  await call('web__fail'); // its JSON-RPC error
  await call('slow__echo', { text: 'asked' }); // ask: the client approves
  await call('asks__ask', { tag: 't' }); // the backend's input request
  await call('jobs__long', { tag: 'j', steps: 2, stepMs: 5 }); // task-only tool, called plainly
  await call('jobs__quick', { tag: 'q' });
  const seen: number[] = [];
  await call('slow__sleep', { ms: 50, steps: 2 }, { onprogress: (p: { progress: number }) => seen.push(p.progress) });
  expect(seen.length).toBeGreaterThan(0);
  // Cancelled: the backend sees the cancellation whichever path the call took.
  const count = async () => {
    const result = (await client.callTool({ name: 'slow__cancelled_count', arguments: {} })) as {
      content: { text: string }[];
    };
    return Number(result.content[0]!.text);
  };
  const before = await count();
  const controller = new AbortController();
  const hanging = call('slow__hang', {}, { signal: controller.signal });
  await waitUntil(() => proxy.core.health().find((backend) => backend.id === 'slow')?.outstandingRequests === 1);
  controller.abort(new Error('stop'));
  await hanging;
  await waitUntil(async () => (await count()) === before + 1);
  await client.close();
  if (era === 'modern') answers.push(...oddRequests(proxy));
  // The cancelled call's own answer never arrives on either path; the count calls compare too.
  return (await Promise.all(answers)).filter((answer) => answer.call !== 'slow__hang');
}

describe('the fast path of a plain tools/call', () => {
  let fast: Harness;
  let full: Harness;
  let web: SpawnedServer;

  beforeAll(async () => {
    web = await spawnServer([fixture('http-server.mjs')], /LISTENING (\S+)/, { PORT: '0' });
    const before = process.env[FULL_PATH_ENV];
    fast = await startProxy(config(web.match[1]!));
    process.env[FULL_PATH_ENV] = '1';
    try {
      full = await startProxy(config(web.match[1]!));
    } finally {
      if (before === undefined) delete process.env[FULL_PATH_ENV];
      else process.env[FULL_PATH_ENV] = before;
    }
  }, 60_000);
  afterAll(async () => {
    await fast?.close();
    await full?.close();
    await web?.stop();
  });

  it.each(['modern', 'legacy'] as const)(
    'answers a %s client byte for byte as the full path does',
    async (era) => {
      const served = vi.spyOn(PlainCalls.prototype, 'serve');
      const relayed = vi.spyOn(PlainRelay.prototype, 'call');
      const viaFast = await callAll(fast, era);
      const fastCalls = served.mock.calls.length;
      const fastRelayed = relayed.mock.calls.length;
      const viaFull = await callAll(full, era);
      served.mockRestore();
      const fullRelayed = relayed.mock.calls.length - fastRelayed;
      relayed.mockRestore();
      // The backend relay took the plain calls to 2026-07-28 backends, over stdio and HTTP, for both eras.
      expect(fastRelayed).toBeGreaterThan(8);
      expect(fullRelayed).toBe(0);
      // The fast path served the plain calls of a 2026-07-28 client (none on the full proxy, none of a 2025 client).
      if (era === 'modern') expect(fastCalls).toBeGreaterThan(10);
      else expect(fastCalls).toBe(0);
      expect(viaFast.length).toBeGreaterThan(20);
      for (let i = 0; i < viaFull.length; i++) expect(viaFast[i], viaFull[i]?.call).toEqual(viaFull[i]);
      expect(viaFast.length).toBe(viaFull.length);
      if (process.env['PLAIN_CALL_DUMP']) console.log(JSON.stringify(viaFast, null, 1));
    },
    60_000,
  );
});
