/**
 * Tasks through the proxy in the 2026-07-28 era (io.modelcontextprotocol/tasks), with
 * real serve, real child backends of both eras (test/fixtures/tasks-2026/server.mjs over
 * stdio, test/fixtures/tasks-2025/jobs.mjs, the plain asks.mjs) and real SDK clients of
 * both eras: a 2026 client creating, polling, answering and cancelling tasks of each kind
 * of backend; a 2025 client on a 2026 backend's task; a client without the extension
 * getting plain results; another profile's id refused.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1HttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CallToolResultSchema,
  CreateTaskResultSchema,
  ElicitRequestSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { ClientTokens } from '../../../../electron/core/catalog/index.js';
import { serveStdio } from '../../../helpers/cli.js';
import { firstText, fixture, nodeServer, ROOT, startProxy, tempDir, type Harness } from '../../../helpers/harness.js';
import { waitUntil } from '../../../helpers/processes.js';
import { spawnServer, type SpawnedServer } from '../../../helpers/spawnServer.js';
import { connectTasks2026, RpcError, type Tasks2026Client } from '../../../helpers/tasks2026Client.js';

const TASKS_2026 = join(ROOT, 'test/fixtures/tasks-2026/server.mjs');
const JOBS = join(ROOT, 'test/fixtures/tasks-2025/jobs.mjs');
const TERMINAL = ['completed', 'failed', 'cancelled'];
const ID = /^[A-Za-z0-9_-]{22}$/;

const resultOf = (task: unknown): Record<string, unknown> | undefined =>
  (task as { result?: Record<string, unknown> }).result;
const textOf = (result: unknown): string =>
  ((result as { content?: { text?: string }[] }).content ?? []).map((c) => c.text ?? '').join('');

describe('tasks through the proxy (2026-07-28)', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let proxy: Harness;
  let http: SpawnedServer;
  const tokens: Record<string, string> = {};
  const opened: Tasks2026Client[] = [];

  const asked: string[] = [];
  const modern = async (token: string): Promise<Tasks2026Client> => {
    const c = await connectTasks2026(proxy.url, {
      headers: { Authorization: `Bearer ${token}` },
      capabilities: { elicitation: { form: {} } },
      onInputRequest: async (request) => {
        asked.push(String((request.params as { message?: string }).message));
        return { action: 'accept', content: { answer: `session ${asked.length}` } };
      },
    });
    opened.push(c);
    return c;
  };

  beforeAll(async () => {
    dir = await tempDir();
    http = await spawnServer([TASKS_2026, 'http'], /LISTENING (\S+)/, { TASKS_POLL_MS: '20' });
    proxy = await startProxy(
      {
        mcpServers: {
          t26: { ...nodeServer(TASKS_2026), protocol: '2026-07-28', env: { TASKS_POLL_MS: '20' } },
          // The same fixture over Streamable HTTP (Mcp-Name and the SEP-2243 headers on each task request).
          t26h: { url: http.match[1]! },
          jobs: nodeServer(JOBS),
          // 2025: a Switchboard task relays a 2025 backend's questions (see docs/tasks.md for 2026 ones).
          asks: nodeServer(fixture('asks.mjs'), [], { protocol: 'legacy' }),
          asks26: nodeServer(fixture('asks.mjs'), [], { protocol: '2026-07-28' }),
          // A short request timeout: a call run as a task must outlive it (bounded by the task's TTL).
          slow: { ...nodeServer(fixture('asks.mjs')), protocol: 'legacy', requestTimeoutMs: 400 },
          // A task-only tool called plainly is one request: bounded by the server's request timeout.
          jobsSlow: { ...nodeServer(JOBS), requestTimeoutMs: 400 },
        },
      },
      { tokens: new ClientTokens(join(dir.path, 'client-tokens.json')) },
    );
    for (const id of ['owner', 'other']) tokens[id] = await proxy.core.profiles.createProfile(id, { name: id });
  });
  afterAll(async () => {
    for (const c of opened) await c.close().catch(() => undefined);
    await proxy?.close();
    await http?.stop();
    await dir?.cleanup();
  });

  it('advertises the extension in server/discover, not 2025 capabilities.tasks', async () => {
    const c = await modern(tokens['owner']!);
    expect(c.serverDeclaresTasks).toBe(true);
    expect((c.client.getServerCapabilities() as { tasks?: unknown }).tasks).toBeUndefined();
  });

  it("relays a 2026 backend's task under an id of ours: poll, inline result", async () => {
    const c = await modern(tokens['owner']!);
    const created = await c.createTask('t26__long', { steps: 3, stepMs: 50 });
    expect(created.taskId).toMatch(ID);
    expect(created).toMatchObject({ resultType: 'task', status: 'working' });
    const done = await c.waitForStatus(created.taskId, TERMINAL);
    expect(done.status).toBe('completed');
    expect(textOf(resultOf(done))).toBe('long: 3 steps');
    expect(resultOf(done)?.['resultType']).toBe('complete');
  });

  it("answers a 2026 backend's input_required task through tasks/update", async () => {
    const c = await modern(tokens['owner']!);
    const created = await c.createTask('t26__ask', { text: 'x' });
    const asking = await c.waitForStatus(created.taskId, ['input_required']);
    const keys = Object.keys((asking as { inputRequests: object }).inputRequests);
    expect(keys).toEqual(['answer-1']);
    await c.updateTask(created.taskId, { 'answer-1': { action: 'accept', content: { answer: 'yes' } } });
    const done = await c.waitForStatus(created.taskId, TERMINAL);
    expect(textOf(resultOf(done))).toContain('accept:yes');
  });

  it("cancels a 2026 backend's task: acked, and the backend's work stops", async () => {
    const c = await modern(tokens['owner']!);
    const created = await c.createTask('t26__long', { steps: 100, stepMs: 100 });
    await c.cancelTask(created.taskId);
    expect((await c.waitForStatus(created.taskId, TERMINAL)).status).toBe('cancelled');
    const stats = await c.callRaw('t26__task_stats');
    expect(stats.kind === 'result' && JSON.parse(textOf(stats.result)).cancelRequests).toBeGreaterThan(0);
  });

  it("serves a 2025 backend's task to a 2026 client, its question answered by tasks/update", async () => {
    const c = await modern(tokens['owner']!);
    const quick = await c.createTask('jobs__long', { tag: 'q', steps: 2, stepMs: 50 });
    const done = await c.waitForStatus(quick.taskId, TERMINAL);
    expect(textOf(resultOf(done))).toBe('long(q) after 2 steps');

    const confirm = await c.createTask('jobs__confirm', { tag: 'deploy' });
    const asking = await c.waitForStatus(confirm.taskId, ['input_required']);
    const [key, request] = Object.entries((asking as { inputRequests: Record<string, unknown> }).inputRequests)[0]!;
    expect(request).toMatchObject({ method: 'elicitation/create', params: { message: 'confirm deploy?' } });
    await c.updateTask(confirm.taskId, { [key]: { action: 'accept', content: { answer: 'yes' } } });
    const confirmed = await c.waitForStatus(confirm.taskId, TERMINAL);
    expect(textOf(resultOf(confirmed))).toBe('confirm(deploy) -> accept:yes');

    const long = await c.createTask('jobs__long', { steps: 100, stepMs: 100 });
    await c.cancelTask(long.taskId);
    expect((await c.getTask(long.taskId)).status).toBe('cancelled');
  });

  it("runs a plain server's tool as Switchboard's task for a 2026 client, its question included", async () => {
    const c = await modern(tokens['owner']!);
    // A 2025 backend's question, and a 2026 backend's input_required round.
    for (const backend of ['asks', 'asks26']) {
      const asked = await c.createTask(`${backend}__ask`, { tag: backend });
      const asking = await c.waitForStatus(asked.taskId, ['input_required']);
      const [key, request] = Object.entries((asking as { inputRequests: Record<string, unknown> }).inputRequests)[0]!;
      expect(request).toMatchObject({ method: 'elicitation/create', params: { message: `question for ${backend}?` } });
      await c.updateTask(asked.taskId, { [key]: { action: 'accept', content: { answer: 'yes' } } });
      const done = await c.waitForStatus(asked.taskId, TERMINAL);
      expect(textOf(resultOf(done))).toBe(`ask(${backend}) -> accept:yes`);
    }

    const held = await c.createTask('asks__hold', { tag: 'cancel-me' });
    await c.cancelTask(held.taskId);
    expect((await c.getTask(held.taskId)).status).toBe('cancelled');
  });

  it('gives a client without the extension plain results, and -32021 on tasks/*', async () => {
    const c = await modern(tokens['owner']!);
    const plain = await c.callRaw('t26__quick', { text: 'p' }, { declare: false });
    expect(plain.kind === 'result' && plain.result).toMatchObject({ resultType: 'complete' });
    expect(textOf(plain.kind === 'result' ? plain.result : {})).toBe('quick(p)');
    const wrapped = await c.callRaw('asks__status', {}, { declare: false });
    expect(wrapped.kind === 'result' && wrapped.result['resultType']).toBe('complete');
    const got = await c.rpc('tasks/get', { taskId: 'x' }, { declare: false });
    expect(got.kind === 'error' && got.error.code).toBe(-32021);
  });

  it('runs a task-only tool of a 2025 server for a 2026 client without the extension: its result, with progress', async () => {
    const c = await modern(tokens['owner']!);
    const progress: string[] = [];
    const result = await c.client.callTool(
      { name: 'jobs__long', arguments: { tag: 'plain', steps: 3, stepMs: 150 } },
      { onprogress: (update) => void progress.push(String(update.message)) },
    );
    expect(textOf(result)).toBe('long(plain) after 3 steps');
    expect(progress).toEqual(expect.arrayContaining(['step 1/3', 'step 2/3']));
    expect(progress.every((message) => /^step [1-3]\/3$/.test(message))).toBe(true);
    // The same plainly on the wire: an ordinary complete result, no task.
    const raw = await c.callRaw('jobs__long', { tag: 'raw', steps: 1, stepMs: 10 }, { declare: false });
    expect(raw.kind === 'result' && raw.result).toMatchObject({ resultType: 'complete' });
    expect(textOf(raw.kind === 'result' ? raw.result : {})).toBe('long(raw) after 1 steps');
  });

  it("puts a task-only tool's question to a 2026 client without the extension, and cancels its task with the call", async () => {
    const c = await modern(tokens['owner']!);
    const asking = await c.callRaw('jobs__confirm', { tag: 'plain' }, { declare: false });
    const round = asking.kind === 'result' ? asking.result : {};
    expect(round).toMatchObject({ resultType: 'input_required' });
    const [key, request] = Object.entries((round as { inputRequests: Record<string, unknown> }).inputRequests)[0]!;
    expect(request).toMatchObject({ method: 'elicitation/create', params: { message: 'confirm plain?' } });
    const answered = await c.rpc(
      'tools/call',
      {
        name: 'jobs__confirm',
        arguments: { tag: 'plain' },
        inputResponses: { [key]: { action: 'accept', content: { answer: 'yes' } } },
        requestState: (round as { requestState: string }).requestState,
      },
      { declare: false },
    );
    expect(textOf(answered.kind === 'result' ? answered.result : {})).toBe('confirm(plain) -> accept:yes');

    const counts = async (): Promise<Record<string, number>> =>
      JSON.parse(textOf(await c.client.callTool({ name: 'jobs__statuses', arguments: {} }))) as Record<string, number>;
    const before = await counts();
    const abort = new AbortController();
    const call = c.client.callTool(
      { name: 'jobs__long', arguments: { tag: 'cut', steps: 100, stepMs: 100 } },
      { signal: abort.signal },
    );
    // The call is under way once the server has one more task working.
    await waitUntil(async () => ((await counts())['working'] ?? 0) > (before['working'] ?? 0), { timeoutMs: 5_000 });
    abort.abort();
    await expect(call).rejects.toThrow();
    await waitUntil(async () => ((await counts())['cancelled'] ?? 0) > (before['cancelled'] ?? 0), {
      timeoutMs: 5_000,
    });
  });

  it("bounds a task-only tool called plainly by the server's request timeout, and then cancels its task", async () => {
    const c = await modern(tokens['owner']!);
    const cut = await c.callRaw('jobsSlow__long', { tag: 'slow', steps: 100, stepMs: 100 }, { declare: false });
    expect(cut.kind === 'error' && cut.error.message).toMatch(/timed out after 400 ms/);
    const counts = async (): Promise<Record<string, number>> =>
      JSON.parse(textOf(await c.client.callTool({ name: 'jobsSlow__statuses', arguments: {} }))) as Record<
        string,
        number
      >;
    await waitUntil(async () => (await counts())['cancelled'] === 1, { timeoutMs: 5_000 });
  });

  it("refuses another profile's task id, and has no tasks/list or tasks/result", async () => {
    const owner = await modern(tokens['owner']!);
    const other = await modern(tokens['other']!);
    const created = await owner.createTask('t26__long', { steps: 50, stepMs: 100 });
    await expect(other.getTask(created.taskId)).rejects.toSatisfy((e) => e instanceof RpcError && e.code === -32602);
    await expect(other.cancelTask(created.taskId)).rejects.toBeInstanceOf(RpcError);
    expect((await owner.getTask(created.taskId)).status).not.toBe('cancelled');
    for (const method of ['tasks/list', 'tasks/result']) {
      const answer = await owner.rpc(method, method === 'tasks/list' ? {} : { taskId: created.taskId });
      expect(answer.kind === 'error' && answer.error.code).toBe(-32601);
    }
    await owner.cancelTask(created.taskId);
  });

  it('pushes notifications/tasks on a subscriptions/listen for its own tasks, to completion', async () => {
    const c = await modern(tokens['owner']!);
    const backend = await c.createTask('t26__long', { steps: 4, stepMs: 400 });
    // A 2025 backend's task (its own status notifications and our background fetch).
    const older = await c.createTask('jobs__long', { tag: 'old', steps: 3, stepMs: 400 });
    // Switchboard's own task of a plain tool: answered as a task once it asks (input_required).
    const ours = await c.createTask('asks__ask', { tag: 'pushed' });
    const listen = await c.listen([backend.taskId, ours.taskId, older.taskId]);
    try {
      expect((await listen.acknowledged).sort()).toEqual([backend.taskId, ours.taskId, older.taskId].sort());
      // Nobody polls: the pushes alone show a step, the end with its result inline, and the question.
      const step = await listen.next(
        (t) => t['taskId'] === backend.taskId && /^step \d\/4$/.test(String(t['statusMessage'])),
      );
      expect(step['status']).toBe('working');
      const done = await listen.next((t) => t['taskId'] === backend.taskId && TERMINAL.includes(String(t['status'])));
      expect(done['status']).toBe('completed');
      expect(textOf(resultOf(done))).toBe('long: 4 steps');
      const olderDone = await listen.next((t) => t['taskId'] === older.taskId && t['status'] === 'completed');
      expect(textOf(resultOf(olderDone))).toBe('long(old) after 3 steps');
      const asking = await c.getTask(ours.taskId);
      const [key] = Object.keys((asking as { inputRequests: object }).inputRequests);
      await c.updateTask(ours.taskId, { [key!]: { action: 'accept', content: { answer: 'yes' } } });
      const answered = await listen.next((t) => t['taskId'] === ours.taskId && t['status'] === 'completed');
      expect(textOf(resultOf(answered))).toBe('ask(pushed) -> accept:yes');
    } finally {
      listen.close();
    }
  });

  it("honours no other profile's task id on subscriptions/listen, and pushes nothing of it", async () => {
    const owner = await modern(tokens['owner']!);
    const other = await modern(tokens['other']!);
    const theirs = await owner.createTask('t26__long', { steps: 3, stepMs: 100 });
    const mine = await other.createTask('t26__long', { steps: 3, stepMs: 100 });
    const listen = await other.listen([theirs.taskId, 'no-such-task', mine.taskId]);
    try {
      expect(await listen.acknowledged).toEqual([mine.taskId]);
      await listen.next((t) => t['taskId'] === mine.taskId && TERMINAL.includes(String(t['status'])));
      expect((await owner.waitForStatus(theirs.taskId, TERMINAL)).status).toBe('completed');
      expect(listen.received.map((t) => t['taskId'])).not.toContain(theirs.taskId);
    } finally {
      listen.close();
    }
    const none = await other.listen([theirs.taskId]);
    expect(await none.acknowledged).toEqual([]);
    none.close();
    // A listen for tasks from a request that did not declare the extension: -32021 (spec).
    const undeclared = await other.rpc(
      'subscriptions/listen',
      { notifications: { taskIds: [mine.taskId] } },
      { declare: false },
    );
    expect(undeclared.kind === 'error' && undeclared.error.code).toBe(-32021);
  });

  it("serves a 2026 backend's task to a 2025 client: tasks/get, and tasks/result once it ends", async () => {
    const c = new V1Client({ name: 'v1', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
    c.setRequestHandler(ElicitRequestSchema, () => ({ action: 'accept', content: { answer: 'v1' } }));
    await c.connect(
      new V1HttpTransport(new URL(proxy.url), {
        requestInit: { headers: { Authorization: `Bearer ${tokens['owner']!}` } },
      }),
    );
    try {
      const tools = (await c.listTools()).tools;
      expect(tools.find((tool) => tool.name === 't26__long')?.execution?.taskSupport).toBe('optional');
      const start = async (name: string, args: Record<string, unknown>) =>
        (await c.request({ method: 'tools/call', params: { name, arguments: args, task: {} } }, CreateTaskResultSchema))
          .task;
      const long = await start('t26__long', { steps: 2, stepMs: 50 });
      expect(long.taskId).toMatch(ID);
      expect(['working', 'completed']).toContain((await c.experimental.tasks.getTask(long.taskId)).status);
      const result = (await c.experimental.tasks.getTaskResult(long.taskId, CallToolResultSchema)) as CallToolResult;
      expect(firstText(result)).toBe('long: 2 steps');

      const ask = await start('t26__ask', { text: 'y' });
      const answered = (await c.experimental.tasks.getTaskResult(ask.taskId, CallToolResultSchema)) as CallToolResult;
      expect(firstText(answered)).toContain('accept:v1');
    } finally {
      await c.close();
    }
  });

  it('drives tasks of every kind of backend through the ext-tasks session (callTool, settle)', async () => {
    const c = await modern(tokens['owner']!);
    asked.length = 0;
    for (const [tool, args, text] of [
      ['t26__ask', { rounds: 2 }, 'ask -> accept:session 1 + accept:session 2'],
      ['jobs__confirm', { tag: 's' }, 'confirm(s) -> accept:session 3'],
      ['asks__ask', { tag: 's' }, 'ask(s) -> accept:session 4'],
    ] as const) {
      const execution = await c.session.callTool(tool, args);
      expect(execution.kind).toBe('task');
      const { outcome } = await execution.settle();
      expect(outcome.status).toBe('completed');
      expect(textOf(resultOf(outcome))).toBe(text);
    }
    // A 2026 backend that answers without a task (its decision): an immediate result through us too.
    const plain = await c.session.callTool('t26__no_task', { text: 'n' });
    expect(plain.kind).toBe('immediate');
    // A call we run that ends at once is answered as it is: no task (our decision, per request).
    const quick = await c.session.callTool('asks__status', {});
    expect(quick.kind).toBe('immediate');
  });

  it("bounds a call Switchboard runs as a task by the task's TTL, not the server's request timeout", async () => {
    const c = await modern(tokens['owner']!);
    const direct = await c.callRaw('slow__hold', { tag: 'direct' }, { declare: false });
    expect(direct.kind === 'error' && direct.error.message).toMatch(/timed out after 400 ms/);
    const created = await c.createTask('slow__hold', { tag: 'long-job' });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect((await c.getTask(created.taskId)).status).toBe('working');
    await c.callRaw('slow__release', { tag: 'long-job' });
    const done = await c.waitForStatus(created.taskId, TERMINAL);
    expect(textOf(resultOf(done))).toBe('hold(long-job)');
  });

  it("relays a 2026 HTTP backend's task: create, input through tasks/update, cancel", async () => {
    const c = await modern(tokens['owner']!);
    const ask = await c.createTask('t26h__ask', { text: 'h' });
    await c.waitForStatus(ask.taskId, ['input_required']);
    await c.updateTask(ask.taskId, { 'answer-1': { action: 'accept', content: { answer: 'http' } } });
    expect(textOf(resultOf(await c.waitForStatus(ask.taskId, TERMINAL)))).toContain('accept:http');
    const long = await c.createTask('t26h__long', { steps: 100, stepMs: 100 });
    await c.cancelTask(long.taskId);
    expect((await c.waitForStatus(long.taskId, TERMINAL)).status).toBe('cancelled');
  });

  it("fails a 2026 backend's open task when the backend crashes, saying so", async () => {
    const c = await modern(tokens['owner']!);
    const created = await c.createTask('t26__crash', { afterMs: 100 });
    const failed = await c.waitForStatus(created.taskId, TERMINAL, 15_000);
    expect(failed.status).toBe('failed');
    expect(failed.statusMessage).toMatch(/t26/);
  });
});

describe('task status notifications over serve --stdio (2026-07-28)', () => {
  it('acknowledges only live task ids of ours and pushes notifications/tasks to completion', async () => {
    const dir = await tempDir();
    const config = join(dir.path, 'config.json');
    await writeFile(config, JSON.stringify({ mcpServers: { jobs: nodeServer(JOBS) } }));
    const wire = new StdioClientTransport(serveStdio(config, dir.path));
    const messages: Record<string, unknown>[] = [];
    wire.onmessage = (message) => void messages.push(message as Record<string, unknown>);
    await wire.start();
    let nextId = 1;
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'stdio-tasks', version: '1' },
      'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } },
    };
    const request = async (method: string, params: Record<string, unknown>): Promise<Record<string, unknown>> => {
      const id = nextId++;
      await wire.send({ jsonrpc: '2.0', id, method, params: { ...params, _meta: meta } });
      let answer: Record<string, unknown> | undefined;
      await waitUntil(() => (answer = messages.find((m) => m['id'] === id && !('method' in m))) !== undefined, {
        timeoutMs: 15_000,
      });
      return answer!;
    };
    try {
      let created: Record<string, unknown> = {};
      await waitUntil(
        async () => {
          const answer = await request('tools/call', { name: 'jobs__long', arguments: { steps: 4, stepMs: 500 } });
          created = (answer['result'] ?? {}) as Record<string, unknown>;
          return created['resultType'] === 'task';
        },
        { timeoutMs: 20_000 },
      );
      const taskId = String(created['taskId']);
      const listenId = nextId++;
      await wire.send({
        jsonrpc: '2.0',
        id: listenId,
        method: 'subscriptions/listen',
        params: { notifications: { taskIds: [taskId, 'no-such-task'] }, _meta: meta },
      });
      const pushes = (): Record<string, unknown>[] =>
        messages
          .filter((m) => m['method'] === 'notifications/tasks')
          .map((m) => m['params'] as Record<string, unknown>);
      await waitUntil(() => pushes().some((t) => t['status'] === 'completed'), { timeoutMs: 15_000 });
      const ack = messages.find((m) => m['method'] === 'notifications/subscriptions/acknowledged');
      expect(ack?.['params']).toMatchObject({ notifications: { taskIds: [taskId] } });
      expect(messages.indexOf(ack!)).toBeLessThan(messages.findIndex((m) => m['method'] === 'notifications/tasks'));
      const done = pushes().find((t) => t['status'] === 'completed')!;
      expect(done['taskId']).toBe(taskId);
      expect(textOf(resultOf(done))).toBe('long() after 4 steps');
      await wire.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: listenId } });
    } finally {
      await wire.close();
      await dir.cleanup();
    }
  });
});
