/**
 * The `ask` step on its own: the UI's approver, a 2025 client asked through a
 * real elicitation (SDK client and server over linked in-memory transports), a
 * 2026-07-28 client asked through input_required and its retry, and the
 * refusals when nobody answers.
 */
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { McpServer, ProtocolErrorCode, type InputRequiredResult } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod/v4';
import { ApprovalBroker, ASK_STATE_PREFIX } from '../../../../../electron/core/catalog/policy/approvals.js';
import { frontendChannel, type FrontendChannel } from '../../../../../electron/core/frontend/relay/frontendChannel.js';
import { askApproval, type ApprovalHost } from '../../../../../electron/core/frontend/routing/askApproval.js';
import { WAITING_MESSAGE } from '../../../../../electron/core/frontend/routing/approvalWait.js';
import type { ItemOrigin } from '../../../../../electron/core/catalog/catalog.js';

const CALL = {
  client: 'cursor',
  origin: { backendId: 'ops', original: 'deploy' },
  exposed: 'ops__deploy',
  arguments: { env: 'prod' },
};

function host(options: { approvalTimeoutMs?: number; inputTimeoutMs?: number } = {}) {
  const always: { client: string; origin: ItemOrigin }[] = [];
  const approvals = new ApprovalBroker(options.approvalTimeoutMs ?? 1000, () => undefined);
  const approvalHost: ApprovalHost = {
    approvals,
    approvalTimeoutMs: () => options.approvalTimeoutMs ?? 1000,
    inputTimeoutMs: () => options.inputTimeoutMs ?? 1000,
    allowAlways: async (client, origin) => void always.push({ client, origin }),
  };
  return { approvalHost, approvals, always };
}

/** Answers every pending approval with `decision` as soon as it is asked. */
function answerWith(approvals: ApprovalBroker, decision: 'once' | 'always' | 'deny'): () => void {
  const detach = approvals.attach();
  const timer = setInterval(() => {
    for (const request of approvals.pending()) approvals.resolve(request.id, decision);
  }, 5);
  return () => {
    clearInterval(timer);
    detach();
  };
}

/** A 2026-07-28 request's frontend (no server-to-client requests: only its data). */
function modernFrontend(extra: Partial<FrontendChannel> = {}): FrontendChannel {
  return {
    era: 'modern',
    key: {},
    capabilities: { elicitation: { form: {} } },
    send: () => Promise.reject(new Error('2026-07-28 has no server-to-client requests')),
    inputResponses: undefined,
    requestState: undefined,
    ...extra,
  };
}

