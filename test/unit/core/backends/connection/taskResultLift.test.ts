/**
 * The seam that carries a 2026-07-28 backend's `resultType: "task"` answer
 * past the SDK client (whose codec refuses it): a real SDK v2 client pinned to
 * 2026-07-28, over an in-memory transport to a scripted peer, gets the
 * backend's CreateTaskResult back, lifted, while ordinary results pass untouched.
 */
import { describe, expect, it } from 'vitest';
import { Client, InMemoryTransport, type JSONRPCMessage } from '@modelcontextprotocol/client';
import { liftedTask, liftTaskResults } from '../../../../../electron/core/backends/connection/taskResultLift.js';

const PASSTHROUGH = {
  '~standard': { version: 1 as const, vendor: 'test', validate: (value: unknown) => ({ value }) },
};

/** A scripted 2026-07-28 peer (server/discover, then tools/call answering `answer(name)`) and a client pinned to it. */
async function connected(answer: (name: string) => Record<string, unknown>): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  serverSide.onmessage = (message: JSONRPCMessage) => {
    const request = message as { id?: number; method?: string; params?: { name?: string } };
    if (request.id === undefined) return;
    const result =
      request.method === 'server/discover'
        ? {
            resultType: 'complete',
            supportedVersions: ['2026-07-28'],
            capabilities: { tools: {} },
            _meta: { 'io.modelcontextprotocol/serverInfo': { name: 's', version: '1' } },
          }
        : answer(request.params?.name ?? '');
    void serverSide.send({ jsonrpc: '2.0', id: request.id, result } as JSONRPCMessage);
  };
  await serverSide.start();
  const client = new Client({ name: 'c', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(clientSide);
  return client;
}

describe('liftTaskResults', () => {
  it("hands a task answer on as a complete result carrying the backend's task", async () => {
    const task = {
      resultType: 'task',
      taskId: 't-1',
      status: 'working',
      ttlMs: 1000,
      createdAt: 'x',
      lastUpdatedAt: 'x',
    };
    const client = await connected((name) =>
      name === 'job' ? task : { resultType: 'complete', content: [{ type: 'text', text: name }] },
    );
    // The SDK alone refuses the answer (its 2026 codec knows no resultType "task").
    await expect(client.request({ method: 'tools/call', params: { name: 'job' } }, PASSTHROUGH)).rejects.toThrow(
      /Unsupported result type 'task'/,
    );
    liftTaskResults(client.transport!);
    const lifted = await client.request({ method: 'tools/call', params: { name: 'job' } }, PASSTHROUGH);
    expect(liftedTask(lifted)).toEqual(task);
    const plain = await client.request({ method: 'tools/call', params: { name: 'echo' } }, PASSTHROUGH);
    expect(liftedTask(plain)).toBeUndefined();
    expect(plain).toMatchObject({ content: [{ type: 'text', text: 'echo' }] });
    await client.close();
  });
});
