/**
 * `ask` tools: a call waits for the user's approval (once / always / deny),
 * times out to deny, asks the calling client through elicitation when no
 * approver is attached, and otherwise says approval is needed.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { firstText, fixture, nodeServer, startProxy, type Harness } from '../../../helpers/harness.js';

const text = (result: unknown) => firstText(result as { content?: unknown });

describe('ask approvals', () => {
  let proxy: Harness;

  beforeEach(async () => {
    proxy = await startProxy({
      proxy: { approvalTimeoutMs: 400 },
      mcpServers: { cfg: nodeServer(fixture('configurable.mjs'), [], { env: { FIXTURE_TOOLS: 'deploy' } }) },
    });
    await proxy.core.policy.setRule('cfg', 'tools', 'deploy', 'ask');
  });
  afterEach(() => proxy.close());

  /** Attaches an approver that answers every request with the given decisions, in turn. */
  function approver(...decisions: ('once' | 'always' | 'deny')[]) {
    const detach = proxy.core.approvals.attach();
    const seen: unknown[] = [];
    const off = proxy.core.events.on('approvalsChanged', () => {
      for (const request of proxy.core.approvals.pending()) {
        seen.push(request);
        const decision = decisions.shift();
        if (decision) proxy.core.approvals.resolve(request.id, decision);
      }
    });
    return { seen, stop: () => (off(), detach()) };
  }

  it('runs the call once approved, and asks again next time', async () => {
    const ui = approver('once', 'deny');
    const client = await proxy.connect();
    expect(text(await client.callTool({ name: 'cfg__deploy', arguments: { env: 'prod' } }))).toBe(
      'deploy:{"env":"prod"}',
    );
    expect(ui.seen[0]).toMatchObject({
      client: 'local',
      backend: 'cfg',
      tool: 'deploy',
      exposed: 'cfg__deploy',
      arguments: { env: 'prod' },
    });
    const second = await client.callTool({ name: 'cfg__deploy', arguments: {} });
    expect(second).toMatchObject({ isError: true });
    expect(text(second)).toBe('The user denied the call to cfg__deploy.');
    ui.stop();
  });

  it('"always" turns the rule into allow', async () => {
    const ui = approver('always');
    const client = await proxy.connect('modern');
    expect(text(await client.callTool({ name: 'cfg__deploy', arguments: {} }))).toBe('deploy:{}');
    expect(proxy.core.policy.current.backends['cfg']?.tools?.['deploy']).toBe('allow');
    expect(text(await client.callTool({ name: 'cfg__deploy', arguments: {} }))).toBe('deploy:{}');
    expect(ui.seen).toHaveLength(1);
    ui.stop();
  });

  it('denies when nobody answers in time', async () => {
    const ui = approver();
    const client = await proxy.connect();
    const result = await client.callTool({ name: 'cfg__deploy', arguments: {} });
    expect(result).toMatchObject({ isError: true });
    expect(text(result)).toContain('timed out waiting for approval of cfg__deploy');
    expect(proxy.core.approvals.pending()).toEqual([]);
    ui.stop();
  });

  it('asks a 2025 client through elicitation when no approver is attached', async () => {
    const client = await proxy.connect('legacy', undefined, { capabilities: { elicitation: {} } });
    const asked: string[] = [];
    client.setRequestHandler('elicitation/create', (request) => {
      asked.push(String(request.params.message));
      return { action: 'accept', content: { decision: 'once' } };
    });
    expect(text(await client.callTool({ name: 'cfg__deploy', arguments: { v: 1 } }))).toBe('deploy:{"v":1}');
    expect(asked[0]).toContain('allow cfg__deploy');
  });

  it('asks a 2026-07-28 client through input_required when no approver is attached', async () => {
    const client = await proxy.connect('modern', undefined, { capabilities: { elicitation: {} } });
    const asked: string[] = [];
    let answer: 'once' | 'deny' = 'once';
    client.setRequestHandler('elicitation/create', (request) => {
      asked.push(String(request.params.message));
      return { action: 'accept', content: { decision: answer } };
    });
    expect(text(await client.callTool({ name: 'cfg__deploy', arguments: { v: 2 } }))).toBe('deploy:{"v":2}');
    expect(asked[0]).toContain('allow cfg__deploy');
    answer = 'deny';
    const denied = await client.callTool({ name: 'cfg__deploy', arguments: {} });
    expect(denied).toMatchObject({ isError: true });
    expect(text(denied)).toBe('The user denied the call to cfg__deploy.');
  });

  it('says approval is needed when nobody can be asked', async () => {
    const client = await proxy.connect();
    const result = await client.callTool({ name: 'cfg__deploy', arguments: {} });
    expect(result).toMatchObject({ isError: true });
    expect(text(result)).toContain("needs the user's approval");
  });
});
