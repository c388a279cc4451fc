/**
 * Input requests across eras: a backend's elicitation/create, sampling/createMessage
 * and roots/list reach the frontend that made the call, and the answer goes back.
 * 2025-era backends push requests during the call (relayed directly to a 2025
 * frontend, parked behind an InputRequiredResult for a 2026 one); 2026-07-28
 * backends return InputRequiredResult (passed through to 2026 frontends, turned
 * into real requests for 2025 ones by our server's legacy shim).
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Client,
  type CallToolRequestParams,
  type ClientCapabilities,
  type InputRequiredResult,
} from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import {
  EVERYTHING,
  firstText,
  fixture,
  nodeServer,
  startProxy,
  tempDir,
  type Harness,
} from '../../helpers/harness.js';
import { waitUntil } from '../../helpers/processes.js';
import { spawnServer, type SpawnedServer } from '../../helpers/spawnServer.js';
import { serveStdio } from '../../helpers/cli.js';

const ASKS = fixture('asks.mjs');
const ALL_CAPABILITIES: ClientCapabilities = { elicitation: {}, sampling: {}, roots: {} };

type Era = 'legacy' | 'modern';

/** A frontend client that answers every input request and records what it was asked. */
interface Frontend {
  client: Client;
  name: string;
  /** Messages of the elicitations it was shown, in order. */
  asked: string[];
  /** Input methods it received, in order. */
  methods: string[];
}

interface FrontendOptions {
  capabilities?: ClientCapabilities;
  /** Runs before each elicitation is answered (a person taking their time, a barrier). */
  beforeAnswer?: (message: string) => Promise<void>;
}

/**
 * Connects a real SDK client of `era` whose handlers answer: elicitations with
 * `<name>/<message>` (or `{name}` for forms asking for a name), sampling as
 * model `<name>-model`, roots as `file:///<name>/project`.
 */
async function frontend(proxy: Harness, era: Era, name: string, options: FrontendOptions = {}): Promise<Frontend> {
  const capabilities = options.capabilities ?? ALL_CAPABILITIES;
  return answering(await proxy.connect(era, proxy.token, { capabilities }), name, capabilities, options);
}

/** Registers the answering handlers of {@link frontend} on `client`. */
function answering(
  client: Client,
  name: string,
  capabilities: ClientCapabilities,
  options: FrontendOptions = {},
): Frontend {
  const self: Frontend = { client, name, asked: [], methods: [] };
  if (capabilities.elicitation) {
    client.setRequestHandler('elicitation/create', async (request) => {
      const params = request.params as { message: string; requestedSchema?: { properties?: object } };
      self.methods.push('elicitation/create');
      self.asked.push(params.message);
      await options.beforeAnswer?.(params.message);
      const wantsName = params.requestedSchema?.properties && 'name' in params.requestedSchema.properties;
      const content: Record<string, string> = wantsName ? { name } : { answer: `${name}/${params.message}` };
      return { action: 'accept', content };
    });
  }
  if (capabilities.sampling) {
    client.setRequestHandler('sampling/createMessage', async () => {
      self.methods.push('sampling/createMessage');
      return { model: `${name}-model`, role: 'assistant', content: { type: 'text', text: `hi from ${name}` } };
    });
  }
  if (capabilities.roots) {
    client.setRequestHandler('roots/list', async () => {
      self.methods.push('roots/list');
      return { roots: [{ uri: `file:///${name}/project`, name }] };
    });
  }
  return self;
}

async function text(client: Client, name: string, args: Record<string, unknown> = {}): Promise<string> {
  return firstText((await client.callTool({ name, arguments: args })) as { content?: unknown });
}

/** A tools/call of a 2026 client that handles input_required itself (no automatic retry). */
async function manualCall(
  client: Client,
  params: CallToolRequestParams & { inputResponses?: Record<string, unknown>; requestState?: string },
  signal?: AbortSignal,
): Promise<InputRequiredResult | { content?: unknown }> {
  return (await client.callTool(params, { allowInputRequired: true, ...(signal ? { signal } : {}) })) as
    InputRequiredResult | { content?: unknown };
}

function outstanding(proxy: Harness, backendId: string): number | undefined {
  return proxy.core.health().find((backend) => backend.id === backendId)?.outstandingRequests;
}

