/**
 * Which plain calls Switchboard runs as the server's task: only a 2026-07-28
 * client's call of a tool its 2025-11-25 task server runs only as a task. A
 * 2025 client keeps the server's -32601 (its spec), an optional tool its
 * plain call, a 2026 server its own decision, an `ask` tool its approval first.
 */
import { describe, expect, it } from 'vitest';
import type { Tool } from '@modelcontextprotocol/server';
import { runsOnlyAsBackendTask } from '../../../../../electron/core/frontend/tasks/plainTaskCall.js';
import type { ResolvedCall } from '../../../../../electron/core/frontend/routing/router.js';
import type { FrontendChannel } from '../../../../../electron/core/frontend/relay/frontendChannel.js';

const TASK_SERVER = { tasks: { requests: { tools: { call: {} } } } };
const tool = (taskSupport: string): Tool =>
  ({ name: 'long', inputSchema: { type: 'object' }, execution: { taskSupport } }) as Tool;
const call = (changes: { support?: string; era?: string; rule?: string; capabilities?: object } = {}): ResolvedCall =>
  ({
    tool: tool(changes.support ?? 'required'),
    rule: changes.rule ?? 'allow',
    connection: { era: changes.era ?? 'legacy', capabilities: changes.capabilities ?? TASK_SERVER },
  }) as unknown as ResolvedCall;
const frontend = (era: 'modern' | 'legacy'): FrontendChannel => ({ era }) as FrontendChannel;

describe('a plain call run as the server task', () => {
  it("runs a 2026 client's plain call of a 2025 task-only tool as the server's task", () => {
    expect(runsOnlyAsBackendTask(call(), frontend('modern'))).toBe(true);
  });

  it('leaves every other plain call on the ordinary path', () => {
    expect(runsOnlyAsBackendTask(call(), frontend('legacy'))).toBe(false);
    expect(runsOnlyAsBackendTask(call(), undefined)).toBe(false);
    expect(runsOnlyAsBackendTask(call({ support: 'optional' }), frontend('modern'))).toBe(false);
    expect(runsOnlyAsBackendTask(call({ rule: 'ask' }), frontend('modern'))).toBe(false);
    expect(runsOnlyAsBackendTask(call({ era: 'modern' }), frontend('modern'))).toBe(false);
    expect(runsOnlyAsBackendTask(call({ capabilities: { tools: {} } }), frontend('modern'))).toBe(false);
  });
});
