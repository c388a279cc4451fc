/**
 * The router against a real SDK server in this process (linked in-memory
 * transports): name mapping, the policy's deny and ask, audit records, URI
 * rewriting, and one catalog read per request.
 */
import {
  McpServer,
  ProtocolError,
  ProtocolErrorCode,
  ResourceTemplate,
  type CallToolResult,
  type GetPromptResult,
} from '@modelcontextprotocol/server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import * as z from 'zod/v4';
import type { Catalog } from '../../../../../electron/core/catalog/catalog.js';
import { AccessControl } from '../../../../../electron/core/catalog/policy/accessControl.js';
import type { AuditEntry } from '../../../../../electron/core/catalog/policy/auditLog.js';
import { PolicySchema } from '../../../../../electron/core/platform/config/policyConfig.js';
import { ParkedCalls } from '../../../../../electron/core/frontend/relay/parkedCalls.js';
import { Router } from '../../../../../electron/core/frontend/routing/router.js';
import { connectInProcess, type InProcessBackend } from '../../../../helpers/inProcessBackend.js';

/** A backend with a tool, a failing tool, a prompt, a resource and a template. */
function notesServer(): McpServer {
  const server = new McpServer({ name: 'notes', version: '1.0.0' });
  server.registerTool('echo', { inputSchema: z.object({ text: z.string() }) }, async ({ text }) => ({
    content: [
      { type: 'text', text: `echo:${text}` },
      { type: 'resource_link', uri: 'note://a', name: 'a' },
    ],
  }));
  server.registerTool('boom', { inputSchema: z.object({}) }, async () => {
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'boom refused');
  });
  server.registerPrompt('greet', { argsSchema: z.object({ who: z.string() }) }, async ({ who }) => ({
    messages: [{ role: 'user', content: { type: 'text', text: `hello ${who}` } }],
  }));
  server.registerResource('a', 'note://a', {}, async (uri) => ({
    contents: [{ uri: uri.href, text: 'note a' }],
  }));
  server.registerResource(
    'byId',
    new ResourceTemplate('note://id/{id}', { list: undefined }),
    {},
    async (uri, { id }) => ({ contents: [{ uri: uri.href, text: `note ${String(id)}` }] }),
  );
  return server;
}

