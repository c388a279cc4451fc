/**
 * Code mode's 2026-07-28 retries across replicas, with real parts: one Redis,
 * two `serve` replicas of one config in code mode, a 2025-era backend that
 * asks (elicitation) and a configurable one that writes each call it gets to
 * a file, and a 2026-07-28 client pointed at each replica. A program's call
 * asks during a run_code through A; the client gets `input_required` and
 * retries run_code with its answer through B, which resumes the run from the
 * journal A kept in Redis: the call made before the question is answered
 * from it (its server saw it once), the asking call gets the answer, and the
 * program's result comes back. The same answer again resumes nothing.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture, nodeServer } from '../../helpers/harness.js';
import { redisMissing, startRedis, type RedisServer } from '../../helpers/redisServer.js';
import { startServeHttp, type ServedHttp } from '../../helpers/serveHttp.js';
import { connectTasks2026, type RpcOutcome, type Tasks2026Client, waitForTool } from '../../helpers/tasks2026Client.js';

const missing = redisMissing();
if (missing && process.env['CI']) throw new Error(missing);

interface Asking {
  resultType: 'input_required';
  inputRequests: Record<string, { method: string; params?: { message?: string } }>;
  requestState: string;
}

/** The result of an outcome (fails the test otherwise). */
function resultOf<T>(outcome: RpcOutcome): T {
  expect(outcome.kind, JSON.stringify(outcome)).toBe('result');
  return (outcome as unknown as { result: T }).result;
}

/** The text of a tool result outcome. */
function textOf(outcome: RpcOutcome): string {
  return (resultOf<{ content?: { text?: string }[] }>(outcome).content ?? []).map((c) => c.text ?? '').join('');
}

describe.skipIf(missing !== undefined)('code mode runs across replicas (Redis)', () => {
  let redis: RedisServer;
  let shared: string;
  let a: ServedHttp;
  let b: ServedHttp;
  const clients: Tasks2026Client[] = [];
  let viaA: Tasks2026Client;
  let viaB: Tasks2026Client;

  beforeAll(async () => {
    redis = await startRedis();
    shared = await mkdtemp(join(tmpdir(), 'sb-code-replicas-'));
    const config = {
      cluster: { redis: { url: '${TEST_REDIS_URL}', keyPrefix: 'code-replicas-test:' } },
      mcpServers: {
        old: nodeServer(fixture('asks.mjs'), [], { protocol: 'legacy' }),
        notes: nodeServer(fixture('configurable.mjs'), [], {
          env: { FIXTURE_TOOLS: 'read', FIXTURE_CALLS_FILE: join(shared, 'calls.txt') },
        }),
      },
      policy: { exposure: 'code' },
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
    await waitForTool([viaA, viaB], 'run_code');
  }, 60_000);

  afterAll(async () => {
    await Promise.allSettled(clients.map((client) => client.close()));
    await Promise.allSettled([a?.stop(), b?.stop()]);
    await redis?.stop();
    if (shared) await rm(shared, { recursive: true, force: true });
  });

  it('asked through A, retried through B: the run resumes from the journal, each call reaching its server once', async () => {
    const call = {
      name: 'run_code',
      arguments: {
        code: `const note = await tools.notes.read({ path: 'todo' });\nconst answer = await tools.old.ask({ tag: 'code' });\nreturn [note, answer];`,
      },
    };
    const round = resultOf<Asking>(await viaA.rpc('tools/call', call, { declare: false }));
    expect(round.resultType).toBe('input_required');
    expect(Object.values(round.inputRequests)[0]?.params?.message).toBe('question for code?');
    const inputResponses = Object.fromEntries(
      Object.keys(round.inputRequests).map((key) => [key, { action: 'accept', content: { answer: 'from B' } }]),
    );
    const retry = { ...call, inputResponses, requestState: round.requestState };
    const done = textOf(await viaB.rpc('tools/call', retry, { declare: false }));
    expect(done).toMatch(/^run-\w+: 2 tool calls\. Returned: /);
    expect(done).toContain('["read:{\\"path\\":\\"todo\\"}","ask(code) -> accept:from B"]');
    expect((await readFile(join(shared, 'calls.txt'), 'utf8')).split('\n').filter(Boolean)).toEqual(['read']);
    // Taken once across replicas: the same answer again, through either, resumes nothing.
    for (const client of [viaB, viaA]) {
      const again = await client.rpc('tools/call', retry, { declare: false });
      expect(again.kind === 'error' ? again.error.code : 'answered').toBe(-32602);
    }
  });
});