async function fixtureStatus(client: Client, backend: string): Promise<{ cancelled: number; holding: string[] }> {
  return JSON.parse(await text(client, `${backend}__status`)) as { cancelled: number; holding: string[] };
}

describe('input requests across eras', () => {
  let proxy: Harness;
  let http: SpawnedServer;

  beforeAll(async () => {
    http = await spawnServer([ASKS, 'http'], /LISTENING (\S+)/, { PORT: '0' });
    const url = http.match[1];
    proxy = await startProxy({
      mcpServers: {
        old: nodeServer(ASKS, [], { protocol: 'legacy' }),
        new: nodeServer(ASKS, [], { protocol: '2026-07-28' }),
        probed: nodeServer(ASKS),
        oldhttp: { url, protocol: 'legacy' },
        newhttp: { url },
        every: nodeServer(EVERYTHING, ['stdio']),
        short: nodeServer(ASKS, [], { requestTimeoutMs: 300, protocol: 'legacy' }),
      },
    });
    // server-everything registers its elicitation/sampling tools once initialized, then says list_changed.
    await waitUntil(() => proxy.core.catalog().toolIndex.has('every__trigger-sampling-request'), {
      timeoutMs: 15_000,
      description: "server-everything's client-capability tools in the catalog",
    });
    // It also asks for roots 350 ms after initialize, outside any call; let that pass first so
    // it cannot land in (and be relayed by) a test's call.
    await waitUntil(() => proxy.core.pool.liveConnection('every')!.inputs.stats.outsideCall >= 1, {
      description: 'server-everything to ask for roots after initialize',
    });
  });
  afterAll(async () => {
    await proxy?.close();
    await http?.stop();
  });

  // `probed` and `every` have no `protocol`: a stdio server that speaks 2026-07-28 is spoken to in
  // it, one that answers the probe with an error (server-everything, SDK v1) in 2025.
  it('talks to each backend in the era the test expects', () => {
    const eras = Object.fromEntries(proxy.core.health().map((backend) => [backend.id, backend.era]));
    expect(eras).toMatchObject({
      old: 'legacy',
      new: 'modern',
      oldhttp: 'legacy',
      newhttp: 'modern',
      every: 'legacy',
      probed: 'modern',
    });
  });

  it('answers a roots/list outside any call with no roots, without asking a frontend', async () => {
    const fe = await frontend(proxy, 'legacy', 'rootless');
    const result = await fe.client.callTool({ name: 'every__get-roots-list', arguments: {} });
    // server-everything lists the roots it cached from its request after initialize.
    expect(firstText(result as { content?: unknown })).toContain('no roots are currently configured');
    expect(fe.methods).toEqual([]);
  });

  it.each([
    ['2025', 'old', 'legacy'],
    ['2025', 'old', 'modern'],
    ['2026', 'new', 'legacy'],
    ['2026', 'new', 'modern'],
  ] as const)(
    'an elicitation from a %s backend (%s) answered by a %s frontend completes the call',
    async (_label, backend, era) => {
      const fe = await frontend(proxy, era, `fe-${era}`);
      const tag = `${backend}-${era}`;
      expect(await text(fe.client, `${backend}__ask`, { tag })).toBe(
        `ask(${tag}) -> accept:fe-${era}/question for ${tag}?`,
      );
      expect(fe.asked).toEqual([`question for ${tag}?`]);
      expect(proxy.core.parkedCalls.size).toBe(0);
    },
  );

  it.each(['legacy', 'modern'] as const)(
    "server-everything's elicitation (2025, stdio) is answered by a %s frontend",
    async (era) => {
      const fe = await frontend(proxy, era, `everyone-${era}`);
      const result = await fe.client.callTool({ name: 'every__trigger-elicitation-request', arguments: {} });
      const all = (result.content as { text?: string }[]).map((block) => block.text).join('\n');
      expect(result.isError).toBeFalsy();
      expect(all).toContain('User provided the requested information');
      expect(all).toContain(`Name: everyone-${era}`);
      expect(fe.methods).toEqual(['elicitation/create']);
    },
  );

  it("server-everything's sampling (2025) is answered by a 2026 frontend", async () => {
    const fe = await frontend(proxy, 'modern', 'sampler');
    const result = await fe.client.callTool({
      name: 'every__trigger-sampling-request',
      arguments: { prompt: 'hello', maxTokens: 10 },
    });
    expect(result.isError).toBeFalsy();
    expect(firstText(result as { content?: unknown })).toContain('sampler-model');
    expect(fe.methods).toEqual(['sampling/createMessage']);
  });

  it("a 2026 backend's sampling is answered by a 2025 frontend", async () => {
    const fe = await frontend(proxy, 'legacy', 'sampler25');
    expect(await text(fe.client, 'new__sample', { tag: 's' })).toBe('sample(s) -> sampler25-model:hi from sampler25');
  });

  it.each([
    ['old', 'legacy'],
    ['new', 'modern'],
  ] as const)(
    'roots/list from the %s backend lists the roots of the %s frontend that made the call',
    async (backend, era) => {
      const fe = await frontend(proxy, era, `roots-${era}`);
      expect(await text(fe.client, `${backend}__roots`, { tag: 'r' })).toBe(`roots(r) -> file:///roots-${era}/project`);
      expect(fe.methods).toEqual(['roots/list']);
    },
  );

  it.each([
    ['old', 'legacy'],
    ['old', 'modern'],
    ['new', 'legacy'],
    ['new', 'modern'],
  ] as const)('two questions in a row on the %s backend reach a %s frontend in order', async (backend, era) => {
    const fe = await frontend(proxy, era, 'twice');
    expect(await text(fe.client, `${backend}__ask_twice`, { tag: 't' })).toBe(
      'ask_twice(t) -> twice/first question for t? + twice/second question for t?',
    );
    expect(fe.asked).toEqual(['first question for t?', 'second question for t?']);
  });

  it('two questions at once from a 2025 backend both reach a 2026 frontend', async () => {
    const fe = await frontend(proxy, 'modern', 'both');
    expect(await text(fe.client, 'old__ask_parallel', { tag: 'p' })).toBe(
      'ask_parallel(p) -> both/left question for p? | both/right question for p?',
    );
    expect([...fe.asked].sort()).toEqual(['left question for p?', 'right question for p?']);
  });

  it.each(['legacy', 'modern'] as const)(
    'a 2026 backend tool with an outputSchema answers a %s frontend with structured content',
    async (era) => {
      // SDK 2.4.0 bug: once the backend client has cached the tool's outputSchema (any
      // listTools() without cacheMode 'bypass' does), its callTool throws on an
      // input_required answer unless given a definition without the schema.
      await proxy.core.pool.liveConnection('new')!.sdkClient.listTools();
      const fe = await frontend(proxy, era, 'struct');
      const result = await fe.client.callTool({ name: 'new__ask_struct', arguments: { tag: 'o' } });
      expect(result.structuredContent).toEqual({ answer: 'struct/struct question for o?' });
    },
  );

  it.each([
    ['old', 'modern'],
    ['new', 'legacy'],
  ] as const)('prompts/get on the %s backend relays its question to a %s frontend', async (backend, era) => {
    const fe = await frontend(proxy, era, 'prompted');
    const result = await fe.client.getPrompt({ name: `${backend}__ask`, arguments: { tag: 'g' } });
    expect(result.messages[0]?.content).toEqual({
      type: 'text',
      text: 'ask(g) -> accept:prompted/prompt question for g?',
    });
  });

  it.each([
    ['legacy', 'legacy'],
    ['legacy', 'modern'],
    ['modern', 'modern'],
  ] as const)(
    'two calls at once from a %s and a %s frontend to one HTTP backend each get their own question',
    async (eraA, eraB) => {
      const tracker = proxy.core.pool.liveConnection('oldhttp')!.inputs;
      const scopedBefore = tracker.stats.byScope;
      // Neither answers before both were asked: both calls are in flight at once.
      const both: Frontend[] = [];
      const bothAsked = () =>
        waitUntil(() => both.length === 2 && both.every((fe) => fe.asked.length > 0), {
          description: 'both frontends to be asked',
        });
      const a = await frontend(proxy, eraA, 'A', { beforeAnswer: bothAsked });
      const b = await frontend(proxy, eraB, 'B', { beforeAnswer: bothAsked });
      both.push(a, b);
      const [textA, textB] = await Promise.all([
        text(a.client, 'oldhttp__ask', { tag: 'A' }),
        text(b.client, 'oldhttp__ask', { tag: 'B' }),
      ]);
      expect(textA).toBe('ask(A) -> accept:A/question for A?');
      expect(textB).toBe('ask(B) -> accept:B/question for B?');
      expect(a.asked).toEqual(['question for A?']);
      expect(b.asked).toEqual(['question for B?']);
      // Attributed by the async context of each call's POST stream, not by elimination.
      expect(tracker.stats.byScope - scopedBefore).toBe(2);
    },
  );

  it('a 2026 backend over HTTP (protocol auto) relays input too', async () => {
    const fe = await frontend(proxy, 'legacy', 'auto');
    expect(await text(fe.client, 'newhttp__ask', { tag: 'h' })).toBe('ask(h) -> accept:auto/question for h?');
  });

  it('over stdio, a question that could belong to calls of two frontends is refused, never shown to either', async () => {
    const tracker = proxy.core.pool.liveConnection('old')!.inputs;
    const ambiguousBefore = tracker.stats.ambiguous;
    const holder = await frontend(proxy, 'legacy', 'holder');
    const asker = await frontend(proxy, 'modern', 'asker');
    const held = holder.client.callTool({ name: 'old__hold', arguments: { tag: 'amb' } });
    await waitUntil(async () => (await fixtureStatus(asker.client, 'old')).holding.includes('amb'));
    await expect(asker.client.callTool({ name: 'old__ask', arguments: { tag: 'amb' } })).rejects.toThrow(
      /cannot tell which of 2 calls/,
    );
    expect(tracker.stats.ambiguous - ambiguousBefore).toBe(1);
    expect(holder.asked).toEqual([]);
    expect(asker.asked).toEqual([]);
    await text(asker.client, 'old__release', { tag: 'amb' });
    expect(firstText((await held) as { content?: unknown })).toBe('hold(amb)');
  });

  it('a frontend without the capability is not asked: the 2025 backend is refused, nothing is parked', async () => {
    const fe = await frontend(proxy, 'modern', 'bare', { capabilities: {} });
    await expect(fe.client.callTool({ name: 'old__ask', arguments: { tag: 'bare' } })).rejects.toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { elicitation: { form: {} } } },
    });
    expect(proxy.core.parkedCalls.size).toBe(0);
    expect(outstanding(proxy, 'old')).toBe(0);
  });

  it('a 2026 backend sees the frontend capabilities and refuses what it cannot ask (-32021)', async () => {
    const bare = await frontend(proxy, 'legacy', 'bare25', { capabilities: { sampling: {} } });
    expect(JSON.parse(await text(bare.client, 'new__caps'))).toEqual({ sampling: {} });
    await expect(bare.client.callTool({ name: 'new__ask', arguments: { tag: 'bare' } })).rejects.toMatchObject({
      code: -32021,
    });
  });

  // SEP-2575: a request that needs a capability the 2026 client did not declare is refused with
  // -32021 and HTTP 400, whichever era the backend speaks (2026: its own refusal, relayed; 2025:
  // the sampling request it sent is refused, and the call fails as a 2026 server would fail it).
  it.each(['old', 'new'])('a 2026 request to %s__sample without sampling gets HTTP 400 and -32021', async (backend) => {
    const response = await fetch(proxy.url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${proxy.token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/call',
        'mcp-name': `${backend}__sample`,
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: {
          name: `${backend}__sample`,
          arguments: { tag: 'nocaps' },
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
            'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
          },
        },
      }),
    });
    const body = (await response.json()) as { error?: { code: number; data?: unknown } };
    expect({ status: response.status, code: body.error?.code, data: body.error?.data }).toMatchObject({
      status: 400,
      code: -32021,
      data: { requiredCapabilities: { sampling: {} } },
    });
    expect(outstanding(proxy, backend)).toBe(0);
  });

  it.each(['legacy', 'modern'] as const)(
    'the request deadline pauses while a %s frontend answers (requestTimeoutMs 300, answer after 800 ms)',
    async (era) => {
      const fe = await frontend(proxy, era, 'slowpoke', {
        beforeAnswer: () => new Promise((resolve) => setTimeout(resolve, 800)),
      });
      expect(await text(fe.client, 'short__ask', { tag: 'slow' })).toBe(
        'ask(slow) -> accept:slowpoke/question for slow?',
      );
    },
  );
});

