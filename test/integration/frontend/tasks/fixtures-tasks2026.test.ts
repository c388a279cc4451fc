/**
 * The 2026-07-28 tasks fixture (test/fixtures/tasks-2026) driven direct, over Streamable HTTP,
 * by test/helpers/tasks2026Client.ts: the ext-tasks requester session and the raw wire helpers
 * the proxy tests reuse against serve. Proves the fixture before anything relays it.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as V1StdioTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { ROOT } from '../../../helpers/harness.js';
import { spawnServer, type SpawnedServer } from '../../../helpers/spawnServer.js';
import { RpcError, TASKS_EXTENSION, connectTasks2026, type Tasks2026Client } from '../../../helpers/tasks2026Client.js';

const TASKS_2026 = join(ROOT, 'test/fixtures/tasks-2026/server.mjs');
const LISTENING = /LISTENING (\S+)/;

const textOf = (result: unknown): string =>
  ((result as { content?: { type: string; text?: string }[] }).content ?? []).map((c) => c.text ?? '').join('');

describe('tasks-2026 fixture, direct', () => {
  let server: SpawnedServer;
  let tasks: Tasks2026Client;
  const asked: string[] = [];

  beforeAll(async () => {
    server = await spawnServer([TASKS_2026, 'http'], LISTENING, { TASKS_POLL_MS: '20' });
    tasks = await connectTasks2026(server.match[1]!, {
      capabilities: { elicitation: { form: {} } },
      onInputRequest: async (request) => {
        asked.push(String((request.params as { message?: string }).message));
        return { action: 'accept', content: { answer: `answer ${asked.length}` } };
      },
    });
  });
  const stats = async (): Promise<{ steps: number; cancelRequests: number }> => {
    const outcome = await tasks.callRaw('task_stats');
    if (outcome.kind !== 'result') throw new Error(JSON.stringify(outcome));
    return JSON.parse(textOf(outcome.result)) as { steps: number; cancelRequests: number };
  };
  afterAll(async () => {
    await tasks?.close();
    await server?.stop();
  });

  it('declares the extension in server/discover and lists tools without execution', async () => {
    expect(tasks.serverDeclaresTasks).toBe(true);
    const { tools } = await tasks.client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(['quick', 'long', 'ask', 'fail', 'needs_task', 'no_task', 'echo']),
    );
    expect(tools.some((tool) => 'execution' in tool)).toBe(false);
  });

  it('creates a task, polls it to completion and reads the result inline from tasks/get', async () => {
    const created = await tasks.createTask('quick', { text: 'hi' });
    expect(created).toMatchObject({ resultType: 'task', ttlMs: 60_000, pollIntervalMs: 20 });
    expect(created.taskId).toMatch(/^[\w-]{20,}$/);
    const done = await tasks.waitForStatus(created.taskId, ['completed', 'failed', 'cancelled']);
    expect(done.status).toBe('completed');
    expect(done.resultType).toBe('complete');
    expect(textOf((done as { result: unknown }).result)).toBe('quick(hi)');
  });

  it('runs a task through the ext-tasks session: callTool, settle, result', async () => {
    const execution = await tasks.session.callTool('quick', { text: 'via session' });
    expect(execution.kind).toBe('task');
    const { outcome } = await execution.settle();
    expect(outcome.status).toBe('completed');
    expect(textOf((outcome as { result: unknown }).result)).toBe('quick(via session)');
  });

  it('reports progress of a long task in statusMessage while it works', async () => {
    const { taskId } = await tasks.createTask('long', { steps: 4, stepMs: 60 });
    const seen = new Set<string>();
    for (;;) {
      const task = await tasks.getTask(taskId);
      if (task.status === 'working' && task.statusMessage) seen.add(task.statusMessage);
      if (task.status === 'completed') {
        expect(textOf((task as { result: unknown }).result)).toBe('long: 4 steps');
        break;
      }
      expect(task.status).toBe('working');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect([...seen].every((message) => /^step [1-4]\/4$/.test(message))).toBe(true);
    expect(seen.size).toBeGreaterThan(0);
  });

  it('cancels a running task: tasks/cancel acks, the task ends cancelled and stops working', async () => {
    const { taskId } = await tasks.createTask('long', { steps: 100, stepMs: 50 });
    await tasks.waitForStatus(taskId, ['working']);
    await tasks.cancelTask(taskId);
    const task = await tasks.waitForStatus(taskId, ['cancelled', 'completed']);
    expect(task.status).toBe('cancelled');
    // the work itself stopped: no more steps run anywhere (no other task runs meanwhile)
    const before = await stats();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await stats()).steps).toBe(before.steps);
    expect(before.cancelRequests).toBeGreaterThan(0);
  });

  it('cancels through the session: the outcome is cancelled', async () => {
    const execution = await tasks.session.callTool('long', { steps: 100, stepMs: 50 });
    await execution.cancel();
    const { outcome } = await execution.settle();
    expect(outcome.status).toBe('cancelled');
  });

  it('answers an input_required task with tasks/update', async () => {
    const { taskId } = await tasks.createTask('ask', { text: 'raw' });
    const waiting = await tasks.waitForStatus(taskId, ['input_required']);
    const requests = (waiting as { inputRequests: Record<string, { method: string; params: { message: string } }> })
      .inputRequests;
    expect(Object.keys(requests)).toEqual(['answer-1']);
    expect(requests['answer-1']).toMatchObject({
      method: 'elicitation/create',
      params: { message: 'question 1 of 1 (raw)?' },
    });
    await tasks.updateTask(taskId, { 'answer-1': { action: 'accept', content: { answer: 'Luca' } } });
    const done = await tasks.waitForStatus(taskId, ['completed', 'failed', 'cancelled']);
    expect(textOf((done as { result: unknown }).result)).toBe('ask -> accept:Luca');
  });

  it('answers input rounds through the session input handler', async () => {
    asked.length = 0;
    const execution = await tasks.session.callTool('ask', { rounds: 2 });
    const { outcome } = await execution.settle();
    expect(asked).toEqual(['question 1 of 2?', 'question 2 of 2?']);
    expect(textOf((outcome as { result: unknown }).result)).toBe('ask -> accept:answer 1 + accept:answer 2');
  });

  it('ends a task failed with the JSON-RPC error the work raised', async () => {
    const { taskId } = await tasks.createTask('fail', { text: 'boom' });
    const task = await tasks.waitForStatus(taskId, ['failed', 'completed']);
    expect(task).toMatchObject({ status: 'failed', error: { code: -32603, message: 'boom' } });
  });

  it('refuses a task for a forbidden tool: an immediate result even when the client requires a task', async () => {
    const raw = await tasks.callRaw('no_task', { text: 'x' });
    expect(raw.kind).toBe('result');
    expect(raw.kind === 'result' && raw.result).toMatchObject({ resultType: 'complete' });
    expect(raw.kind === 'result' && 'taskId' in raw.result).toBe(false);
    await expect(tasks.session.callTool('no_task', {}, { task: { preference: 'require' } })).rejects.toThrow(
      /required but the server returned an immediate result/,
    );
    const plain = await tasks.session.callTool('echo', { text: 'plain' });
    expect(plain.kind).toBe('immediate');
  });

  it('gives no task to a request without the extension: inline result, -32021 where a task is needed', async () => {
    const inline = await tasks.callRaw('quick', { text: 'inline' }, { declare: false });
    expect(inline.kind === 'result' && inline.result).toMatchObject({ resultType: 'complete' });
    expect(textOf(inline.kind === 'result' ? inline.result : {})).toBe('quick(inline)');
    const refused = await tasks.callRaw('needs_task', {}, { declare: false });
    expect(refused.kind === 'error' && refused.error).toEqual({
      code: -32021,
      message: expect.any(String),
      data: { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
    });
    const { taskId } = await tasks.createTask('quick');
    const get = await tasks.rpc('tasks/get', { taskId }, { declare: false });
    expect(get.kind === 'error' && get.error.code).toBe(-32021);
  });

  it('answers wire errors: unknown task -32602, tasks/result and tasks/list -32601, wrong Mcp-Name -32020', async () => {
    await expect(tasks.getTask('no-such-task')).rejects.toMatchObject({ code: -32602 });
    await expect(tasks.getTask('no-such-task')).rejects.toBeInstanceOf(RpcError);
    const { taskId } = await tasks.createTask('quick');
    expect(await tasks.rpc('tasks/result', { taskId })).toMatchObject({ kind: 'error', error: { code: -32601 } });
    expect(await tasks.rpc('tasks/list', {})).toMatchObject({ kind: 'error', error: { code: -32601 } });
    const mismatch = await tasks.rpc('tasks/get', { taskId }, { headers: { 'mcp-name': 'another-task' } });
    expect(mismatch).toMatchObject({ kind: 'error', httpStatus: 400, error: { code: -32020 } });
  });

  it('pushes status notifications on subscriptions/listen for the tasks asked for', async () => {
    const { taskId } = await tasks.createTask('long', { steps: 3, stepMs: 50 });
    const listen = await tasks.listen([taskId, 'no-such-task']);
    try {
      expect(await listen.acknowledged).toEqual([taskId]);
      const done = await listen.next((note) => note.status === 'completed');
      expect(done).toMatchObject({ taskId, status: 'completed' });
      expect(textOf(done.result)).toBe('long: 3 steps');
      expect(listen.received.every((note) => note.taskId === taskId)).toBe(true);
    } finally {
      listen.close();
    }
  });
});

describe('tasks-2026 fixture options', () => {
  it('drops a task at the end of TASKS_TTL_MS: tasks/get then says it expired', async () => {
    const server = await spawnServer([TASKS_2026, 'http'], LISTENING, { TASKS_TTL_MS: '1000' });
    const tasks = await connectTasks2026(server.match[1]!);
    try {
      const { taskId, ttlMs } = await tasks.createTask('quick');
      expect(ttlMs).toBe(1000);
      expect((await tasks.getTask(taskId)).taskId).toBe(taskId);
      // polled rather than slept: the expiry timer runs in a child that may be slow here
      let error: unknown;
      for (const deadline = Date.now() + 5000; error === undefined && Date.now() < deadline;) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        error = await tasks.getTask(taskId).then(
          () => undefined,
          (failure: unknown) => failure,
        );
      }
      expect(String(error)).toMatch(/-32602 Failed to retrieve task: Task has expired/);
    } finally {
      await tasks.close();
      await server.stop();
    }
  });

  it('exits mid-task with TASKS_CRASH_AFTER_STEP', async () => {
    const server = await spawnServer([TASKS_2026, 'http'], LISTENING, { TASKS_CRASH_AFTER_STEP: '1' });
    const tasks = await connectTasks2026(server.match[1]!);
    try {
      const exited = new Promise<number | null>((resolve) => server.child.once('exit', resolve));
      const { taskId } = await tasks.createTask('long', { steps: 5, stepMs: 50 });
      expect(taskId).toBeTruthy();
      expect(await exited).toBe(3);
      await expect(tasks.getTask(taskId)).rejects.toThrow();
    } finally {
      await tasks.close().catch(() => undefined);
      await server.stop();
    }
  });
});

describe('tasks-2026 fixture over stdio', () => {
  it('creates and completes a task for a 2026-07-28 request that declares the extension', async () => {
    // The SDK client's stdio transport as a plain JSON-RPC pipe: its Client would reject
    // resultType "task", the transport carries it as is.
    const transport = new StdioClientTransport({ command: process.execPath, args: [TASKS_2026], stderr: 'pipe' });
    const answers = new Map<number, (message: Record<string, unknown>) => void>();
    transport.onmessage = (message) => {
      const { id } = message as { id?: number };
      if (id !== undefined) answers.get(id)?.(message as Record<string, unknown>);
    };
    await transport.start();
    let nextId = 0;
    const request = (method: string, params: Record<string, unknown>): Promise<Record<string, unknown>> => {
      const id = ++nextId;
      const answer = new Promise<Record<string, unknown>>((resolve) => answers.set(id, resolve));
      const _meta = {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientInfo': { name: 'stdio-test', version: '1.0.0' },
        'io.modelcontextprotocol/clientCapabilities': { extensions: { [TASKS_EXTENSION]: {} } },
      };
      void transport.send({ jsonrpc: '2.0', id, method, params: { ...params, _meta } });
      return answer;
    };
    try {
      const created = (await request('tools/call', { name: 'quick', arguments: { text: 'stdio' } })).result as {
        resultType: string;
        taskId: string;
      };
      expect(created.resultType).toBe('task');
      let task: { status: string; result?: unknown } = { status: 'working' };
      for (let polls = 0; task.status === 'working' && polls < 100; polls++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        task = (await request('tasks/get', { taskId: created.taskId })).result as typeof task;
      }
      expect(task.status).toBe('completed');
      expect(textOf(task.result)).toBe('quick(stdio)');
    } finally {
      await transport.close();
    }
  });

  it('runs the task tools inline for a 2025-11-25 client (SDK v1), input by elicitation', async () => {
    const client = new V1Client({ name: 'v1-test', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    const asked: string[] = [];
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      return { action: 'accept', content: { answer: `v1-${asked.length}` } };
    });
    await client.connect(new V1StdioTransport({ command: process.execPath, args: [TASKS_2026], stderr: 'pipe' }));
    try {
      expect(textOf(await client.callTool({ name: 'quick', arguments: { text: 'old' } }))).toBe('quick(old)');
      const answered = await client.callTool({ name: 'ask', arguments: { rounds: 2 } });
      expect(textOf(answered)).toBe('ask -> accept:v1-1 + accept:v1-2');
      expect(asked).toEqual(['question 1 of 2?', 'question 2 of 2?']);
      await expect(client.callTool({ name: 'needs_task', arguments: {} })).rejects.toMatchObject({ code: -32021 });
    } finally {
      await client.close();
    }
  });
});