describe.each(['legacy', '2026-07-28'] as const)('Router (%s backend)', (protocol) => {
  let backend: InProcessBackend;
  let access: AccessControl;
  let audit: AuditEntry[];
  let catalogReads: number;
  let router: Router;

  beforeEach(async () => {
    backend = await connectInProcess('notes', notesServer, { protocol });
    access = new AccessControl(PolicySchema.parse({}), {
      policyChanged: () => undefined,
      clientRevoked: () => undefined,
      approvalsChanged: () => undefined,
    });
    audit = [];
    catalogReads = 0;
    router = new Router({
      catalog: (): Catalog => {
        catalogReads++;
        return backend.catalog();
      },
      pool: { connectionFor: (id) => (id === 'notes' ? backend.connection : undefined) },
      access,
      audit: (entry) => audit.push(entry),
      parked: new ParkedCalls(() => 5000),
      inputTimeoutMs: () => 5000,
      approvals: access.approvals,
      approvalTimeoutMs: () => 200,
      allowAlways: (client, origin) => access.setRule(origin.backendId, 'tools', origin.original, 'allow', client),
    });
  });
  afterEach(() => backend.close());

  it('calls the owning backend under its own name, rewrites its links and audits the call', async () => {
    const result = await router.callTool({ name: 'notes__echo', arguments: { text: 'hi' } });
    expect(result.content).toEqual([
      { type: 'text', text: 'echo:hi' },
      { type: 'resource_link', uri: backend.catalog().resources[0]!.uri, name: 'a' },
    ]);
    expect(backend.catalog().resources[0]!.uri).not.toBe('note://a');
    expect(audit).toMatchObject([
      {
        kind: 'tools/call',
        backend: 'notes',
        item: 'echo',
        outcome: 'ok',
        client: 'local',
        decision: { rule: 'allow', source: 'globalDefault' },
      },
    ]);
  });

  it('reads the catalog once per tools/call', async () => {
    await router.callTool({ name: 'notes__echo', arguments: { text: 'once' } });
    expect(catalogReads).toBe(1);
  });

  it('answers an unknown tool with invalid params and audits nothing', async () => {
    await expect(router.callTool({ name: 'notes__nope' })).rejects.toMatchObject({
      code: ProtocolErrorCode.InvalidParams,
      message: expect.stringContaining('Unknown tool: notes__nope'),
    });
    expect(audit).toEqual([]);
  });

  it('answers a denied tool exactly like an unknown one, and audits the denial', async () => {
    await access.setRule('notes', 'tools', 'echo', 'deny');
    const unknown = await router.callTool({ name: 'notes__nope' }).catch((error: unknown) => error);
    const denied = await router.callTool({ name: 'notes__echo', arguments: { text: 'x' } }).catch((e: unknown) => e);
    expect((denied as ProtocolError).code).toBe((unknown as ProtocolError).code);
    expect((denied as Error).message).toBe((unknown as Error).message.replace('notes__nope', 'notes__echo'));
    expect(audit).toMatchObject([
      { kind: 'tools/call', item: 'echo', outcome: 'denied', decision: { rule: 'deny', source: 'item' } },
    ]);
  });

  it('runs an `ask` tool once the approver allows it, and answers a tool error when it denies', async () => {
    await access.setRule('notes', 'tools', 'echo', 'ask');
    const detach = access.approvals.attach();
    const answers = ['once', 'deny'] as const;
    let asked = 0;
    const answering = setInterval(() => {
      for (const request of access.approvals.pending()) access.approvals.resolve(request.id, answers[asked++]!);
    }, 5);
    try {
      const allowed = await router.callTool({ name: 'notes__echo', arguments: { text: 'ok' } });
      expect((allowed as CallToolResult).content[0]).toEqual({ type: 'text', text: 'echo:ok' });
      const refused = await router.callTool({ name: 'notes__echo', arguments: { text: 'no' } });
      expect(refused).toMatchObject({
        isError: true,
        content: [{ type: 'text', text: expect.stringContaining('denied') }],
      });
      expect(audit.map((entry) => entry.outcome)).toEqual(['ok', 'denied']);
    } finally {
      clearInterval(answering);
      detach();
    }
  });

  it('audits a backend error with its code and passes the protocol error on', async () => {
    const result = await router.callTool({ name: 'notes__boom', arguments: {} }).catch((error: unknown) => error);
    // The SDK server answers a thrown tool error as an error result (isError).
    expect(result).toMatchObject({ isError: true });
    expect(audit).toMatchObject([{ item: 'boom', outcome: 'error', errorCode: 'tool_error' }]);
  });

  it('gets a prompt under its own name', async () => {
    const result = await router.getPrompt({ name: 'notes__greet', arguments: { who: 'ada' } });
    expect((result as GetPromptResult).messages[0]?.content).toEqual({ type: 'text', text: 'hello ada' });
    expect(audit).toMatchObject([{ kind: 'prompts/get', item: 'greet', outcome: 'ok' }]);
  });

  it('reads a listed resource and a template instance by their advertised URIs, answering under them', async () => {
    const listed = backend.catalog().resources[0]!.uri;
    const read = await router.readResource({ uri: listed });
    expect(read.contents).toEqual([{ uri: listed, text: 'note a' }]);
    const template = backend.catalog().resourceTemplates[0]!.uriTemplate;
    const instance = template.replace('{id}', '7');
    const viaTemplate = await router.readResource({ uri: instance });
    expect(viaTemplate.contents).toEqual([{ uri: instance, text: 'note 7' }]);
    await expect(router.readResource({ uri: 'note://a' })).rejects.toMatchObject({
      code: ProtocolErrorCode.InvalidParams,
    });
  });

  it('answers an empty completion for a backend that offers none, without asking it', async () => {
    const result = await router.complete({
      ref: { type: 'ref/prompt', name: 'notes__greet' },
      argument: { name: 'who', value: 'a' },
    });
    expect(result).toEqual({ completion: { values: [] } });
    await expect(
      router.complete({ ref: { type: 'ref/prompt', name: 'notes__nope' }, argument: { name: 'who', value: '' } }),
    ).rejects.toMatchObject({ code: ProtocolErrorCode.InvalidParams });
  });

  it('answers like an unknown tool when the owner has gone', async () => {
    await backend.close();
    const gone = new Router({
      catalog: backend.catalog,
      pool: { connectionFor: () => undefined },
      access: { decide: () => ({ rule: 'allow', source: 'globalDefault' }) },
      parked: new ParkedCalls(() => 5000),
      inputTimeoutMs: () => 5000,
      approvals: access.approvals,
      approvalTimeoutMs: () => 200,
      allowAlways: async () => undefined,
    });
    await expect(gone.callTool({ name: 'notes__echo', arguments: { text: 'x' } })).rejects.toMatchObject({
      code: ProtocolErrorCode.InvalidParams,
      message: expect.stringContaining('Unknown tool: notes__echo'),
    });
  });
});