describe('input timeouts and cancellation', () => {
  const INPUT_TIMEOUT_MS = 500;
  let proxy: Harness;

  beforeAll(async () => {
    proxy = await startProxy({
      proxy: { inputTimeoutMs: INPUT_TIMEOUT_MS, parkedCallTtlMs: INPUT_TIMEOUT_MS },
      mcpServers: { old: nodeServer(ASKS, [], { protocol: 'legacy' }) },
    });
  });
  afterAll(() => proxy?.close());

  it('a parked call the 2026 frontend never resumes is cancelled after parkedCallTtlMs', async () => {
    const fe = await frontend(proxy, 'modern', 'gone');
    const { cancelled } = await fixtureStatus(fe.client, 'old');
    const parkedAt = Date.now();
    const first = await manualCall(fe.client, { name: 'old__ask_then_hold', arguments: { tag: 'abandoned' } });
    expect(first).toMatchObject({ resultType: 'input_required', requestState: expect.stringMatching(/^sb1\./) });
    expect(Object.values((first as InputRequiredResult).inputRequests ?? {})).toEqual([
      {
        method: 'elicitation/create',
        params: expect.objectContaining({ mode: 'form', message: 'question for abandoned?' }),
      },
    ]);
    expect(proxy.core.parkedCalls.size).toBe(1);
    await waitUntil(async () => (await fixtureStatus(fe.client, 'old')).cancelled === cancelled + 1, {
      description: 'the backend call to be cancelled',
    });
    expect(Date.now() - parkedAt).toBeGreaterThanOrEqual(INPUT_TIMEOUT_MS);
    expect(proxy.core.parkedCalls.size).toBe(0);
    await waitUntil(() => outstanding(proxy, 'old') === 0);
    // The token died with the call (test/integration/frontend/abandoned-input.test.ts: the error says so).
    const [key] = Object.keys((first as InputRequiredResult).inputRequests ?? {});
    await expect(
      manualCall(fe.client, {
        name: 'old__ask_then_hold',
        arguments: { tag: 'abandoned' },
        inputResponses: { [key!]: { action: 'accept', content: { answer: 'late' } } },
        requestState: (first as InputRequiredResult).requestState!,
      }),
    ).rejects.toMatchObject({ code: -32602 });
  });

  it('a forged requestState or one issued for another tool resumes nothing (-32602)', async () => {
    const fe = await frontend(proxy, 'modern', 'forger');
    await expect(
      manualCall(fe.client, { name: 'old__ask', arguments: {}, inputResponses: {}, requestState: 'sb1.forged' }),
    ).rejects.toMatchObject({ code: -32602 });
    const first = (await manualCall(fe.client, { name: 'old__ask', arguments: { tag: 'f' } })) as InputRequiredResult;
    const [key] = Object.keys(first.inputRequests ?? {});
    const answer = { [key!]: { action: 'accept', content: { answer: 'mine' } } };
    await expect(
      manualCall(fe.client, {
        name: 'old__ask_twice',
        arguments: {},
        inputResponses: answer,
        requestState: first.requestState!,
      }),
    ).rejects.toMatchObject({ code: -32602 });
    // The rightful retry still works.
    const done = await manualCall(fe.client, {
      name: 'old__ask',
      arguments: { tag: 'f' },
      inputResponses: answer,
      requestState: first.requestState!,
    });
    expect(firstText(done as { content?: unknown })).toBe('ask(f) -> accept:mine');
  });

  it('a retry that leaves a question unanswered is asked it again', async () => {
    const fe = await frontend(proxy, 'modern', 'forgetful');
    const first = (await manualCall(fe.client, {
      name: 'old__ask',
      arguments: { tag: 'again' },
    })) as InputRequiredResult;
    const again = (await manualCall(fe.client, {
      name: 'old__ask',
      arguments: { tag: 'again' },
      inputResponses: {},
      requestState: first.requestState!,
    })) as InputRequiredResult;
    expect(again.resultType).toBe('input_required');
    expect(again.inputRequests).toEqual(first.inputRequests);
    const [key] = Object.keys(again.inputRequests ?? {});
    const done = await manualCall(fe.client, {
      name: 'old__ask',
      arguments: { tag: 'again' },
      inputResponses: { [key!]: { action: 'decline' } },
      requestState: again.requestState!,
    });
    expect(firstText(done as { content?: unknown })).toBe('ask(again) -> decline');
  });

  it('a 2026 frontend cancelling its retry cancels the backend call', async () => {
    const fe = await frontend(proxy, 'modern', 'quitter');
    const { cancelled } = await fixtureStatus(fe.client, 'old');
    const first = (await manualCall(fe.client, {
      name: 'old__ask_then_hold',
      arguments: { tag: 'retry-stop' },
    })) as InputRequiredResult;
    const [key] = Object.keys(first.inputRequests ?? {});
    const controller = new AbortController();
    const retry = manualCall(
      fe.client,
      {
        name: 'old__ask_then_hold',
        arguments: { tag: 'retry-stop' },
        inputResponses: { [key!]: { action: 'accept', content: { answer: 'x' } } },
        requestState: first.requestState!,
      },
      controller.signal,
    ).catch((error: unknown) => error);
    await waitUntil(async () => (await fixtureStatus(fe.client, 'old')).holding.includes('retry-stop'), {
      description: 'the backend to get the answer and hold',
    });
    controller.abort(new Error('user pressed stop'));
    await retry;
    await waitUntil(async () => (await fixtureStatus(fe.client, 'old')).cancelled === cancelled + 1, {
      description: 'the backend call to be cancelled',
    });
    await waitUntil(() => outstanding(proxy, 'old') === 0);
  });

  it('a 2025 frontend cancelling after it answered cancels the backend call', async () => {
    const fe = await frontend(proxy, 'legacy', 'quitter25');
    const { cancelled } = await fixtureStatus(fe.client, 'old');
    const controller = new AbortController();
    const call = fe.client
      .callTool({ name: 'old__ask_then_hold', arguments: { tag: 'stop25' } }, { signal: controller.signal })
      .catch((error: unknown) => error);
    await waitUntil(async () => (await fixtureStatus(fe.client, 'old')).holding.includes('stop25'), {
      description: 'the backend to get the answer and hold',
    });
    expect(fe.asked).toEqual(['question for stop25?']);
    controller.abort(new Error('user pressed stop'));
    await call;
    await waitUntil(async () => (await fixtureStatus(fe.client, 'old')).cancelled === cancelled + 1, {
      description: 'the backend call to be cancelled',
    });
  });

  it('a 2025 frontend that never answers: the question times out after inputTimeoutMs and the call ends', async () => {
    const fe = await frontend(proxy, 'legacy', 'silent', { beforeAnswer: () => new Promise(() => {}) });
    const started = Date.now();
    await expect(fe.client.callTool({ name: 'old__ask', arguments: { tag: 'silent' } })).rejects.toThrow(/timed out/i);
    expect(Date.now() - started).toBeGreaterThanOrEqual(INPUT_TIMEOUT_MS);
    await waitUntil(() => outstanding(proxy, 'old') === 0);
  });
});

