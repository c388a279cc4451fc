/**
 * Observability through a real `serve`: metrics on /metrics (refused without a
 * token, counting a real tools/call through a real HTTP fixture server), an
 * OTLP trace checked in a receiver in this process (the client's span, the
 * request's span under it, the backend call's span under that, and the
 * backend's own request carrying its traceparent), JSON log lines with a
 * request id and no secret; and with nothing configured, /metrics is 404 and
 * neither OpenTelemetry nor prom-client is loaded at all.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { firstText, fixture } from '../../helpers/harness.js';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../../helpers/otlpReceiver.js';
import { startServeHttp, type ServedHttp } from '../../helpers/serveHttp.js';
import { spawnServer, type SpawnedServer } from '../../helpers/spawnServer.js';

const METRICS_TOKEN = 'metrics-token-for-the-scraper-42';
/** The client's own span: its request must become the parent of ours. */
const CLIENT_TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const CLIENT_SPAN = '00f067aa0ba902b7';
const MODULE_HOOK = join(import.meta.dirname, '../../helpers/moduleLog.mjs');
// ioredis and Redlock too: Redis (a `cluster` section) is no more loaded on a laptop than observability.
const WATCHED = '/@opentelemetry/,/prom-client/,/ioredis/,/redlock/';

/** A 2026-07-28 (or any era, negotiated) SDK client of `serve`, sending `headers` on every request. */
async function modernClient(serve: ServedHttp, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'observability-test', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
  const requestInit = { headers: { Authorization: `Bearer ${serve.token}`, ...headers } };
  await client.connect(new StreamableHTTPClientTransport(new URL(serve.url), { requestInit }));
  return client;
}

function metricsUrl(serve: ServedHttp): string {
  return new URL('/metrics', serve.url).href;
}

async function scrape(serve: ServedHttp, token = METRICS_TOKEN): Promise<string> {
  const response = await fetch(metricsUrl(serve), { headers: { Authorization: `Bearer ${token}` } });
  expect(response.status).toBe(200);
  return response.text();
}

/** The value of one series (`name{labels}`), or undefined when absent. */
function series(text: string, name: string, labels: Record<string, string>): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    const [head = '', value] = line.split(/\s+/);
    const present = Object.entries(labels).every(([key, wanted]) => head.includes(`${key}="${wanted}"`));
    if (present) return Number(value);
  }
  return undefined;
}

/** Each serve's own record of the packages it loaded (moduleLog.mjs). */
function moduleLogEnv(file: string): Record<string, string> {
  return { NODE_OPTIONS: `--import=${MODULE_HOOK}`, MODULE_LOG_FILE: file, MODULE_LOG_MATCH: WATCHED };
}

let backend: SpawnedServer;
let receiver: OtlpReceiver;
/** A serve with metrics, traces and JSON logs on. */
let serve: ServedHttp;
/** A serve with nothing configured. */
let laptop: ServedHttp;
let moduleDir: string;

beforeAll(async () => {
  moduleDir = await mkdtemp(join(tmpdir(), 'switchboard-modules-'));
  [backend, receiver] = await Promise.all([
    spawnServer([fixture('http-server.mjs')], /LISTENING (\S+)/, { PORT: '0' }),
    startOtlpReceiver(),
  ]);
  const observed = {
    mcpServers: { h: { url: backend.match[1] } },
    observability: {
      metrics: { token: '${SCRAPE_TOKEN}' },
      tracing: { endpoint: receiver.url, serviceName: 'switchboard-test' },
      logFormat: 'json',
    },
  };
  // Spans leave in batches: small ones, often, for the test.
  const env = { SCRAPE_TOKEN: METRICS_TOKEN, OTEL_BSP_SCHEDULE_DELAY: '50' };
  [serve, laptop] = await Promise.all([
    startServeHttp(observed, { env: { ...env, ...moduleLogEnv(join(moduleDir, 'modules.log')) } }),
    startServeHttp({ mcpServers: {} }, { env: moduleLogEnv(join(moduleDir, 'laptop-modules.log')) }),
  ]);
  // The backend is up once its tools are listed through serve.
  const client = await modernClient(serve);
  // vi.waitFor gives up after 1 s by default: a loaded machine takes longer to start two serves and list.
  await vi.waitFor(async () => expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('h__echo'), {
    timeout: 30_000,
    interval: 100,
  });
  await client.close();
});

afterAll(async () => {
  await Promise.allSettled([serve?.stop(), laptop?.stop()]);
  await Promise.allSettled([backend?.stop(), receiver?.close()]);
  await rm(moduleDir, { recursive: true, force: true });
});

