/**
 * A 2025-era client whose connection drops during a long call resumes
 * instead of losing the answer (spec 2025-11-25 "Resumability and
 * Redelivery", SEP-1699), through the real core and endpoint and a real
 * stdio backend: each POST stream opens with a priming event (an id, empty
 * data) and a retry field; a GET with Last-Event-ID replays what was missed,
 * the answer exactly once; the backend's call is not cancelled by the drop;
 * an unknown or foreign Last-Event-ID gets a clear 400. Both by hand (raw
 * fetch) and with the SDK client, whose own reconnection does it.
 */
import { EventSourceParserStream, type EventSourceMessage } from 'eventsource-parser/stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstText, fixture, nodeServer, startProxy, type Harness } from '../../helpers/harness.js';

const RETRY_MS = 1000;

describe('resumable 2025-era streams', () => {
  let proxy: Harness;

  beforeAll(async () => {
    proxy = await startProxy({ mcpServers: { s: nodeServer(fixture('slow.mjs')) } });
  });
  afterAll(() => proxy?.close());

  const headers = (session?: string): Record<string, string> => ({
    authorization: `Bearer ${proxy.token}`,
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2025-11-25',
    ...(session ? { 'mcp-session-id': session } : {}),
  });

  const post = (session: string | undefined, body: unknown, signal?: AbortSignal): Promise<Response> =>
    fetch(proxy.url, { method: 'POST', headers: headers(session), body: JSON.stringify(body), signal });

  const resume = (session: string, lastEventId: string): Promise<Response> =>
    fetch(proxy.url, {
      method: 'GET',
      headers: { ...headers(session), accept: 'text/event-stream', 'last-event-id': lastEventId },
      signal: AbortSignal.timeout(5000),
    });

  async function openSession(): Promise<string> {
    const init = await post(undefined, {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'resumer', version: '1' } },
    });
    await init.text();
    const session = init.headers.get('mcp-session-id')!;
    await (await post(session, { jsonrpc: '2.0', method: 'notifications/initialized' })).text();
    return session;
  }

  function events(res: Response, onRetry?: (ms: number) => void): ReadableStreamDefaultReader<EventSourceMessage> {
    return res
      .body!.pipeThrough(new TextDecoderStream())
      .pipeThrough(new EventSourceParserStream({ onRetry }))
      .getReader();
  }

  async function readAll(reader: ReadableStreamDefaultReader<EventSourceMessage>): Promise<EventSourceMessage[]> {
    const all: EventSourceMessage[] = [];
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return all;
      all.push(value);
    }
  }

  const callSleep = (id: number, ms: number) => ({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 's__sleep', arguments: { ms } },
  });

  const answersTo = (all: EventSourceMessage[], id: number) =>
    all.filter((event) => event.data && (JSON.parse(event.data) as { id?: unknown }).id === id);

  it('opens a POST stream with a priming event and a retry field, and resumes a cut call with Last-Event-ID', async () => {
    const session = await openSession();
    const cut = new AbortController();
    const call = await post(session, callSleep(2, 300), cut.signal);
    expect(call.headers.get('content-type')).toContain('text/event-stream');
    let retry: number | undefined;
    const first = await events(call, (ms) => (retry = ms)).read();
    expect(first.value).toMatchObject({ data: '' });
    expect(first.value?.id).toBeTruthy();
    expect(retry).toBe(RETRY_MS);
    // The connection drops mid-call; the call finishes while nobody listens.
    cut.abort();
    await new Promise((resolve) => setTimeout(resolve, 600));

    const resumed = await resume(session, first.value!.id!);
    expect(resumed.status).toBe(200);
    const replayed = await readAll(events(resumed));
    const answers = answersTo(replayed, 2);
    expect(answers).toHaveLength(1);
    expect(JSON.parse(answers[0]!.data)).toMatchObject({ result: { content: [{ text: 'slept 300' }] } });
    // The drop was not a cancellation: the backend never saw one.
    const cancelled = await post(session, {
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: { name: 's__cancelled_count', arguments: {} },
    });
    expect(await cancelled.text()).toContain('"text":"0"');
  });

  it('answers 400 to a Last-Event-ID the session does not hold (unknown, or another session’s)', async () => {
    const session = await openSession();
    const unknown = await resume(session, 'no-such-event');
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as { error: { message: string } }).error.message).toMatch(
      /cannot be resumed: its Last-Event-ID is unknown to this session or has expired.*send the request again/,
    );

    const other = await openSession();
    const call = await post(other, callSleep(2, 10));
    const primingId = (await readAll(events(call)))[0]!.id!;
    const foreign = await resume(session, primingId);
    expect(foreign.status).toBe(400);
    await foreign.text();
    // The same id resumes on its own session.
    const own = await resume(other, primingId);
    expect(own.status).toBe(200);
    expect(answersTo(await readAll(events(own)), 2)).toHaveLength(1);
  });

  it('lets the SDK client resume a call whose POST stream was cut, the answer arriving once', async () => {
    let cuts = 0;
    let cutBeforeAnswer = false;
    // A connection that drops right after the priming event, once (a real cut: the request is aborted).
    const cuttingFetch: typeof fetch = async (input, init) => {
      const isCall = init?.method === 'POST' && String(init.body).includes('"tools/call"');
      if (!isCall || cuts > 0) return fetch(input, init);
      cuts += 1;
      const cut = new AbortController();
      const res = await fetch(input, { ...init, signal: cut.signal });
      const reader = res.body!.getReader();
      let head = '';
      while (!head.includes('\n\n')) head += new TextDecoder().decode((await reader.read()).value);
      cut.abort();
      // Only the priming event got through: the answer must come by resumption.
      cutBeforeAnswer = !head.includes('"result"');
      return new Response(head, { status: res.status, headers: res.headers });
    };
    const { Client, StreamableHTTPClientTransport } = await import('@modelcontextprotocol/client');
    const client = new Client({ name: 'cut', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(proxy.url), {
      requestInit: { headers: { Authorization: `Bearer ${proxy.token}` } },
      fetch: cuttingFetch,
    });
    await client.connect(transport);
    // Still running when the client reconnects (after RETRY_MS): the answer arrives on the resumed stream.
    const result = await client.callTool({ name: 's__sleep', arguments: { ms: RETRY_MS + 500 } });
    expect(cuts).toBe(1);
    expect(cutBeforeAnswer).toBe(true);
    expect(firstText(result)).toBe(`slept ${RETRY_MS + 500}`);
    await client.close();
  });
});
