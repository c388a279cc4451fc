/**
 * A call to a 2025-era backend that asks its client for input mid-call, against
 * a real SDK server in this process: the question reaches a 2025 frontend
 * directly, waits for a 2026-07-28 frontend's retry, and is refused when no
 * client can answer; cancelling the call cancels the backend's request.
 */
import { McpServer, type CallToolResult } from '@modelcontextprotocol/server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import * as z from 'zod/v4';
import type { FrontendChannel } from '../../../../../electron/core/frontend/relay/frontendChannel.js';
import { testFrontend } from '../../../../helpers/frontendChannel.js';
import { LegacyCall } from '../../../../../electron/core/frontend/relay/legacyCall.js';
import { connectInProcess, type InProcessBackend } from '../../../../helpers/inProcessBackend.js';

const QUESTION = {
  message: 'your name?',
  requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
};

/** `ask` elicits once and answers with what came back (or the error); `hold` waits until cancelled. */
function askingServer(cancelled: string[]): () => McpServer {
  return () => {
    const server = new McpServer({ name: 'asker', version: '1.0.0' });
    server.registerTool('ask', { inputSchema: z.object({}) }, async (_args, ctx) => {
      try {
        const answer = await ctx.mcpReq.send({ method: 'elicitation/create', params: QUESTION });
        return { content: [{ type: 'text', text: `answer:${JSON.stringify(answer)}` }] };
      } catch (error) {
        return { content: [{ type: 'text', text: `refused:${(error as Error).message}` }] };
      }
    });
    server.registerTool('hold', { inputSchema: z.object({}) }, async (_args, ctx) => {
      await new Promise((resolve) => ctx.mcpReq.signal.addEventListener('abort', resolve, { once: true }));
      cancelled.push('hold');
      return { content: [] };
    });
    return server;
  };
}

describe('LegacyCall', () => {
  let backend: InProcessBackend;
  let cancelled: string[];

  beforeEach(async () => {
    cancelled = [];
    backend = await connectInProcess('asker', askingServer(cancelled), { protocol: 'legacy' });
  });
  afterEach(() => backend.close());

  function start(name: string, channel: FrontendChannel | undefined): LegacyCall<CallToolResult> {
    const { connection } = backend;
    const call = new LegacyCall<CallToolResult>({
      tracker: connection.inputs,
      frontend: channel,
      inputTimeoutMs: 2000,
    });
    call.start(
      (task, signal) => connection.run(`tools/call ${name}`, task, signal),
      ({ signal }) =>
        connection.callTool({ name, arguments: {} }, { signal, timeout: 10_000 }) as Promise<CallToolResult>,
      false,
    );
    return call;
  }

  const textOf = (step: { result: CallToolResult } | object) =>
    'result' in step ? (step.result.content[0] as { text: string }).text : undefined;

  it('puts the backend question to a 2025 frontend directly and returns the answer', async () => {
    const asked: unknown[] = [];
    const call = start(
      'ask',
      testFrontend('legacy', {
        send: async (request) => {
          asked.push(request);
          return { action: 'accept', content: { name: 'ada' } };
        },
      }),
    );
    const step = await call.next();
    expect(textOf(step)).toBe('answer:{"action":"accept","content":{"name":"ada"}}');
    expect(asked).toEqual([{ method: 'elicitation/create', params: expect.objectContaining(QUESTION) }]);
  });

  it('holds the question for a 2026-07-28 frontend as a form request, and resumes with its retry', async () => {
    const call = start('ask', testFrontend('modern'));
    const first = await call.next();
    expect(first).toEqual({
      inputRequests: { elicit1: { method: 'elicitation/create', params: { mode: 'form', ...QUESTION } } },
    });
    call.supply({ elicit1: { action: 'accept', content: { name: 'grace' } } });
    expect(textOf(await call.next())).toBe('answer:{"action":"accept","content":{"name":"grace"}}');
  });

  it('asks again in the next round what a retry left unanswered', async () => {
    const call = start('ask', testFrontend('modern'));
    await call.next();
    call.supply({});
    expect(await call.next()).toEqual({
      inputRequests: { elicit1: expect.objectContaining({ method: 'elicitation/create' }) },
    });
  });

  it('refuses the question when no client can answer it, or the client lacks the capability', async () => {
    expect(textOf(await start('ask', undefined).next())).toContain('refused:');
    expect(textOf(await start('ask', undefined).next())).toContain(
      'no client is available to answer elicitation/create',
    );
    const unable = testFrontend('legacy', { capabilities: {} });
    expect(textOf(await start('ask', unable).next())).toContain('does not support elicitation/create');
  });

  it('cancels the backend request when the call is cancelled', async () => {
    const call = start('hold', testFrontend('modern'));
    const next = call.next();
    await new Promise((resolve) => setTimeout(resolve, 50));
    call.cancel(new Error('client went away'));
    await expect(next).rejects.toThrow();
    await expect.poll(() => cancelled).toEqual(['hold']);
  });
});
