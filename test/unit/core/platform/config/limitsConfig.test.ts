/** `policy.limits` in the config: valid rules pass, and each mistake is named by its dotted path. */
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../../../electron/core/platform/config/schema.js';

/** The problems of a config whose policy has these limits. */
function problemsOf(limits: unknown): { path: string; message: string }[] {
  return parseConfig({ mcpServers: {}, policy: { limits } }).problems;
}

describe('policy.limits', () => {
  it('accepts rules per client, person, group and everyone, with server, tool, burst and shared', () => {
    const limits = [
      { match: { client: 'cursor' }, server: 'github', tool: 'create_issue', rate: { points: 10, perSeconds: 60 } },
      { match: { principal: 'alice@example.com' }, rate: { points: 100, perSeconds: 3600 }, burst: 20 },
      { match: { group: 'eng' }, server: 'github', rate: { points: 1000, perSeconds: 86400 }, shared: true },
      { match: {}, rate: { points: 5, perSeconds: 0.5 } },
    ];
    const parsed = parseConfig({ mcpServers: {}, policy: { limits } });
    expect(parsed.problems).toEqual([]);
    expect(parsed.config?.policy.limits).toEqual(limits);
  });

  it('leaves limits absent when the config has none (no limits, nothing added)', () => {
    expect(parseConfig({ mcpServers: {} }).config?.policy.limits).toBeUndefined();
  });

  it('names each mistake by its dotted path', () => {
    expect(problemsOf([{ match: { client: 'a', group: 'b' }, rate: { points: 1, perSeconds: 1 } }])).toEqual([
      { path: 'policy.limits.0.match', message: expect.stringContaining('at most one of client, principal and group') },
    ]);
    expect(problemsOf([{ match: {}, rate: { points: 0, perSeconds: 60 } }])).toEqual([
      { path: 'policy.limits.0.rate.points', message: expect.any(String) },
    ]);
    expect(problemsOf([{ match: {}, rate: { points: 1, perSeconds: 3_000_000 } }])).toEqual([
      { path: 'policy.limits.0.rate.perSeconds', message: expect.stringContaining('at most 2000000') },
    ]);
    expect(problemsOf([{ match: {}, tool: 'create_issue', rate: { points: 1, perSeconds: 1 } }])).toEqual([
      { path: 'policy.limits.0.tool', message: 'a rule that names a tool must name its server too' },
    ]);
    expect(problemsOf([{ match: { user: 'x' }, rate: { points: 1, perSeconds: 1 } }])).toEqual([
      { path: 'policy.limits.0.match', message: 'unknown key(s): user' },
    ]);
    expect(problemsOf([{ match: {} }])).toEqual([{ path: 'policy.limits.0.rate', message: expect.any(String) }]);
    expect(problemsOf({})).toEqual([{ path: 'policy.limits', message: expect.any(String) }]);
  });
});
