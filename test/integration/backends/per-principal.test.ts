/**
 * `instances: "per-principal"` against real parts: one real `serve` in
 * gateway mode trusting a test issuer that signs tokens for two people, and
 * the real `@modelcontextprotocol/server-memory` as a stdio server whose
 * memory file names the person (`MEMORY_FILE_PATH=<dir>/${principal.id}.json`).
 * Each person gets their own process, started at their first call, never
 * used for the other, stopped after the idle timeout and reaped at serve's stop.
 */
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { startProxy } from '../../helpers/harness.js';
import { isAlive, processesWithEnv, waitUntil } from '../../helpers/processes.js';
import { startServeHttp, type ServedHttp } from '../../helpers/serveHttp.js';
import { startTokenIssuer, type TokenIssuer } from '../../helpers/tokenIssuer.js';
import { freePort } from '../../helpers/spawnServer.js';

const MEMORY_SERVER = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-memory/dist/index.js');
const IDLE_MS = 2000;

let issuer: TokenIssuer;
let serve: ServedHttp;
let dir: string;
let resource: string;
const clients: Record<'alice' | 'bob', Client> = {} as Record<'alice' | 'bob', Client>;

/** A person's SDK client of /mcp, with a token our issuer signed for them. */
async function person(subject: 'alice' | 'bob'): Promise<Client> {
  const token = await issuer.sign({ sub: subject, aud: resource, scope: 'mcp' });
  const client = new Client({ name: `${subject}-client`, version: '1.0.0' });
  const headers = { Authorization: `Bearer ${token}` };
  await client.connect(new StreamableHTTPClientTransport(new URL(resource), { requestInit: { headers } }));
  return client;
}

/** A person's `${principal.id}`, as docs/config.md defines it. */
const principalId = (subject: string): string =>
  createHash('sha256').update(`mcp-switchboard principal\0${issuer.issuer}#${subject}`).digest('hex').slice(0, 32);

/** The processes of a person's instance (by the memory file their env names). */
const processesOf = (subject: 'alice' | 'bob' | 'local'): number[] => {
  const id = subject === 'local' ? 'local' : principalId(subject);
  return processesWithEnv('MEMORY_FILE_PATH', join(dir, `${id}.json`));
};

/** The text of a tool call's answer. */
async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<string> {
  const result = await client.callTool({ name: `memory__${name}`, arguments: args });
  expect(result.isError ?? false).toBe(false);
  return (result.content as { type: string; text?: string }[]).map((block) => block.text ?? '').join('');
}

beforeAll(async () => {
  issuer = await startTokenIssuer();
  dir = await mkdtemp(join(tmpdir(), 'switchboard-per-principal-'));
  const port = await freePort();
  resource = `http://127.0.0.1:${port}/mcp`;
  const config = {
    mcpServers: {
      memory: {
        command: process.execPath,
        args: [MEMORY_SERVER],
        env: { MEMORY_FILE_PATH: join(dir, '${principal.id}.json') },
        instances: 'per-principal',
        idleTimeoutMs: IDLE_MS,
      },
    },
    gateway: { resource, authorizationServers: [issuer.issuer], defaultProfile: 'everyone' },
    policy: { clients: { everyone: { name: 'Everyone' } } },
  };
  serve = await startServeHttp(config, { port });
  [clients.alice, clients.bob] = await Promise.all([person('alice'), person('bob')]);
  // The catalog comes from the local user's instance, listed at start.
  await waitUntil(async () =>
    (await clients.alice.listTools()).tools.some((tool) => tool.name === 'memory__read_graph'),
  );
}, 30_000);

afterAll(async () => {
  await Promise.allSettled(Object.values(clients).map((client) => client.close()));
  await serve?.stop();
  await issuer?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('a stdio server with one process per person', () => {
  it("keeps each person's state apart, even for the same tool called at once", async () => {
    expect(processesOf('local')).toHaveLength(1);
    expect(processesOf('alice')).toEqual([]);
    const entity = (name: string) => ({ entities: [{ name, entityType: 'note', observations: [`${name} says hi`] }] });
    await call(clients.alice, 'create_entities', entity('alice-secret'));
    await call(clients.bob, 'create_entities', entity('bob-plan'));
    const [aliceGraph, bobGraph] = await Promise.all([
      call(clients.alice, 'read_graph'),
      call(clients.bob, 'read_graph'),
    ]);
    expect(aliceGraph).toContain('alice-secret');
    expect(aliceGraph).not.toContain('bob-plan');
    expect(bobGraph).toContain('bob-plan');
    expect(bobGraph).not.toContain('alice-secret');
    // On disk: one file per person, named by their id (a hash, never the subject).
    const files = (await readdir(dir)).sort();
    expect(files).toHaveLength(2);
    expect(files.join(' ')).not.toMatch(/alice|bob/);
    // Two processes of their own, besides the local user's.
    const [alice] = processesOf('alice');
    const [bob] = processesOf('bob');
    expect(alice).toBeDefined();
    expect(bob).toBeDefined();
    expect(new Set([alice, bob, ...processesOf('local')]).size).toBe(3);
  });

  it('stops a person’s process after the idle timeout, and starts it again at their next call', async () => {
    const [alice] = processesOf('alice');
    const [bob] = processesOf('bob');
    await waitUntil(() => !isAlive(alice!) && !isAlive(bob!), { timeoutMs: IDLE_MS * 6 });
    expect(processesOf('local')).toHaveLength(1);
    // Her state was on disk: a new process of hers reads it back.
    expect(await call(clients.alice, 'read_graph')).toContain('alice-secret');
    const [again] = processesOf('alice');
    expect(again).toBeDefined();
    expect(again).not.toBe(alice);
    expect(processesOf('bob')).toEqual([]);
  });

  it("reaps every person's process at serve's stop", async () => {
    // Both in use now (a process idle since the last test may have just been stopped).
    await Promise.all([call(clients.alice, 'read_graph'), call(clients.bob, 'read_graph')]);
    const running = [...processesOf('alice'), ...processesOf('bob'), ...processesOf('local')];
    expect(running).toHaveLength(3);
    await Promise.allSettled(Object.values(clients).map((client) => client.close()));
    await serve.stop();
    await waitUntil(() => running.every((pid) => !isAlive(pid)), { timeoutMs: 5000 });
  });
});

describe('a per-principal server in laptop mode (no signed-in people)', () => {
  it('is one process, the local user’s, with ${principal.id} = local', async () => {
    const laptop = await mkdtemp(join(tmpdir(), 'switchboard-per-principal-laptop-'));
    const file = join(laptop, 'local.json');
    const proxy = await startProxy({
      mcpServers: {
        memory: {
          command: process.execPath,
          args: [MEMORY_SERVER],
          env: { MEMORY_FILE_PATH: join(laptop, '${principal.id}.json') },
          instances: 'per-principal',
        },
      },
    });
    try {
      const client = await proxy.connect();
      const entities = [{ name: 'mine', entityType: 'note', observations: ['local'] }];
      await call(client, 'create_entities', { entities });
      expect(await call(client, 'read_graph')).toContain('mine');
      expect(await readdir(laptop)).toEqual(['local.json']);
      expect(processesWithEnv('MEMORY_FILE_PATH', file)).toHaveLength(1);
      expect(proxy.core.health()[0]?.principalProcesses).toBe(0);
    } finally {
      await proxy.close();
      await rm(laptop, { recursive: true, force: true });
    }
  });
});