describe('input requests through the stdio entry (serve --stdio)', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let configPath: string;

  beforeAll(async () => {
    dir = await tempDir();
    configPath = join(dir.path, 'config.json');
    await writeFile(
      configPath,
      JSON.stringify({
        mcpServers: {
          old: nodeServer(ASKS, [], { protocol: 'legacy' }),
          new: nodeServer(ASKS, [], { protocol: '2026-07-28' }),
        },
      }),
    );
  });
  afterAll(() => dir?.cleanup());

  it.each(['legacy', 'modern'] as const)(
    'a %s client launching Switchboard answers both eras of backend',
    async (era) => {
      const client = new Client(
        { name: `stdio-${era}`, version: '1' },
        {
          capabilities: ALL_CAPABILITIES,
          ...(era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}),
        },
      );
      const fe = answering(client, `stdio-${era}`, ALL_CAPABILITIES);
      await client.connect(
        new StdioClientTransport(serveStdio(configPath, undefined, { XDG_CONFIG_HOME: join(dir.path, 'xdg') })),
      );
      try {
        expect(client.getProtocolEra()).toBe(era);
        await waitUntil(
          async () => {
            const names = (await client.listTools()).tools.map((tool) => tool.name);
            return names.includes('old__ask') && names.includes('new__ask');
          },
          { timeoutMs: 15_000, description: 'both backends in the catalog' },
        );
        for (const backend of ['old', 'new']) {
          expect(await text(client, `${backend}__ask`, { tag: backend })).toBe(
            `ask(${backend}) -> accept:stdio-${era}/question for ${backend}?`,
          );
        }
        expect(fe.asked).toEqual(['question for old?', 'question for new?']);
      } finally {
        await client.close();
      }
    },
  );
});