describe('askApproval', () => {
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
  });

  it('refuses, saying how to allow it, when nobody can be asked', async () => {
    const { approvalHost } = host();
    const outcome = await askApproval(approvalHost, CALL, {});
    expect(outcome).toEqual({ kind: 'refused', text: expect.stringContaining("needs the user's approval") });
    expect(outcome.kind === 'refused' && outcome.text).toContain('ops__deploy');
  });

  it('asks the attached approver; "always" allows the tool for this client from now on', async () => {
    const { approvalHost, approvals, always } = host();
    const stop = answerWith(approvals, 'always');
    try {
      const outcome = await askApproval(approvalHost, CALL, {});
      expect(outcome.kind).toBe('approved');
      expect(always).toEqual([{ client: 'cursor', origin: CALL.origin }]);
    } finally {
      stop();
    }
  });

  it('gives up at approvalTimeoutMs without a progress token, naming the limit', async () => {
    const { approvalHost, approvals } = host({ approvalTimeoutMs: 150 });
    const detach = approvals.attach();
    try {
      const outcome = await askApproval(approvalHost, CALL, {});
      expect(outcome).toEqual({ kind: 'refused', text: expect.stringContaining('approvalTimeoutMs: 0.2 s') });
      expect(approvals.pending()).toEqual([]);
    } finally {
      detach();
    }
  });

  it('with a progress token waits up to inputTimeoutMs and says it is waiting', async () => {
    const { approvalHost, approvals } = host({ approvalTimeoutMs: 50, inputTimeoutMs: 250 });
    const detach = approvals.attach();
    const progress: { message?: string }[] = [];
    try {
      const outcome = await askApproval(approvalHost, CALL, { onProgress: (update) => progress.push(update) });
      expect(outcome).toEqual({ kind: 'refused', text: expect.stringContaining('inputTimeoutMs: 0.3 s') });
      expect(progress[0]).toMatchObject({ progress: 1, message: WAITING_MESSAGE });
    } finally {
      detach();
    }
  });

  it('asks a 2026-07-28 client through input_required, takes its retry once, and hides our round from the backend', async () => {
    const { approvalHost } = host();
    const first = await askApproval(approvalHost, CALL, { frontend: modernFrontend() });
    expect(first.kind).toBe('input');
    const asked = (first as { result: InputRequiredResult }).result;
    expect(asked.requestState?.startsWith(ASK_STATE_PREFIX)).toBe(true);
    const [key] = Object.keys(asked.inputRequests ?? {});
    const retry = modernFrontend({
      requestState: asked.requestState,
      inputResponses: { [key!]: { action: 'accept', content: { decision: 'once' } } },
    });
    const second = await askApproval(approvalHost, CALL, { frontend: retry });
    expect(second).toMatchObject({
      kind: 'approved',
      frontend: { inputResponses: undefined, requestState: undefined },
    });
    await expect(askApproval(approvalHost, CALL, { frontend: retry })).rejects.toMatchObject({
      code: ProtocolErrorCode.InvalidParams,
    });
  });

  it('in gateway mode asks the caller, not an attached approver; only they can answer, and "always" is not offered', async () => {
    const { approvalHost, approvals } = host();
    const stop = answerWith(approvals, 'once');
    const person = (subject: string) => ({ subject, groups: [], scopes: [], issuer: 'https://idp' });
    try {
      const first = await askApproval(approvalHost, CALL, { frontend: modernFrontend(), principal: person('alice') });
      expect(first.kind).toBe('input');
      const asked = (first as { result: InputRequiredResult }).result;
      const [key, request] = Object.entries(asked.inputRequests ?? {})[0]!;
      const schema = (
        request as unknown as { params: { requestedSchema: { properties: { decision: { enum: string[] } } } } }
      ).params.requestedSchema;
      expect(schema.properties.decision.enum).toEqual(['once', 'deny']);
      const retry = modernFrontend({
        requestState: asked.requestState,
        inputResponses: { [key]: { action: 'accept', content: { decision: 'once' } } },
      });
      // Bob cannot answer the question put to alice, even in the same profile.
      await expect(
        askApproval(approvalHost, CALL, { frontend: retry, principal: person('bob') }),
      ).rejects.toMatchObject({
        code: ProtocolErrorCode.InvalidParams,
      });
    } finally {
      stop();
    }
  });

  it('asks a 2025 client through a real form elicitation and honours its answer', async () => {
    const { approvalHost } = host();
    const server = new McpServer({ name: 'frontend', version: '1.0.0' });
    server.registerTool('run', { inputSchema: z.object({}) }, async (_args, ctx) => {
      const outcome = await askApproval(approvalHost, CALL, { frontend: frontendChannel(server.server, ctx) });
      return { content: [{ type: 'text', text: outcome.kind === 'refused' ? outcome.text : outcome.kind }] };
    });
    const client = new Client(
      { name: 'user-client', version: '1.0.0' },
      { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: 'legacy' } },
    );
    const questions: string[] = [];
    client.setRequestHandler('elicitation/create', async (request) => {
      questions.push(String(request.params.message));
      return { action: 'accept', content: { decision: 'deny' } };
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    await client.connect(clientSide);
    closers.push(
      () => client.close(),
      () => server.close(),
    );
    const result = await client.callTool({ name: 'run', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: 'The user denied the call to ops__deploy.' }]);
    expect(questions).toEqual([expect.stringContaining('tool "deploy" of server "ops"')]);
  });
});
