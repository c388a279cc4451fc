/**
 * The desktop shell's tray and notifications (main.ts renders these): the
 * status line, the "calls waiting" entry, and one notification per waiting
 * call, once, forgotten when the call is answered.
 */
import { describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../../../electron/core/catalog/index.js';
import { readinessOf } from '../../../electron/core/backends/index.js';
import { approvalNotices, trayStatusLine, waitingLabel } from '../../../electron/host/trayModel.js';

function waiting(id: string, client = 'cursor', exposed = 'fs__write_file'): ApprovalRequest {
  return { id, client, backend: 'fs', tool: 'write_file', exposed, arguments: {}, requestedAt: '2026-12-01T00:00:00Z' };
}

describe('tray model', () => {
  it('says the endpoint and the servers per state, or that it is starting', () => {
    const readiness = readinessOf([
      { status: 'up', enabled: true, settled: true },
      { status: 'up', enabled: true, settled: true },
      { status: 'down', enabled: true, settled: true },
    ]);
    expect(trayStatusLine('http://127.0.0.1:37373/mcp', readiness)).toBe('http://127.0.0.1:37373/mcp — 2 up, 1 down');
    expect(trayStatusLine('http://127.0.0.1:37373/mcp', readinessOf([]))).toBe(
      'http://127.0.0.1:37373/mcp — no servers',
    );
    expect(trayStatusLine(undefined, undefined)).toBe('Starting…');
  });

  it('has a waiting entry only while calls wait', () => {
    expect(waitingLabel(0)).toBeUndefined();
    expect(waitingLabel(1)).toBe('1 call waiting for approval');
    expect(waitingLabel(3)).toBe('3 calls waiting for approval');
  });

  it('notifies each waiting call once, and again only if it comes back after being answered', () => {
    const notified = new Set<string>();
    expect(approvalNotices([waiting('a')], notified)).toEqual([
      { id: 'a', title: 'Switchboard: approval needed', body: 'cursor wants to call fs__write_file' },
    ]);
    // The same queue plus a new call: only the new one.
    expect(approvalNotices([waiting('a'), waiting('b', 'claude-code')], notified).map((n) => n.id)).toEqual(['b']);
    // a answered: forgotten, so the set does not grow.
    expect(approvalNotices([waiting('b', 'claude-code')], notified)).toEqual([]);
    expect([...notified]).toEqual(['b']);
  });
});
