/**
 * A 2025-era backend's input requests across replicas, with real parts: one
 * Redis, two `serve` replicas of one config, each with its own 2025-era asks
 * fixture over stdio, and a 2026-07-28 client pointed at each replica. The
 * backend asks (elicitation/create) during a tools/call through A; the client
 * gets `input_required` and retries with its answer through B, which hands
 * the retry to A (the call and its backend request are held there); the
 * same answer again resumes nothing. A call of several rounds goes A, B, A.
 * A handed-over retry's progress reaches the client through B, and the
 * client's cancelling it through B stops the call on A.
 * A retry for a call whose replica has stopped fails, saying so.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture, nodeServer } from '../../helpers/harness.js';
import { waitUntil } from '../../helpers/processes.js';
import { redisMissing, startRedis, type RedisServer } from '../../helpers/redisServer.js';
import { startServeHttp, type ServedHttp } from '../../helpers/serveHttp.js';
import { connectTasks2026, type RpcOutcome, type Tasks2026Client, waitForTool } from '../../helpers/tasks2026Client.js';

const missing = redisMissing();
if (missing && process.env['CI']) throw new Error(missing);

const ASKS = fixture('asks.mjs');

interface Asking {
  resultType: 'input_required';
  inputRequests: Record<string, { method: string; params?: { message?: string } }>;
  requestState: string;
}

/** The `input_required` answer of an outcome (fails the test otherwise). */
function asking(outcome: RpcOutcome): Asking {
  expect(outcome.kind).toBe('result');
  const result = (outcome as unknown as { result: Asking }).result;
  expect(result.resultType).toBe('input_required');
  return result;
}

/** The text of a tool result outcome. */
function textOf(outcome: RpcOutcome): string {
  expect(outcome.kind, JSON.stringify(outcome)).toBe('result');
  const result = (outcome as { result: { content?: { text?: string }[] } }).result;
  return (result.content ?? []).map((c) => c.text ?? '').join('');
}

/** The asks fixture's own count of cancelled calls and its holds, on the replica `client` reaches. */
async function fixtureStatus(client: Tasks2026Client): Promise<{ cancelled: number; holding: string[] }> {
  return JSON.parse(textOf(await client.rpc('tools/call', { name: 'old__status', arguments: {} }, { declare: false })));
}

/** The retry answering every request of `round` with `answer`. */
function retryOf(call: { name: string; arguments: Record<string, unknown> }, round: Asking, answer: string) {
  const inputResponses = Object.fromEntries(
    Object.keys(round.inputRequests).map((key) => [key, { action: 'accept', content: { answer } }]),
  );
  return { ...call, inputResponses, requestState: round.requestState };
}

describe.skipIf(missing !== undefined)('input requests across replicas (Redis)', () => {
  let redis: RedisServer;
  let shared: string;
  let a: ServedHttp;
  let b: ServedHttp;
  const clients: Tasks2026Client[] = [];
  let viaA: Tasks2026Client;
  let viaB: Tasks2026Client;

  beforeAll(async () => {
    redis = await startRedis();
    shared = await mkdtemp(join(tmpdir(), 'sb-input-replicas-'));
    const config = {
      cluster: { redis: { url: '${TEST_REDIS_URL}', keyPrefix: 'input-replicas-test:' } },
      mcpServers: { old: nodeServer(ASKS, [], { protocol: 'legacy' }) },
    };
    const extras = { env: { TEST_REDIS_URL: redis.url } };
    [a, b] = await Promise.all([startServeHttp(config, extras), startServeHttp(config, extras)]);
    const connect = async (replica: ServedHttp): Promise<Tasks2026Client> => {
      const client = await connectTasks2026(replica.url, {
        headers: { Authorization: `Bearer ${replica.token}` },
        capabilities: { elicitation: { form: {} } },
      });
      clients.push(client);
      return client;
    };
    [viaA, viaB] = await Promise.all([connect(a), connect(b)]);
    await waitForTool([viaA, viaB], 'old__ask');
  }, 60_000);

  afterAll(async () => {
    await Promise.allSettled(clients.map((client) => client.close()));
    await Promise.allSettled([a?.stop(), b?.stop()]);
    await redis?.stop();
    if (shared) await rm(shared, { recursive: true, force: true });
  });

  it('asked through A, answered through B: the tool result comes back once', async () => {
    const call = { name: 'old__ask', arguments: { tag: 'one' } };
    const round = asking(await viaA.rpc('tools/call', call, { declare: false }));
    expect(Object.values(round.inputRequests)[0]?.params?.message).toBe('question for one?');
    const answered = retryOf(call, round, 'from B');
    expect(textOf(await viaB.rpc('tools/call', answered, { declare: false }))).toBe('ask(one) -> accept:from B');
    // Taken once across replicas: the same answer again, through either, resumes nothing.
    for (const client of [viaB, viaA]) {
      const again = await client.rpc('tools/call', answered, { declare: false });
      expect(again.kind === 'error' ? again.error.code : 'answered').toBe(-32602);
    }
  });

  it('a call of two rounds goes A, B, A', async () => {
    const call = { name: 'old__ask_twice', arguments: { tag: 'two' } };
    const first = asking(await viaA.rpc('tools/call', call, { declare: false }));
    const second = asking(await viaB.rpc('tools/call', retryOf(call, first, 'one'), { declare: false }));
    expect(Object.values(second.inputRequests)[0]?.params?.message).toBe('second question for two?');
    const done = await viaA.rpc('tools/call', retryOf(call, second, 'two'), { declare: false });
    expect(textOf(done)).toBe('ask_twice(two) -> one + two');
  });

  it("a handed-over retry: the call's progress reaches the client, and its cancel stops the call on the holding replica", async () => {
    const call = { name: 'old__ask_then_hold', arguments: { tag: 'relay' } };
    const first = asking(
      await viaA.rpc('tools/call', { ...call, _meta: { progressToken: 'first' } }, { declare: false }),
    );
    const before = await fixtureStatus(viaA);
    const progress: unknown[] = [];
    let heard: () => void = () => undefined;
    const progressed = new Promise<void>((resolve) => (heard = resolve));
    const controller = new AbortController();
    const retry = viaB
      .rpc(
        'tools/call',
        { ...retryOf(call, first, 'relayed'), _meta: { progressToken: 'retry' } },
        {
          declare: false,
          signal: controller.signal,
          onMessage: (message) => {
            if (message.method !== 'notifications/progress') return;
            progress.push(message.params);
            heard();
          },
        },
      )
      .catch((error: unknown) => error);
    await progressed;
    expect(progress).toEqual([{ progressToken: 'retry', progress: 1, message: 'answered relayed' }]);
    expect((await fixtureStatus(viaA)).holding).toContain('relay');
    controller.abort(new Error('user pressed stop'));
    await retry;
    await waitUntil(async () => (await fixtureStatus(viaA)).cancelled === before.cancelled + 1, {
      timeoutMs: 5_000,
      intervalMs: 50,
      description: 'the call on A to be cancelled',
    });
    expect((await fixtureStatus(viaA)).holding).not.toContain('relay');
  }, 15_000);

  it('a retry for a call parked on a stopped replica fails, saying so', async () => {
    const call = { name: 'old__ask', arguments: { tag: 'gone' } };
    const round = asking(await viaA.rpc('tools/call', call, { declare: false }));
    await a.stop();
    const started = Date.now();
    const refused = await viaB.rpc('tools/call', retryOf(call, round, 'late'), { declare: false });
    expect(refused.kind).toBe('error');
    expect(refused.kind === 'error' && refused.error.message).toMatch(/parked on replica \S+, which is gone/);
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});
