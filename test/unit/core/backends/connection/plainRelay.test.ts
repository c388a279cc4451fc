/**
 * The plain call's relay past the SDK client (plainRelay.ts) against the SDK
 * client itself: a real SDK v2 client pinned to 2026-07-28, over an in-memory
 * transport to a scripted peer, makes each call both ways (the SDK's request
 * with the PASSTHROUGH validator BackendRequests uses, and the relay), and the
 * two must reach the same outcome: the same result, or an error of the same
 * class, code, message and data; the same request on the wire (envelope
 * included); the same cancellation notice on abort and timeout; the same
 * error when the connection closes.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Client, InMemoryTransport, type JSONRPCMessage } from '@modelcontextprotocol/client';
import { FULL_PATH_ENV, PlainRelay } from '../../../../../electron/core/backends/connection/plainRelay.js';

const PASSTHROUGH = {
  '~standard': { version: 1 as const, vendor: 'test', validate: (value: unknown) => ({ value }) },
};
const INFO = { 'io.modelcontextprotocol/serverInfo': { name: 's', version: '1' } };

/** What the scripted peer answers to a tools/call of `name`: a result, an error, or nothing (it hangs). */
const ANSWERS: Record<string, { result: unknown } | { error: unknown } | undefined> = {
  plain: { result: { resultType: 'complete', content: [{ type: 'text', text: 'hi' }] } },
  structured: {
    result: { resultType: 'complete', content: [], structuredContent: { n: 1 }, isError: false, _meta: INFO },
  },
  failed: { result: { resultType: 'complete', content: [{ type: 'text', text: 'no' }], isError: true } },
  image: { result: { resultType: 'complete', content: [{ type: 'image', data: 'AA==', mimeType: 'image/png' }] } },
  link: {
    result: { resultType: 'complete', content: [{ type: 'resource_link', uri: 'file:///a', name: 'a' }], _meta: INFO },
  },
  asks: {
    result: {
      resultType: 'input_required',
      inputRequests: { q: { method: 'elicitation/create', params: { message: 'ok?', requestedSchema: {} } } },
      requestState: 'st',
    },
  },
  untyped: { result: { content: [{ type: 'text', text: 'x' }] } },
  odd: { result: { resultType: 'complete', content: [{ type: 'text', text: 5 }] } },
  other: { result: { resultType: 'later', content: [] } },
  broken: { error: { code: -32602, message: 'bad arguments', data: { field: 'x' } } },
  hang: undefined,
};

interface Peer {
  client: Client;
  relay: PlainRelay;
  /** Every message the peer received, in order. */
  received: JSONRPCMessage[];
  close(): Promise<void>;
}

