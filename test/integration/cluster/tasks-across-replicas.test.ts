/**
 * Tasks across replicas, with real parts: one Redis (append-only, as
 * docs/deploy.md configures it), two `serve` replicas of one config, each
 * with its own state dirs and its own 2026-07-28 task server (the tasks-2026
 * fixture over stdio), and 2026-07-28 clients pointed at each replica
 * directly. A task created through A is polled, answered and cancelled
 * through B; another client sees none of it; a task that ends while Redis
 * is away is seen ended once it returns; a 2026 client's answer to an `ask`
 * approval is taken through the other replica, once; tasks/list through B
 * lists the client's tasks of both replicas, no other client's; a listen
 * through B hears A's task end; a task of a killed replica fails, saying
 * so, instead of hanging. A 2025-11-25 client's task of a 2025 task server
 * (the tasks-2025 fixture) and of a 2026 one: its result fetched through B,
 * before and after A fetched it, and after A's kill -9.
 */
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1HttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, CreateTaskResultSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClientTokens } from '../../../electron/core/catalog/index.js';
import { nodeServer, ROOT } from '../../helpers/harness.js';
import { waitUntil } from '../../helpers/processes.js';
import { redisMissing, startRedis, type RedisServer } from '../../helpers/redisServer.js';
import { startServeHttp, type ServedHttp } from '../../helpers/serveHttp.js';
import { connectTasks2026, RpcError, type Tasks2026Client, waitForTool } from '../../helpers/tasks2026Client.js';

const missing = redisMissing();
if (missing && process.env['CI']) throw new Error(missing);

const TASKS_2026 = join(ROOT, 'test/fixtures/tasks-2026/server.mjs');
const JOBS_2025 = join(ROOT, 'test/fixtures/tasks-2025/jobs.mjs');
const TERMINAL = ['completed', 'failed', 'cancelled'];
const firstTextOf = (result: CallToolResult): string =>
  result.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
const textOf = (task: unknown): string =>
  ((task as { result?: { content?: { text?: string }[] } }).result?.content ?? []).map((c) => c.text ?? '').join('');

/** The RpcError a promise rejects with. */
async function rpcError(promise: Promise<unknown>): Promise<RpcError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(RpcError);
  return error as RpcError;
}

