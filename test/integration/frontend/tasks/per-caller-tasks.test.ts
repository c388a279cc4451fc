/**
 * Tasks through a per-caller server, against real parts: an oidc-provider
 * authorization server, its resource server (an SDK MCP server answering
 * with the subject of the token it sees: test/fixtures/oauth), two people
 * (alice, bob) as client profiles who each sign in through serve's own
 * /connections/ pages, and SDK v1 clients asking for 2025-11-25 tasks. A
 * task created through the per-caller server runs with its creator's
 * credentials; tasks/get and tasks/result answer its creator only; another
 * person signing in meanwhile (a change of the server's health) does not
 * fail it.
 */
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1HttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CallToolResultSchema,
  CreateTaskResultSchema,
  ElicitRequestSchema,
  type CallToolResult,
  type Task,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClientTokens } from '../../../../electron/core/catalog/index.js';
import { startAuthServer, type AuthServer } from '../../../fixtures/oauth/authServer.mjs';
import { startProtectedServer, type ProtectedServer } from '../../../fixtures/oauth/protectedServer.mjs';
import { startProxy, tempDir, type Harness } from '../../../helpers/harness.js';
import { completeAuthorization } from '../../../helpers/oauthBrowser.js';
import { waitUntil } from '../../../helpers/processes.js';

describe('tasks through a per-caller server', () => {
  let as: AuthServer;
  let rs: ProtectedServer;
  let harness: Harness;
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let alice: V1Client;
  let bob: V1Client;
  /** The sign-in links the clients were asked to open (URL-mode elicitation), newest last. */
  const links: string[] = [];

  async function client(token: string): Promise<V1Client> {
    const c = new V1Client(
      { name: 'per-caller-tasks', version: '1.0.0' },
      { capabilities: { elicitation: { form: {}, url: {} } } },
    );
    c.setRequestHandler(ElicitRequestSchema, (request) => {
      const { url } = request.params as { url?: string };
      if (url) links.push(url);
      return { action: 'accept' };
    });
    await c.connect(
      new V1HttpTransport(new URL(harness.url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }),
    );
    return c;
  }
  const start = async (c: V1Client, name: string, args: Record<string, unknown> = {}): Promise<Task> =>
    (await c.request({ method: 'tools/call', params: { name, arguments: args, task: {} } }, CreateTaskResultSchema))
      .task;
  const text = (result: CallToolResult) => (result.content[0] as { text: string }).text;
  /** The sign-in link a call that needs one carries (the error's data, or the URL-mode elicitation). */
  async function signInLink(c: V1Client): Promise<string> {
    const error = (await c.callTool({ name: 'prot__whoami', arguments: {} }).then(
      () => undefined,
      (caught: unknown) => caught,
    )) as { data?: { url?: string; elicitations?: { url: string }[] } } | undefined;
    const url = error?.data?.elicitations?.[0]?.url ?? error?.data?.url ?? links.at(-1);
    expect(url, 'a sign-in link').toBeDefined();
    return url!;
  }
  async function signIn(url: string, login: string): Promise<void> {
    const page = await completeAuthorization(url, { login });
    expect(page.status, page.body).toBe(200);
  }

  beforeAll(async () => {
    as = await startAuthServer();
    rs = await startProtectedServer({ issuer: as.issuer, slow: true });
    dir = await tempDir();
    const keyFile = join(dir.path, 'token.key');
    await writeFile(keyFile, randomBytes(32).toString('base64'));
    harness = await startProxy(
      { proxy: { credentialKeyFile: keyFile }, mcpServers: { prot: { url: rs.url, credentials: 'per-caller' } } },
      { tokens: new ClientTokens(join(dir.path, 'client-tokens.json')), deps: { stateDir: dir.path } },
    );
    const [operator] = await harness.core.connections.list({ clientId: 'local' });
    await signIn(operator?.signInUrl ?? '', 'operator');
    await waitUntil(() => harness.core.health().find((entry) => entry.id === 'prot')?.status === 'up', {
      timeoutMs: 10_000,
      description: 'prot up',
    });
    alice = await client(await harness.core.profiles.createProfile('alice', { name: 'Alice' }));
    bob = await client(await harness.core.profiles.createProfile('bob', { name: 'Bob' }));
    await signIn(await signInLink(alice), 'alice');
  }, 60_000);

  afterAll(async () => {
    await Promise.allSettled([alice?.close(), bob?.close()]);
    await harness?.close();
    await rs?.close();
    await as?.close();
    await dir?.cleanup();
  });

  it("runs with its creator's credentials, answers its creator only, and outlives another person's sign-in", async () => {
    const task = await start(alice, 'prot__slow', { ms: 1_500 });
    expect(task.status).toBe('working');
    // bob signs in while alice's task runs: the server's health changes, her task goes on.
    await signIn(await signInLink(bob), 'bob');
    // And the operator refreshes the server (its catalog listed again): her task goes on.
    await harness.core.refreshBackend('prot');
    await expect(bob.experimental.tasks.getTask(task.taskId)).rejects.toMatchObject({ code: -32602 });
    await expect(bob.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema)).rejects.toMatchObject({
      code: -32602,
    });
    const result = (await alice.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema)) as CallToolResult;
    expect(text(result)).toBe('alice after 1500 ms');
    expect((await alice.experimental.tasks.getTask(task.taskId)).status).toBe('completed');
    // bob's own task runs as bob.
    const his = await start(bob, 'prot__whoami');
    const hisResult = (await bob.experimental.tasks.getTaskResult(his.taskId, CallToolResultSchema)) as CallToolResult;
    expect(text(hisResult)).toMatch(/^bob /);
    await expect(alice.experimental.tasks.getTask(his.taskId)).rejects.toMatchObject({ code: -32602 });
  }, 30_000);
});