/** A scripted 2026-07-28 peer and a client pinned to it, with the relay attached. */
async function connected(): Promise<Peer> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const received: JSONRPCMessage[] = [];
  serverSide.onmessage = (message: JSONRPCMessage) => {
    received.push(message);
    const request = message as { id?: number | string; method?: string; params?: { name?: string } };
    if (request.id === undefined) return;
    if (request.method === 'server/discover') {
      const result = { resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: { tools: {} } };
      void serverSide.send({ jsonrpc: '2.0', id: request.id, result: { ...result, _meta: INFO } } as JSONRPCMessage);
      return;
    }
    const answer = ANSWERS[request.params?.name ?? ''];
    if (answer) void serverSide.send({ jsonrpc: '2.0', id: request.id, ...answer } as JSONRPCMessage);
  };
  await serverSide.start();
  const client = new Client(
    { name: 'c', version: '1' },
    { capabilities: { elicitation: {} }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(clientSide);
  const relay = PlainRelay.attach(client)!;
  client.onclose = () => relay.closed();
  return { client, relay, received, close: () => client.close() };
}

/** How a call ended, comparable across the two ways. */
async function outcome(call: Promise<unknown>): Promise<unknown> {
  try {
    return { result: await call };
  } catch (error) {
    const { code, data } = error as { code?: unknown; data?: unknown };
    return { error: (error as Error).constructor.name, code, message: (error as Error).message, data };
  }
}

/** A message with its request id (ours or the SDK's) left out. */
function withoutId(message: JSONRPCMessage | undefined): unknown {
  const { id: _id, ...rest } = message as { id?: unknown };
  const params = (rest as { params?: { requestId?: unknown } }).params;
  if (params?.requestId !== undefined) return { ...rest, params: { ...params, requestId: '<id>' } };
  return rest;
}

const peers: Peer[] = [];
afterEach(async () => {
  for (const peer of peers.splice(0)) await peer.close();
});

describe('PlainRelay', () => {
  it('reaches the outcome the SDK client reaches, for every kind of answer', async () => {
    const peer = await connected();
    peers.push(peer);
    for (const name of Object.keys(ANSWERS).filter((n) => n !== 'hang')) {
      const params = { name, arguments: { a: 1 }, _meta: { k: 'v' } };
      const options = { signal: new AbortController().signal, timeout: 5000 };
      const sdk = await outcome(
        peer.client.request({ method: 'tools/call', params }, PASSTHROUGH, { ...options, allowInputRequired: true }),
      );
      const sdkSent = peer.received.at(-1);
      const relayed = await outcome(peer.relay.call(params, options));
      expect({ name, relayed }).toEqual({ name, relayed: sdk });
      expect(withoutId(peer.received.at(-1))).toEqual(withoutId(sdkSent));
    }
  });

  it('cancels as the SDK client does, on abort and on timeout', async () => {
    const peer = await connected();
    peers.push(peer);
    const params = { name: 'hang' };
    const aborted = async (request: (signal: AbortSignal) => Promise<unknown>): Promise<unknown> => {
      const controller = new AbortController();
      const call = outcome(request(controller.signal));
      setTimeout(() => controller.abort('caller left'), 10);
      return call;
    };
    const sdkAbort = await aborted((signal) =>
      peer.client.request({ method: 'tools/call', params }, PASSTHROUGH, { signal, timeout: 5000 }),
    );
    const sdkNotice = peer.received.at(-1);
    const relayAbort = await aborted((signal) => peer.relay.call(params, { signal, timeout: 5000 }));
    expect(relayAbort).toEqual(sdkAbort);
    expect(withoutId(peer.received.at(-1))).toEqual(withoutId(sdkNotice));
    expect((peer.received.at(-1) as { method?: string }).method).toBe('notifications/cancelled');

    const signal = new AbortController().signal;
    const sdkTimeout = await outcome(
      peer.client.request({ method: 'tools/call', params }, PASSTHROUGH, { signal, timeout: 20 }),
    );
    const sdkTimeoutNotice = peer.received.at(-1);
    const relayTimeout = await outcome(peer.relay.call(params, { signal, timeout: 20 }));
    expect(relayTimeout).toEqual(sdkTimeout);
    expect(relayTimeout).toMatchObject({ message: expect.stringMatching(/timed out/) });
    expect(withoutId(peer.received.at(-1))).toEqual(withoutId(sdkTimeoutNotice));
    expect((sdkTimeoutNotice as { method?: string }).method).toBe('notifications/cancelled');
  });

  it('fails a waiting call as the SDK client does when the connection closes', async () => {
    const peer = await connected();
    const signal = new AbortController().signal;
    const sdk = outcome(
      peer.client.request({ method: 'tools/call', params: { name: 'hang' } }, PASSTHROUGH, { signal }),
    );
    const relayed = outcome(peer.relay.call({ name: 'hang' }, { signal, timeout: 5000 }));
    await peer.close();
    expect(await relayed).toEqual(await sdk);
    expect(await relayed).toMatchObject({ message: expect.stringMatching(/Connection closed/) });
  });

  it('is not attached when the full path is asked for', async () => {
    const before = process.env[FULL_PATH_ENV];
    const peer = await connected();
    peers.push(peer);
    process.env[FULL_PATH_ENV] = '1';
    try {
      expect(PlainRelay.attach(peer.client)).toBeUndefined();
    } finally {
      if (before === undefined) delete process.env[FULL_PATH_ENV];
      else process.env[FULL_PATH_ENV] = before;
    }
  });
});
