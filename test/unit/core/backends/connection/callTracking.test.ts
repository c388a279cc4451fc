/**
 * Which call a 2025-era backend's input request belongs to, when the wire does
 * not say. A call already waiting for its client's answer (a 2026-07-28
 * client's parked call, or a 2025 client still answering) is blocked on its
 * own request, so it is left out: an abandoned call never makes another
 * client's question ambiguous. First the rule itself, then when a real call
 * on a real SDK server in this process says it is waiting. (In process the
 * async context names the call, rule 1, so the rest of the rule with real
 * calls is tested over stdio: test/integration/frontend/abandoned-input.test.ts.)
 */
import { Client } from '@modelcontextprotocol/client';
import { McpServer, type CallToolResult } from '@modelcontextprotocol/server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import * as z from 'zod/v4';
import {
  BACKEND_INPUT_CAPABILITIES,
  CallTracker,
  type TrackedCall,
} from '../../../../../electron/core/backends/connection/callTracking.js';
import type { FrontendChannel } from '../../../../../electron/core/frontend/relay/frontendChannel.js';
import { testFrontend } from '../../../../helpers/frontendChannel.js';
import { LegacyCall } from '../../../../../electron/core/frontend/relay/legacyCall.js';
import { connectInProcess, type InProcessBackend } from '../../../../helpers/inProcessBackend.js';

describe('CallTracker.resolve', () => {
  let tracker: CallTracker;
  let release: () => void;
  let held: Promise<void>;

  beforeEach(() => {
    tracker = new CallTracker(
      new Client({ name: 'unit', version: '0' }, { capabilities: BACKEND_INPUT_CAPABILITIES }),
      'fixture',
    );
    held = new Promise((resolve) => (release = resolve));
  });
  afterEach(() => release());

  /** Puts a call of `frontendKey` in flight (until the test ends); `waiting` is what it says of itself. */
  function inFlight(frontendKey: object, waiting: boolean): TrackedCall & { awaitingInput: boolean } {
    const call = { frontendKey, awaitingInput: waiting, relay: () => Promise.resolve({}) };
    void tracker.run(call, () => held);
    return call;
  }

  it('leaves out a call awaiting its client: the only other call is the author', () => {
    inFlight({}, true);
    const asking = inFlight({}, false);
    expect(tracker.resolve()).toMatchObject({ call: asking, how: 'bySingle', pastWaiting: true });
  });

  it('still refuses when the calls not waiting come from two clients', () => {
    inFlight({}, true);
    inFlight({}, false);
    inFlight({}, false);
    const verdict = tracker.resolve();
    expect(verdict).toMatchObject({ how: 'ambiguous', candidates: 2, pastWaiting: true });
    expect(verdict.call).toBeUndefined();
  });

  it('picks the oldest call not waiting when those left come from one client', () => {
    const client = {};
    inFlight({}, true);
    const oldest = inFlight(client, false);
    inFlight(client, false);
    expect(tracker.resolve()).toMatchObject({ call: oldest, how: 'bySameFrontend' });
  });

  it('considers every call when all are waiting (a backend asking two things at once)', () => {
    const only = inFlight({}, true);
    expect(tracker.resolve()).toMatchObject({ call: only, how: 'bySingle', pastWaiting: false });
    inFlight({}, true);
    expect(tracker.resolve()).toMatchObject({ how: 'ambiguous', candidates: 2 });
  });

  it('a call that stops waiting is a candidate again', () => {
    const first = inFlight({}, true);
    inFlight({}, false);
    first.awaitingInput = false;
    expect(tracker.resolve()).toMatchObject({ how: 'ambiguous', candidates: 2, pastWaiting: false });
  });
});

const QUESTION = {
  message: 'your name?',
  requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
} as const;

/** `ask` elicits once and answers with what came back (or the error); `hold` waits until cancelled. */
function askingServer(): McpServer {
  const server = new McpServer({ name: 'asker', version: '1.0.0' });
  server.registerTool('ask', { inputSchema: z.object({}) }, async (_args, ctx) => {
    try {
      const answer = (await ctx.mcpReq.send({ method: 'elicitation/create', params: QUESTION })) as {
        content?: { name?: string };
      };
      return { content: [{ type: 'text', text: `answer:${answer.content?.name}` }] };
    } catch (error) {
      return { content: [{ type: 'text', text: `refused:${(error as Error).message}` }] };
    }
  });
  server.registerTool('hold', { inputSchema: z.object({}) }, async (_args, ctx) => {
    await new Promise((resolve) => ctx.mcpReq.signal.addEventListener('abort', resolve, { once: true }));
    return { content: [] };
  });
  return server;
}

describe('LegacyCall.awaitingInput', () => {
  let backend: InProcessBackend;
  const calls: LegacyCall<CallToolResult>[] = [];

  beforeEach(async () => {
    backend = await connectInProcess('asker', askingServer, { protocol: 'legacy' });
  });
  afterEach(async () => {
    for (const call of calls.splice(0)) call.cancel(new Error('test over'));
    await backend.close();
  });

  function start(name: string, channel: FrontendChannel): LegacyCall<CallToolResult> {
    const { connection } = backend;
    const call = new LegacyCall<CallToolResult>({
      tracker: connection.inputs,
      frontend: channel,
      inputTimeoutMs: 10_000,
    });
    call.start(
      (task, signal) => connection.run(`tools/call ${name}`, task, signal),
      ({ signal }) =>
        connection.callTool({ name, arguments: {} }, { signal, timeout: 10_000 }) as Promise<CallToolResult>,
      false,
    );
    calls.push(call);
    return call;
  }

  const textOf = (step: { result: CallToolResult } | object) =>
    'result' in step ? (step.result.content[0] as { text: string }).text : undefined;

  it('is true while a 2026 client has the question (parked), false once its retry answers', async () => {
    const call = start('ask', testFrontend('modern'));
    expect(call.awaitingInput).toBe(false);
    expect(await call.next()).toMatchObject({ inputRequests: { elicit1: expect.anything() } });
    expect(call.awaitingInput).toBe(true);
    call.supply({ elicit1: { action: 'accept', content: { name: 'ada' } } });
    expect(call.awaitingInput).toBe(false);
    expect(textOf(await call.next())).toBe('answer:ada');
  });

  it('a retry that leaves the question unanswered makes the call a candidate until it is asked again', async () => {
    const call = start('ask', testFrontend('modern'));
    await call.next();
    call.supply({});
    expect(call.awaitingInput).toBe(false);
    await call.next();
    expect(call.awaitingInput).toBe(true);
  });

  it('is true while a 2025 client is answering, false once it has', async () => {
    let answer!: (value: unknown) => void;
    const call = start('ask', testFrontend('legacy', { send: () => new Promise((resolve) => (answer = resolve)) }));
    await expect.poll(() => call.awaitingInput).toBe(true);
    answer({ action: 'accept', content: { name: 'carol' } });
    expect(textOf(await call.next())).toBe('answer:carol');
    expect(call.awaitingInput).toBe(false);
  });

  it('is false for a call that asked nothing', async () => {
    const call = start('hold', testFrontend('modern'));
    await expect.poll(() => backend.connection.inputs.size).toBe(1);
    expect(call.awaitingInput).toBe(false);
  });
});
