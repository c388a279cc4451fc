/**
 * Waiting for a person: an `ask` call whose client gave a progress token
 * hears progress while the user decides (so a client that resets its timeout
 * on progress keeps waiting past its own timeout and past
 * `approvalTimeoutMs`); without a token the wait ends at `approvalTimeoutMs`
 * with an answer that says so.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { firstText, fixture, nodeServer, startProxy, type Harness } from '../../../helpers/harness.js';

const text = (result: unknown) => firstText(result as { content?: unknown });

describe('waiting for approval', () => {
  let proxy: Harness;

  beforeEach(async () => {
    proxy = await startProxy({
      proxy: { approvalTimeoutMs: 1000, inputTimeoutMs: 15_000 },
      mcpServers: { cfg: nodeServer(fixture('configurable.mjs'), [], { env: { FIXTURE_TOOLS: 'deploy' } }) },
    });
    await proxy.core.policy.setRule('cfg', 'tools', 'deploy', 'ask');
  });
  afterEach(() => proxy.close());

  /** Attaches an approver that answers each new request with `decision` after `afterMs`. */
  function slowApprover(decision: 'once' | 'deny' | undefined, afterMs: number) {
    const detach = proxy.core.approvals.attach();
    const answered = new Set<string>();
    const off = proxy.core.events.on('approvalsChanged', () => {
      for (const request of proxy.core.approvals.pending()) {
        if (answered.has(request.id) || !decision) continue;
        answered.add(request.id);
        setTimeout(() => proxy.core.approvals.resolve(request.id, decision), afterMs);
      }
    });
    return () => (off(), detach());
  }

  for (const era of ['legacy', 'modern'] as const) {
    it(`a ${era} client that resets its timeout on progress outlasts its own timeout`, async () => {
      const stop = slowApprover('once', 4000);
      const client = await proxy.connect(era);
      const messages: string[] = [];
      const result = await client.callTool(
        { name: 'cfg__deploy', arguments: { env: 'prod' } },
        {
          timeout: 1500,
          resetTimeoutOnProgress: true,
          onprogress: (progress) => messages.push(String(progress.message)),
        },
      );
      expect(text(result)).toBe('deploy:{"env":"prod"}');
      // Longer than the client's 1.5 s and the 1 s approval timeout, at one beat a second.
      expect(messages.length).toBeGreaterThanOrEqual(2);
      expect(messages[0]).toBe('Waiting for approval in MCP Switchboard');
      stop();
    }, 20_000);
  }

  it('without a progress token the wait ends at approvalTimeoutMs, and the answer says so', async () => {
    const stop = slowApprover(undefined, 0);
    const client = await proxy.connect();
    const started = Date.now();
    const result = await client.callTool({ name: 'cfg__deploy', arguments: {} });
    expect(result).toMatchObject({ isError: true });
    expect(text(result)).toBe(
      'The request timed out waiting for approval of cfg__deploy (approvalTimeoutMs: 1 s); the call was not made.',
    );
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(proxy.core.approvals.pending()).toEqual([]);
    stop();
  }, 20_000);

  it('a client that stops waiting withdraws its request', async () => {
    const stop = slowApprover(undefined, 0);
    const client = await proxy.connect();
    const call = client.callTool({ name: 'cfg__deploy', arguments: {} }, { timeout: 300 });
    await expect(call).rejects.toThrow(/timed out/i);
    await expect.poll(() => proxy.core.approvals.pending(), { timeout: 5000 }).toEqual([]);
    stop();
  }, 20_000);
});
