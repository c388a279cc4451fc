/**
 * A 2026-07-28 client that starts a multi-round call to a 2025-era server and
 * never comes back must not get in anyone's way. Its call stays parked,
 * blocked on the server's question, for `proxy.parkedCallTtlMs` only; another
 * client's questions from the same server reach that client meanwhile; when
 * the lifetime ends the server is told to cancel, and the abandoned client's
 * late retry hears that its requestState expired. Real servers (the asks
 * fixture, pinned to 2025, over stdio and over Streamable HTTP), real SDK
 * clients through the real HTTP endpoint.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallToolRequestParams, Client, InputRequiredResult } from '@modelcontextprotocol/client';
import { firstText, fixture, nodeServer, startProxy, type Harness } from '../../helpers/harness.js';
import { waitUntil } from '../../helpers/processes.js';
import { spawnServer, type SpawnedServer } from '../../helpers/spawnServer.js';

const ASKS = fixture('asks.mjs');
/** Long enough for another client's two rounds to finish first on a loaded machine; no timing is measured. */
const PARKED_CALL_TTL_MS = 3000;

/** A 2026-07-28 client that answers every elicitation with `<name>/<message>`. */
async function answeringClient(proxy: Harness, name: string): Promise<Client> {
  const client = await proxy.connect('modern', proxy.token, { capabilities: { elicitation: {} } });
  client.setRequestHandler('elicitation/create', async (request) => ({
    action: 'accept',
    content: { answer: `${name}/${(request.params as { message: string }).message}` },
  }));
  return client;
}

/** A tools/call that hands `input_required` back instead of answering it. */
async function manualCall(
  client: Client,
  params: CallToolRequestParams & { inputResponses?: Record<string, unknown>; requestState?: string },
): Promise<InputRequiredResult | { content?: unknown }> {
  return (await client.callTool(params, { allowInputRequired: true })) as InputRequiredResult | { content?: unknown };
}

async function text(client: Client, name: string, args: Record<string, unknown>): Promise<string> {
  return firstText((await client.callTool({ name, arguments: args })) as { content?: unknown });
}

async function cancelledSoFar(client: Client, backend: string): Promise<number> {
  return (JSON.parse(await text(client, `${backend}__status`, {})) as { cancelled: number }).cancelled;
}

describe('an abandoned multi-round call never affects another call', () => {
  let proxy: Harness;
  let http: SpawnedServer;

  beforeAll(async () => {
    http = await spawnServer([ASKS, 'http'], /LISTENING (\S+)/, { PORT: '0' });
    proxy = await startProxy({
      proxy: { parkedCallTtlMs: PARKED_CALL_TTL_MS },
      mcpServers: {
        stdio25: nodeServer(ASKS, [], { protocol: 'legacy' }),
        http25: { url: http.match[1], protocol: 'legacy' },
        stdio26: nodeServer(ASKS, [], { protocol: '2026-07-28' }),
      },
    });
  });
  afterAll(async () => {
    await proxy?.close();
    await http?.stop();
  });

  it('talks to the servers in the eras the test expects', () => {
    const eras = Object.fromEntries(proxy.core.health().map((backend) => [backend.id, backend.era]));
    expect(eras).toEqual({ stdio25: 'legacy', http25: 'legacy', stdio26: 'modern' });
  });

  it.each(['stdio25', 'http25'] as const)(
    '%s: B completes while A is parked; A is then cancelled upstream and its retry has expired',
    async (backend) => {
      const tracker = proxy.core.pool.liveConnection(backend)!.inputs;
      const a = await answeringClient(proxy, 'A');
      const b = await answeringClient(proxy, 'B');
      const cancelledBefore = await cancelledSoFar(a, backend);

      // A starts a call that asks, gets input_required, and walks away.
      const first = await manualCall(a, { name: `${backend}__ask_then_hold`, arguments: { tag: `${backend}-A` } });
      expect(first).toMatchObject({ resultType: 'input_required', requestState: expect.stringMatching(/^sb1\./) });
      const { requestState, inputRequests } = first as InputRequiredResult;
      const [key] = Object.keys(inputRequests ?? {});

      // B runs two rounds on the same server while A's call is in flight, blocked on A's question.
      const before = { ...tracker.stats };
      expect(await text(b, `${backend}__ask_twice`, { tag: 'B' })).toBe(
        'ask_twice(B) -> B/first question for B? + B/second question for B?',
      );
      expect(proxy.core.parkedCalls.expired(requestState!)).toBeUndefined();
      expect(proxy.core.parkedCalls.size).toBe(1);
      expect(tracker.stats.ambiguous).toBe(before.ambiguous);
      if (backend === 'http25') {
        // Each question arrived on its call's own POST stream.
        expect(tracker.stats.byScope - before.byScope).toBe(2);
      } else {
        // Over stdio the wire does not say: A's call, waiting, was left out.
        expect(tracker.stats.bySingle - before.bySingle).toBe(2);
        expect(tracker.stats.pastWaiting - before.pastWaiting).toBe(2);
      }

      // A's lifetime ends: the server itself sees the cancellation.
      await waitUntil(async () => (await cancelledSoFar(b, backend)) === cancelledBefore + 1, {
        timeoutMs: PARKED_CALL_TTL_MS + 15_000,
        description: `${backend} to see A's call cancelled`,
      });
      expect(proxy.core.parkedCalls.size).toBe(0);
      await waitUntil(() => proxy.core.health().find((entry) => entry.id === backend)?.outstandingRequests === 0, {
        description: `no request left outstanding on ${backend}`,
      });

      // A comes back too late: told its state expired, not that it never existed.
      await expect(
        manualCall(a, {
          name: `${backend}__ask_then_hold`,
          arguments: { tag: `${backend}-A` },
          inputResponses: { [key!]: { action: 'accept', content: { answer: 'late' } } },
          requestState: requestState!,
        }),
      ).rejects.toMatchObject({
        code: -32602,
        message: expect.stringMatching(/requestState expired.*parkedCallTtlMs/),
        data: { reason: 'expired_request_state', parkedCallTtlMs: PARKED_CALL_TTL_MS },
      });
      // A forged token is still just invalid.
      await expect(
        manualCall(a, {
          name: `${backend}__ask_then_hold`,
          arguments: {},
          inputResponses: {},
          requestState: 'sb1.forged',
        }),
      ).rejects.toMatchObject({ code: -32602, data: { reason: 'invalid_request_state' } });
    },
  );

  it('a 2026 server needs no parking: its questions come back in its own result', async () => {
    const a = await answeringClient(proxy, 'A');
    const b = await answeringClient(proxy, 'B');
    const first = await manualCall(a, { name: 'stdio26__ask', arguments: { tag: 'A' } });
    expect(first).toMatchObject({ resultType: 'input_required' });
    expect(proxy.core.parkedCalls.size).toBe(0);
    expect(proxy.core.health().find((entry) => entry.id === 'stdio26')?.outstandingRequests).toBe(0);
    expect(await text(b, 'stdio26__ask_twice', { tag: 'B' })).toBe(
      'ask_twice(B) -> B/first question for B? + B/second question for B?',
    );
  });
});
