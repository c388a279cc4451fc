/**
 * Rate limits through a real `serve`, with real SDK clients of both eras: a
 * 10-per-minute tool refuses a caller's 11th call with the retryable
 * `rate_limited` error and the time to wait, while another caller's calls go
 * through at the same time; the refused call never reaches the server (the
 * fixture writes down each call it gets); a 2026-07-28 request gets HTTP 429
 * with Retry-After; the audit log keeps the refusal, and `audit export` gives
 * it as JSON lines filtered by client.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1HttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ClientTokens } from '../../../electron/core/catalog/index.js';
import { fixture, nodeServer } from '../../helpers/harness.js';
import { runCli } from '../../helpers/cli.js';
import { startServeHttp, type ServedHttp } from '../../helpers/serveHttp.js';
import { MODERN_REVISION, requestHeaders } from '../../helpers/tasks2026Wire.js';

const LIMITED = 'gh__create_issue';
const PROFILES = ['alice', 'bob', 'carol'] as const;

describe('rate limits through serve', () => {
  let dir: string;
  let calls: string;
  let serve: ServedHttp;
  const tokens: Record<string, string> = {};
  const closing: { close(): Promise<void> }[] = [];

  /** A 2025-era client (SDK v1) of a profile. */
  const legacyClient = async (profile: string) => {
    const client = new V1Client({ name: `limits-${profile}`, version: '1.0.0' });
    const requestInit = { headers: { Authorization: `Bearer ${tokens[profile]}` } };
    await client.connect(new V1HttpTransport(new URL(serve.url), { requestInit }));
    closing.push(client);
    return client;
  };
  /** A 2026-07-28 client (SDK v2, pinned) of a profile. */
  const modernClient = async (profile: string) => {
    const client = new Client(
      { name: `limits-${profile}`, version: '1.0.0' },
      { versionNegotiation: { mode: { pin: MODERN_REVISION } } },
    );
    const requestInit = { headers: { Authorization: `Bearer ${tokens[profile]}` } };
    await client.connect(new StreamableHTTPClientTransport(new URL(serve.url), { requestInit }));
    closing.push(client);
    return client;
  };
  /** The calls of `tool` the server received. */
  const received = async (tool: string) =>
    (await readFile(calls, 'utf8').catch(() => '')).split('\n').filter((line) => line === tool).length;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'switchboard-limits-'));
    calls = join(dir, 'calls.log');
    const config = {
      mcpServers: {
        gh: nodeServer(fixture('configurable.mjs'), [], {
          env: { FIXTURE_TOOLS: 'create_issue,search', FIXTURE_CALLS_FILE: calls },
        }),
      },
      policy: {
        clients: Object.fromEntries(PROFILES.map((id) => [id, { name: id }])),
        limits: [{ match: {}, server: 'gh', tool: 'create_issue', rate: { points: 10, perSeconds: 60 } }],
      },
    };
    serve = await startServeHttp(config, {
      prepare: async (configDir) => {
        const issuer = new ClientTokens(join(configDir, 'client-tokens.json'));
        for (const id of PROFILES) tokens[id] = await issuer.issue(id);
      },
    });
    const probe = await legacyClient('alice');
    await vi.waitFor(
      async () => {
        const names = (await probe.listTools()).tools.map((tool) => tool.name);
        if (!names.includes(LIMITED)) throw new Error(`listed so far: ${names.join(', ')}`);
      },
      { timeout: 20_000, interval: 100 },
    );
  }, 60_000);
  afterAll(async () => {
    await Promise.allSettled(closing.map((client) => client.close()));
    await serve?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it("refuses alice's 11th call (2025 era) with rate_limited and retryAfterMs while bob's (2026) go through; the server never gets it", async () => {
    const [alice, bob] = await Promise.all([legacyClient('alice'), modernClient('bob')]);
    const call = (client: V1Client | Client, n: number) =>
      client.callTool({ name: LIMITED, arguments: { n } }).then(
        () => 'ok',
        (error: unknown) => error,
      );
    const [aliceOutcomes, bobOutcomes] = await Promise.all([
      Promise.all(Array.from({ length: 10 }, (_, n) => call(alice, n))),
      Promise.all(Array.from({ length: 10 }, (_, n) => call(bob, n))),
    ]);
    expect(aliceOutcomes).toEqual(Array(10).fill('ok'));
    expect(bobOutcomes).toEqual(Array(10).fill('ok'));

    const refused = await call(alice, 11);
    expect(refused).toMatchObject({
      code: -32000,
      data: {
        code: 'rate_limited',
        retryable: true,
        limit: { points: 10, perSeconds: 60 },
        scope: { rule: 0, caller: 'client:alice', server: 'gh', tool: 'create_issue' },
      },
    });
    const { retryAfterMs } = (refused as { data: { retryAfterMs: number } }).data;
    expect(retryAfterMs).toBeGreaterThan(0);
    expect(retryAfterMs).toBeLessThanOrEqual(60_000);
    // Another tool of the same server is not limited. Bob's 11th is refused too: the 2026 SDK client
    // reads only a 400's body as a JSON-RPC error, so it reports the 429 with the error as its text.
    await expect(alice.callTool({ name: 'gh__search', arguments: {} })).resolves.toBeDefined();
    expect(await call(bob, 11)).toMatchObject({
      data: { status: 429, text: expect.stringContaining('"code":"rate_limited"') },
    });
    expect(await received('create_issue')).toBe(20);
  });

  it('answers a refused 2026-07-28 request with HTTP 429 and Retry-After', async () => {
    const params = {
      name: LIMITED,
      arguments: {},
      _meta: {
        'io.modelcontextprotocol/protocolVersion': MODERN_REVISION,
        'io.modelcontextprotocol/clientInfo': { name: 'limits-raw', version: '1.0.0' },
        'io.modelcontextprotocol/clientCapabilities': {},
      },
    };
    const post = (id: number) =>
      fetch(serve.url, {
        method: 'POST',
        headers: { ...requestHeaders('tools/call', params), authorization: `Bearer ${tokens['carol']}` },
        body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params }),
        signal: AbortSignal.timeout(15_000),
      });
    for (let id = 1; id <= 10; id++) expect((await post(id)).status).toBe(200);
    const response = await post(11);
    expect(response.status).toBe(429);
    const retryAfter = Number(response.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(await response.json()).toMatchObject({
      jsonrpc: '2.0',
      id: 11,
      error: { code: -32000, data: { code: 'rate_limited', retryAfterMs: expect.any(Number) } },
    });
  });

  it('audits each refusal, and audit export writes JSON lines of one client', async () => {
    const exported = async () => {
      const result = await runCli(['audit', 'export', '--client', 'alice'], serve.env);
      expect(result).toMatchObject({ code: 0, stderr: '' });
      return result.stdout
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>);
    };
    // The log gathers lines for a moment before writing them.
    const entries = await vi.waitFor(
      async () => {
        const found = await exported();
        expect(found.some((entry) => entry['errorCode'] === 'rate_limited')).toBe(true);
        return found;
      },
      { timeout: 5_000, interval: 100 },
    );
    expect(entries.every((entry) => entry['client'] === 'alice')).toBe(true);
    expect(entries.filter((entry) => entry['outcome'] === 'ok' && entry['item'] === 'create_issue')).toHaveLength(10);
    expect(entries.filter((entry) => entry['errorCode'] === 'rate_limited')).toEqual([
      expect.objectContaining({
        backend: 'gh',
        kind: 'tools/call',
        item: 'create_issue',
        outcome: 'denied',
        detail: expect.stringContaining('10 per 60 s'),
      }),
    ]);
    const out = join(dir, 'export.jsonl');
    const written = await runCli(['audit', 'export', '--client', 'bob', '--out', out], serve.env);
    expect(written).toMatchObject({ code: 0, stderr: expect.stringMatching(/^Wrote 11 audit entries/) });
    const lines = (await readFile(out, 'utf8')).trimEnd().split('\n');
    expect(lines.map((line) => (JSON.parse(line) as { client: string }).client)).toEqual(Array(11).fill('bob'));
    expect(await runCli(['audit', 'export', '--since', 'yesterday'], serve.env)).toMatchObject({ code: 2 });
  });
});