describe('observability configured: metrics, traces, JSON logs', () => {
  it('refuses /metrics without a token or with a wrong one, and takes the metrics token or the main token', async () => {
    expect((await fetch(metricsUrl(serve))).status).toBe(401);
    const wrong = await fetch(metricsUrl(serve), { headers: { Authorization: 'Bearer not-the-token' } });
    expect(wrong.status).toBe(401);
    const text = await scrape(serve);
    expect(text).toContain('# TYPE switchboard_requests_total counter');
    expect(series(text, 'switchboard_backend_state', { server: 'h', state: 'up' })).toBe(1);
    expect(series(text, 'switchboard_backend_state', { server: 'h', state: 'down' })).toBe(0);
    await scrape(serve, serve.token);
  });

  it('counts a real tools/call: requests by method and era, latency for that server and tool, errors by code', async () => {
    const client = await modernClient(serve);
    expect(firstText(await client.callTool({ name: 'h__echo', arguments: { text: 'hi' } }))).toBe('hi');
    expect((await client.callTool({ name: 'h__fail', arguments: {} })).isError).toBe(true);
    await client.close();
    const legacy = await serve.connect();
    await legacy.callTool({ name: 'h__echo', arguments: { text: 'old' } });
    const text = await scrape(serve);
    expect(series(text, 'switchboard_requests_total', { method: 'tools/call', era: 'modern' })).toBeGreaterThanOrEqual(
      2,
    );
    expect(series(text, 'switchboard_requests_total', { method: 'initialize', era: 'legacy' })).toBeGreaterThanOrEqual(
      1,
    );
    const echoes = { server: 'h', kind: 'tools/call', tool: 'echo' };
    expect(series(text, 'switchboard_request_duration_seconds_count', echoes)).toBeGreaterThanOrEqual(2);
    expect(
      series(text, 'switchboard_request_duration_seconds_bucket', { ...echoes, le: '+Inf' }),
    ).toBeGreaterThanOrEqual(2);
    expect(series(text, 'switchboard_errors_total', { server: 'h', code: 'tool_error' })).toBeGreaterThanOrEqual(1);
    expect(/^switchboard_sessions (\d+)$/m.exec(text)?.[1]).toBe('1');
    expect(series(text, 'switchboard_backend_queue_depth', { server: 'h' })).toBe(0);
  });

  it('traces a call: the client span is the parent, the backend call is a child span, the backend gets a traceparent', async () => {
    const client = await modernClient(serve, { traceparent: `00-${CLIENT_TRACE}-${CLIENT_SPAN}-01` });
    const seen = JSON.parse(firstText(await client.callTool({ name: 'h__trace_context', arguments: {} }))) as {
      traceparent: string | null;
    };
    await client.close();
    // The backend's request carried our trace, under the backend call's span.
    const [, trace, parent] = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/.exec(seen.traceparent ?? '') ?? [];
    expect(trace).toBe(CLIENT_TRACE);
    let request: ReceivedSpan | undefined;
    let call: ReceivedSpan | undefined;
    await vi.waitFor(() => {
      call = receiver.spans.find((span) => span.spanId === parent);
      expect(call).toBeDefined();
      request = receiver.spans.find((span) => span.spanId === call?.parentSpanId);
      expect(request).toBeDefined();
    });
    expect(call).toMatchObject({ traceId: CLIENT_TRACE, kind: 3 });
    expect(call?.attributes).toMatchObject({
      'switchboard.server': 'h',
      'switchboard.tool': 'trace_context',
      'switchboard.outcome': 'ok',
      'switchboard.principal.kind': 'client',
    });
    expect(request).toMatchObject({ traceId: CLIENT_TRACE, parentSpanId: CLIENT_SPAN, kind: 2, name: 'tools/call' });
    expect(request?.attributes).toMatchObject({ 'mcp.method.name': 'tools/call', 'http.response.status_code': 200 });
    // The principal is there only hashed.
    const principal = String(call?.attributes['switchboard.principal.hash']);
    expect(principal).toMatch(/^[0-9a-f]{16}$/);
    expect(receiver.contentTypes.every((type) => type.includes('application/json'))).toBe(true);
    const modules = await readFile(join(moduleDir, 'modules.log'), 'utf8');
    expect(modules).toContain('/@opentelemetry/sdk-trace-node/');
  });

  it('writes JSON log lines, each request with its request id, and no token in any of them', async () => {
    const response = await fetch(serve.url, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${serve.token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-11-25',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    const requestId = response.headers.get('x-request-id');
    expect(requestId).toMatch(/^[0-9a-f]{16}$/);
    await response.arrayBuffer();
    await vi.waitFor(() => expect(serve.stderr()).toContain(requestId!));
    const lines = serve
      .stderr()
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.find((line) => line['requestId'] === requestId)).toMatchObject({ level: 'info', msg: 'request' });
    expect(
      lines.filter((line) => line['msg'] === 'request').every((line) => typeof line['requestId'] === 'string'),
    ).toBe(true);
    expect(serve.stderr()).not.toContain(serve.token);
    expect(serve.stderr()).not.toContain(METRICS_TOKEN);
  });
});

describe('observability not configured (laptop mode)', () => {
  it('answers /metrics with 404, token or not, and loads neither OpenTelemetry, prom-client nor ioredis', async () => {
    const client = await modernClient(laptop);
    await client.listTools();
    await client.close();
    expect((await fetch(metricsUrl(laptop))).status).toBe(404);
    const withToken = await fetch(metricsUrl(laptop), { headers: { Authorization: `Bearer ${laptop.token}` } });
    expect(withToken.status).toBe(404);
    const modules = await readFile(join(moduleDir, 'laptop-modules.log'), 'utf8').catch(() => '');
    expect(modules).toBe('');
    // Text log lines, as before.
    expect(laptop.stderr()).not.toMatch(/^\{"time"/m);
  });
});
