/**
 * Tasks through the proxy (MCP 2025-11-25 tasks), with real SDK v1 clients
 * over the real HTTP endpoint and real child backends: a task server of ours
 * (test/fixtures/tasks-2025/jobs.mjs, SDK v1's task runtime) whose tasks are
 * forwarded, and a server without task support (asks.mjs) whose tools
 * Switchboard runs as its own tasks. Create, poll, fetch, cancel, expire;
 * input answered; forbidden respected; another profile's id refused; the cap
 * answered retryable; a backend crash failing its tasks; the audit log.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1HttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CallToolResultSchema,
  CreateTaskResultSchema,
  ElicitRequestSchema,
  TaskStatusNotificationSchema,
  type CallToolResult,
  type Task,
} from '@modelcontextprotocol/sdk/types.js';
import { AuditLog, ClientTokens } from '../../../../electron/core/catalog/index.js';
import { taskHandlers } from '../../../../electron/host/taskHandlers.js';
import { firstText, fixture, nodeServer, ROOT, startProxy, tempDir, type Harness } from '../../../helpers/harness.js';
import { waitUntil } from '../../../helpers/processes.js';

const JOBS = join(ROOT, 'test/fixtures/tasks-2025/jobs.mjs');
const RELATED = 'io.modelcontextprotocol/related-task';

describe('tasks through the proxy (2025-11-25)', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let proxy: Harness;
  let audit: AuditLog;
  const tokens: Record<string, string> = {};
  const elicited: { message: string; related: unknown }[] = [];

  /** A v1 client of one profile that answers elicitations with `yes`. */
  async function client(token: string): Promise<V1Client> {
    const c = new V1Client({ name: 'tasks-test', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
    c.setRequestHandler(ElicitRequestSchema, (request) => {
      elicited.push({ message: request.params.message, related: request.params._meta?.[RELATED] });
      return { action: 'accept', content: { answer: 'yes' } };
    });
    await c.connect(
      new V1HttpTransport(new URL(proxy.url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }),
    );
    return c;
  }
  const start = async (c: V1Client, name: string, args: Record<string, unknown> = {}, ttl?: number): Promise<Task> =>
    (
      await c.request(
        { method: 'tools/call', params: { name, arguments: args, task: ttl ? { ttl } : {} } },
        CreateTaskResultSchema,
      )
    ).task;
  const result = async (c: V1Client, taskId: string): Promise<CallToolResult> =>
    (await c.experimental.tasks.getTaskResult(taskId, CallToolResultSchema)) as CallToolResult;
  const settled = async (c: V1Client, taskId: string): Promise<Task> => {
    let task: Task | undefined;
    await waitUntil(
      async () => {
        task = await c.experimental.tasks.getTask(taskId);
        return ['completed', 'failed', 'cancelled'].includes(task.status);
      },
      { timeoutMs: 10_000 },
    );
    return task!;
  };

  beforeAll(async () => {
    dir = await tempDir();
    audit = new AuditLog({ dir: join(dir.path, 'audit') });
    proxy = await startProxy(
      {
        proxy: { maxTasksPerClient: 3 },
        mcpServers: {
          jobs: nodeServer(JOBS),
          // A Switchboard task relays a 2025 backend's questions, and a 2026 backend's input_required rounds.
          asks: nodeServer(fixture('asks.mjs'), [], { protocol: 'legacy' }),
          asks26: nodeServer(fixture('asks.mjs'), [], { protocol: '2026-07-28' }),
          // Advises a poll a minute apart: what reaches a client sooner came as a status notification.
          pushing: { ...nodeServer(JOBS), env: { JOBS_POLL_MS: '60000' } },
        },
      },
      { tokens: new ClientTokens(join(dir.path, 'client-tokens.json')), audit },
    );
    for (const id of ['owner', 'other', 'capped', 'policed'])
      tokens[id] = await proxy.core.profiles.createProfile(id, { name: id });
  });
  afterAll(async () => {
    await proxy?.close();
    await dir?.cleanup();
  });

  it("advertises tasks and each tool's task support", async () => {
    const c = await client(tokens['owner']!);
    expect(c.getServerCapabilities()?.tasks).toEqual({ list: {}, cancel: {}, requests: { tools: { call: {} } } });
    const support = Object.fromEntries(
      (await c.listTools()).tools.map((tool) => [tool.name, tool.execution?.taskSupport ?? 'forbidden']),
    );
    expect(support).toMatchObject({
      jobs__quick: 'optional',
      jobs__long: 'required',
      jobs__plain: 'forbidden',
      // A server without task support: Switchboard runs any of its tools as a task.
      asks__hold: 'optional',
    });
    await c.close();
  });

  it('forwards a task to a task server under an id of ours, and relays its status and result', async () => {
    const c = await client(tokens['owner']!);
    const task = await start(c, 'jobs__long', { tag: 'r', steps: 3, stepMs: 100 });
    expect(task.taskId).toMatch(/^[A-Za-z0-9_-]{22}$/);
    const statuses = new Set<string>();
    await waitUntil(
      async () => {
        const now = await c.experimental.tasks.getTask(task.taskId);
        if (now.statusMessage) statuses.add(now.statusMessage);
        return now.status === 'completed';
      },
      { timeoutMs: 10_000 },
    );
    expect(statuses.size).toBeGreaterThan(0);
    const done = await result(c, task.taskId);
    expect(firstText(done)).toBe('long(r) after 3 steps');
    expect(done._meta?.[RELATED]).toEqual({ taskId: task.taskId });
    await c.close();
  });

  it("relays a backend's status notifications to the task's owner as they come, without a poll", async () => {
    const c = await client(tokens['owner']!);
    const heard: Task[] = [];
    c.setNotificationHandler(TaskStatusNotificationSchema, (notification) => void heard.push(notification.params));
    const task = await start(c, 'pushing__long', { tag: 'p', steps: 3, stepMs: 150 });
    const mine = (): Task[] => heard.filter((t) => t.taskId === task.taskId);
    await waitUntil(() => mine().some((t) => t.status === 'completed'), { timeoutMs: 10_000 });
    expect(mine().map((t) => t.statusMessage)).toEqual(expect.arrayContaining(['step 1/3', 'step 2/3', 'step 3/3']));
    expect(firstText(await result(c, task.taskId))).toBe('long(p) after 3 steps');
    await c.close();
  });

  it('relays the question of an input_required task to its owner, marked with our task id', async () => {
    const c = await client(tokens['owner']!);
    const task = await start(c, 'jobs__confirm', { tag: 'deploy' });
    const done = await result(c, task.taskId);
    expect(firstText(done)).toBe('confirm(deploy) -> accept:yes');
    expect(elicited.find((e) => e.message === 'confirm deploy?')).toBeDefined();
    await c.close();
  });

  it("runs a plain server's tool as Switchboard's own task, its questions included", async () => {
    const c = await client(tokens['owner']!);
    const held = await start(c, 'asks__hold', { tag: 'wrap' });
    expect((await c.experimental.tasks.getTask(held.taskId)).status).toBe('working');
    await c.callTool({ name: 'asks__release', arguments: { tag: 'wrap' } });
    expect(firstText(await result(c, held.taskId))).toBe('hold(wrap)');

    for (const [backend, tag] of [
      ['asks', 'local'],
      ['asks26', 'local26'],
    ] as const) {
      const asked = await start(c, `${backend}__ask_twice`, { tag });
      await waitUntil(async () => (await c.experimental.tasks.getTask(asked.taskId)).status === 'input_required', {
        timeoutMs: 10_000,
      });
      expect(firstText(await result(c, asked.taskId))).toBe(`ask_twice(${tag}) -> yes + yes`);
      const questions = elicited.filter((e) => e.message.includes(tag));
      expect(questions.map((e) => e.related)).toEqual([{ taskId: asked.taskId }, { taskId: asked.taskId }]);
    }
    await c.close();
  });

  it('cancels a running task, forwarded or our own', async () => {
    const c = await client(tokens['owner']!);
    const remote = await start(c, 'jobs__long', { steps: 100, stepMs: 100 });
    const local = await start(c, 'asks__hold', { tag: 'cancel-me' });
    for (const task of [remote, local]) {
      expect((await c.experimental.tasks.cancelTask(task.taskId)).status).toBe('cancelled');
      expect((await c.experimental.tasks.getTask(task.taskId)).status).toBe('cancelled');
      await expect(c.experimental.tasks.cancelTask(task.taskId)).rejects.toMatchObject({ code: -32602 });
    }
    await waitUntil(
      async () => {
        const status = await c.callTool({ name: 'asks__status', arguments: {} });
        return (JSON.parse(firstText(status as CallToolResult)) as { holding: string[] }).holding.length === 0;
      },
      { timeoutMs: 10_000 },
    );
    await c.close();
  });

  it("respects a tool's forbidden and required task support", async () => {
    const c = await client(tokens['owner']!);
    await expect(start(c, 'jobs__plain')).rejects.toMatchObject({ code: -32601 });
    // A task-only tool called plainly by a 2025 client: the server's -32601 (2026 clients get the result).
    const plain = { method: 'tools/call' as const, params: { name: 'jobs__long', arguments: { steps: 1 } } };
    const refused = (await c.request(plain, CallToolResultSchema)) as CallToolResult;
    expect(refused.isError).toBe(true);
    expect(firstText(refused)).toMatch(/-32601.*requires task augmentation/);
    await c.close();
  });

  it("answers another profile's task id as unknown and lists only a client's own tasks", async () => {
    const owner = await client(tokens['owner']!);
    const other = await client(tokens['other']!);
    const task = await start(owner, 'jobs__quick', { tag: 'mine' });
    await expect(other.experimental.tasks.getTask(task.taskId)).rejects.toMatchObject({ code: -32602 });
    await expect(result(other, task.taskId)).rejects.toMatchObject({ code: -32602 });
    await expect(other.experimental.tasks.cancelTask(task.taskId)).rejects.toMatchObject({ code: -32602 });
    expect((await other.experimental.tasks.listTasks()).tasks).toEqual([]);
    expect((await owner.experimental.tasks.listTasks()).tasks.map((t) => t.taskId)).toContain(task.taskId);
    expect(firstText(await result(owner, task.taskId))).toBe('quick(mine)');
    await Promise.all([owner.close(), other.close()]);
  });

  it('asks the policy at creation and again at tasks/result', async () => {
    const c = await client(tokens['policed']!);
    const task = await start(c, 'asks__hold', { tag: 'policy' });
    await proxy.core.policy.setRule('asks', 'tools', 'hold', 'deny', 'policed');
    await expect(start(c, 'asks__hold', { tag: 'policy' })).rejects.toMatchObject({ code: -32602 });
    await proxy.core.router.callTool({ name: 'asks__release', arguments: { tag: 'policy' } });
    await settled(c, task.taskId);
    await expect(result(c, task.taskId)).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('asks__hold'),
    });
    await proxy.core.policy.setRule('asks', 'tools', 'hold', null, 'policed');
    expect(firstText(await result(c, task.taskId))).toBe('hold(policy)');
    await c.close();
  });

  it('answers a task beyond the cap with a retryable error', async () => {
    const c = await client(tokens['capped']!);
    const held = [];
    for (let i = 0; i < 3; i++) held.push(await start(c, 'asks__hold', { tag: 'cap' }));
    const refused = await start(c, 'asks__hold', { tag: 'cap' }).catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: -32000, data: { code: 'task_limit', retryable: true } });
    await c.experimental.tasks.cancelTask(held[0]!.taskId);
    const again = await start(c, 'jobs__quick', { tag: 'after' });
    expect(firstText(await result(c, again.taskId))).toBe('quick(after)');
    for (const task of held.slice(1)) await c.experimental.tasks.cancelTask(task.taskId);
    await c.close();
  });

  it('drops a task and its result once its TTL runs out', async () => {
    const c = await client(tokens['owner']!);
    const task = await start(c, 'jobs__quick', { tag: 'short' }, 300);
    expect(task.ttl).toBe(300);
    await waitUntil(
      async () => {
        const gone = await c.experimental.tasks.getTask(task.taskId).then(
          () => false,
          (error: { code?: number }) => error.code === -32602,
        );
        return gone;
      },
      { timeoutMs: 10_000 },
    );
    await expect(result(c, task.taskId)).rejects.toMatchObject({ code: -32602 });
    await c.close();
  });

  it('fails the open tasks of a backend that crashes, saying so', async () => {
    const c = await client(tokens['owner']!);
    const task = await start(c, 'jobs__long', { steps: 1000, stepMs: 100 });
    await c.callTool({ name: 'jobs__crash', arguments: {} });
    const failed = await settled(c, task.taskId);
    expect(failed.status).toBe('failed');
    expect(failed.statusMessage).toContain('server jobs');
    await expect(result(c, task.taskId)).rejects.toThrow(/server jobs/);
    await c.close();
  });

  it("lists every profile's tasks to the host, cancels a running one, and says when tasks change", async () => {
    let changes = 0;
    const stop = proxy.core.events.on('tasksChanged', () => void changes++);
    const host = taskHandlers(proxy.core);
    const c = await client(tokens['other']!);
    const task = await start(c, 'asks__hold', { tag: 'host' });
    const row = (await host['tasks.list'](undefined, { signal: new AbortController().signal })).find(
      (view) => view.id === task.taskId,
    );
    expect(row).toMatchObject({ status: 'working', client: 'other', backend: 'asks', tool: 'asks__hold' });
    expect(row?.runsOn).toBe('switchboard');
    const signal = new AbortController().signal;
    expect(await host['tasks.cancel']({ id: task.taskId }, { signal })).toEqual({ cancelled: true });
    expect(await host['tasks.cancel']({ id: task.taskId }, { signal })).toEqual({ cancelled: false });
    expect((await c.experimental.tasks.getTask(task.taskId)).status).toBe('cancelled');
    expect(changes).toBeGreaterThanOrEqual(2);
    stop();
    await c.close();
  });

  it('records creation, completion and cancellation in the audit log', async () => {
    const entries = await proxy.core.audit.query({ kind: 'task' });
    const details = entries.map((entry) => entry.detail ?? '');
    expect(details.some((d) => / created/.test(d))).toBe(true);
    expect(details.some((d) => / completed/.test(d))).toBe(true);
    expect(details.some((d) => / cancelled/.test(d))).toBe(true);
    expect(entries.find((entry) => entry.detail?.includes('cancelled'))?.outcome).toBe('cancelled');
  });
});