describe.skipIf(missing !== undefined)('tasks across replicas (Redis)', () => {
  let redis: RedisServer;
  let shared: string;
  let a: ServedHttp;
  let b: ServedHttp;
  let otherToken = '';
  const clients: Tasks2026Client[] = [];
  const connect = async (replica: ServedHttp, token = replica.token): Promise<Tasks2026Client> => {
    const client = await connectTasks2026(replica.url, {
      headers: { Authorization: `Bearer ${token}` },
      capabilities: { elicitation: { form: {} } },
    });
    clients.push(client);
    return client;
  };
  const legacyClients: V1Client[] = [];
  /** A 2025-11-25 client (tasks/list is of that era) of `token`'s profile, through `replica`. */
  const legacyClient = async (replica: ServedHttp, token: string): Promise<V1Client> => {
    const client = new V1Client({ name: 'tasks-list-test', version: '1.0.0' });
    await client.connect(
      new V1HttpTransport(new URL(replica.url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }),
    );
    legacyClients.push(client);
    return client;
  };
  /** 2025 tasks that ended through A, with their results' text: fetched again through B after A's kill -9. */
  const ended2025: { taskId: string; text: string }[] = [];
  const legacyTask = async (client: V1Client, name: string, args: Record<string, unknown>): Promise<string> =>
    (
      await client.request(
        { method: 'tools/call', params: { name, arguments: args, task: {} } },
        CreateTaskResultSchema,
      )
    ).task.taskId;
  const legacyResult = async (client: V1Client, taskId: string): Promise<string> =>
    firstTextOf((await client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema)) as CallToolResult);
  let ownerA: Tasks2026Client;
  let ownerB: Tasks2026Client;
  let otherB: Tasks2026Client;

  beforeAll(async () => {
    redis = await startRedis();
    shared = await mkdtemp(join(tmpdir(), 'sb-replicas-'));
    otherToken = await new ClientTokens(join(shared, 'client-tokens.json')).issue('other');
    const config = {
      cluster: { redis: { url: '${TEST_REDIS_URL}', keyPrefix: 'replicas-test:' } },
      mcpServers: {
        t26: { ...nodeServer(TASKS_2026), protocol: '2026-07-28', env: { TASKS_POLL_MS: '20' } },
        jobs: nodeServer(JOBS_2025),
      },
      policy: { clients: { other: { name: 'other' } }, backends: { t26: { tools: { echo: 'ask' } } } },
    };
    // One config, and the same client tokens on both (as a Secret would give them).
    const extras = {
      env: { TEST_REDIS_URL: redis.url },
      prepare: async (configDir: string) => {
        await mkdir(configDir, { recursive: true });
        await copyFile(join(shared, 'client-tokens.json'), join(configDir, 'client-tokens.json'));
      },
    };
    [a, b] = await Promise.all([startServeHttp(config, extras), startServeHttp(config, extras)]);
    [ownerA, ownerB, otherB] = await Promise.all([connect(a), connect(b), connect(b, otherToken)]);
    await waitForTool([ownerA, ownerB], 't26__long');
  }, 60_000);

  afterAll(async () => {
    await Promise.allSettled([...clients, ...legacyClients].map((client) => client.close()));
    await Promise.allSettled([a?.stop(), b?.stop()]);
    await redis?.stop();
    if (shared) await rm(shared, { recursive: true, force: true });
  });

  it('a task created through A is polled and its question answered through B', async () => {
    const created = await ownerA.createTask('t26__ask', { text: 'x' });
    const asking = await ownerB.waitForStatus(created.taskId, ['input_required']);
    expect(Object.keys((asking as { inputRequests: object }).inputRequests)).toEqual(['answer-1']);
    await ownerB.updateTask(created.taskId, { 'answer-1': { action: 'accept', content: { answer: 'from B' } } });
    const done = await ownerB.waitForStatus(created.taskId, TERMINAL);
    expect(done.status).toBe('completed');
    expect(textOf(done)).toContain('from B');
    expect((await ownerA.getTask(created.taskId)).status).toBe('completed');
  });

  it('another client sees none of it; the owner cancels it through B', async () => {
    const created = await ownerA.createTask('t26__long', { steps: 200, stepMs: 50 });
    expect((await rpcError(otherB.getTask(created.taskId))).code).toBe(-32602);
    expect((await rpcError(otherB.cancelTask(created.taskId))).code).toBe(-32602);
    expect((await ownerB.getTask(created.taskId)).status).toBe('working');
    await ownerB.cancelTask(created.taskId);
    expect((await ownerA.getTask(created.taskId)).status).toBe('cancelled');
    expect((await ownerB.getTask(created.taskId)).status).toBe('cancelled');
  });

  it('Redis away mid-run: an acknowledged task is kept, and its end while away is seen once it returns', async () => {
    const before = await ownerA.createTask('t26__long', { steps: 1, stepMs: 10 });
    const running = await ownerA.createTask('t26__long', { steps: 4, stepMs: 100 });
    await redis.pause();
    // A goes on without Redis: the task ends there.
    expect((await ownerA.waitForStatus(running.taskId, TERMINAL)).status).toBe('completed');
    // B cannot look while Redis is away, and says so.
    expect((await rpcError(ownerB.getTask(running.taskId))).message).toMatch(/shared state \(Redis\) unavailable/);
    await redis.start();
    await waitUntil(async () => (await ownerB.getTask(running.taskId).catch(() => undefined))?.status === 'completed', {
      timeoutMs: 8_000,
      intervalMs: 100,
      description: 'B sees the end made while Redis was away',
    });
    expect(textOf(await ownerB.getTask(running.taskId))).toBe('long: 4 steps');
    expect(textOf(await ownerB.getTask(before.taskId))).toBe('long: 1 steps');
  });

  it("a 2026 client's approval answer is taken through the other replica, once", async () => {
    const call = { name: 't26__echo', arguments: { text: 'hi' } };
    const first = await ownerA.rpc('tools/call', call, { declare: false });
    const asking = (first as { result?: { resultType?: string; requestState?: string } }).result;
    expect(asking?.resultType).toBe('input_required');
    const answered = {
      ...call,
      inputResponses: { 'switchboard-approval': { action: 'accept', content: { decision: 'once' } } },
      requestState: asking?.requestState,
    };
    const retry = await ownerB.rpc('tools/call', answered, { declare: false });
    expect(retry.kind).toBe('result');
    expect(JSON.stringify((retry as { result: unknown }).result)).toContain('echo(hi)');
    // Single-use across replicas: the same answer again, through A, resumes nothing.
    const again = await ownerA.rpc('tools/call', answered, { declare: false });
    expect(again.kind === 'error' ? again.error.code : 'answered').toBe(-32602);
  });

  it("tasks/list through B lists the client's tasks of both replicas, newest first, and no other client's", async () => {
    const onA = await ownerA.createTask('t26__long', { steps: 1, stepMs: 10 });
    const onB = await ownerB.createTask('t26__long', { steps: 1, stepMs: 10 });
    const others = await otherB.createTask('t26__long', { steps: 1, stepMs: 10 });
    const [owner, other] = await Promise.all([legacyClient(b, b.token), legacyClient(b, otherToken)]);
    const listed = (await owner.experimental.tasks.listTasks()).tasks.map((task) => task.taskId);
    expect(listed).toEqual(expect.arrayContaining([onA.taskId, onB.taskId]));
    expect(listed.indexOf(onB.taskId)).toBeLessThan(listed.indexOf(onA.taskId));
    expect(listed).not.toContain(others.taskId);
    expect((await other.experimental.tasks.listTasks()).tasks.map((task) => task.taskId)).toEqual([others.taskId]);
  });

  it("a listen through B hears the task A runs complete; another client's listen honours none of it", async () => {
    const created = await ownerA.createTask('t26__long', { steps: 6, stepMs: 50 });
    const listen = await ownerB.listen([created.taskId, 'no-such-task']);
    const refused = await otherB.listen([created.taskId]);
    try {
      expect(await listen.acknowledged).toEqual([created.taskId]);
      expect(await refused.acknowledged).toEqual([]);
      const done = await listen.next((task) => task.status === 'completed', 5_000);
      expect(textOf(done)).toBe('long: 6 steps');
    } finally {
      listen.close();
      refused.close();
    }
  });

  it("a 2025 client's task of a 2025 server, and of a 2026 one: its result through B, before and after A fetched it", async () => {
    const [viaA, viaB] = await Promise.all([legacyClient(a, a.token), legacyClient(b, b.token)]);
    await waitUntil(async () => (await viaA.listTools()).tools.some((tool) => tool.name === 'jobs__long'), {
      timeoutMs: 10_000,
      description: 'the 2025 task server is listed',
    });
    for (const [name, args, text] of [
      ['jobs__long', { tag: 'shared', steps: 2, stepMs: 50 }, 'long(shared) after 2 steps'],
      ['t26__long', { steps: 2, stepMs: 20 }, 'long: 2 steps'],
    ] as const) {
      const taskId = await legacyTask(viaA, name, args);
      let status = '';
      await waitUntil(
        async () => TERMINAL.includes((status = (await viaB.experimental.tasks.getTask(taskId)).status)),
        {
          timeoutMs: 10_000,
          description: `${name}'s task ends, seen through B`,
        },
      );
      expect(status).toBe('completed');
      // Through B first (A never fetched it), then through A, then through B again.
      expect(await legacyResult(viaB, taskId)).toBe(text);
      expect(await legacyResult(viaA, taskId)).toBe(text);
      expect(await legacyResult(viaB, taskId)).toBe(text);
      ended2025.push({ taskId, text });
    }
    // Another client's tasks/result through B: unknown, as on one process.
    const other = await legacyClient(b, otherToken);
    await expect(legacyResult(other, ended2025[0]!.taskId)).rejects.toMatchObject({ code: -32602 });
  });

  it('a task of a killed replica fails, saying so, to a poll and to a listen through the other', async () => {
    const created = await ownerA.createTask('t26__long', { steps: 400, stepMs: 50 });
    const listen = await ownerB.listen([created.taskId]);
    try {
      expect(await listen.acknowledged).toEqual([created.taskId]);
      process.kill(a.pid, 'SIGKILL');
      // Nobody is left to publish the end: the listen hears it from B's watch on A's heartbeat.
      const heard = await listen.next((task) => task.status === 'failed', 10_000);
      expect(heard.statusMessage).toMatch(/replica \S+, which ran this task, stopped/);
      const failed = await ownerB.waitForStatus(created.taskId, TERMINAL, 10_000);
      expect(failed.status).toBe('failed');
      expect(failed.statusMessage).toMatch(/replica \S+, which ran this task, stopped/);
      // What ended before the kill keeps its result: a 2025 client fetches it through B.
      expect(ended2025).toHaveLength(2);
      const viaB = await legacyClient(b, b.token);
      for (const { taskId, text } of ended2025) expect(await legacyResult(viaB, taskId)).toBe(text);
    } finally {
      listen.close();
    }
  });
});
