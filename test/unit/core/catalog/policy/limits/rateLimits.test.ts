/**
 * Rate limits as callers meet them: which rules count a request, one bucket
 * per caller (or one shared), the refusal's wait, bursts, buckets kept across
 * an unrelated policy edit, and a bounded number of buckets. rate-limiter-flexible
 * takes no clock, so windows are real and short where time must pass.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { RateLimits } from '../../../../../../electron/core/catalog/policy/limits/rateLimits.js';
import { memoryBuckets } from '../../../../../../electron/core/catalog/policy/limits/memoryBuckets.js';
import type { LimitRule } from '../../../../../../electron/core/platform/config/limitsConfig.js';
import type { CallerIdentity } from '../../../../../../electron/core/catalog/policy/callerIdentity.js';
import type { LimitedTarget } from '../../../../../../electron/core/catalog/policy/limits/limitRules.js';

const cursor: CallerIdentity = { clientId: 'cursor' };
const vscode: CallerIdentity = { clientId: 'vscode' };
const alice: CallerIdentity = { clientId: 'gw', principal: { subject: 'u-1', email: 'alice@x', groups: ['eng'] } };
const bob: CallerIdentity = { clientId: 'gw', principal: { subject: 'u-2', groups: ['sales'] } };
const createIssue: LimitedTarget = { kind: 'tools/call', backend: 'github', item: 'create_issue' };
const search: LimitedTarget = { kind: 'tools/call', backend: 'github', item: 'search' };
const prompt: LimitedTarget = { kind: 'prompts/get', backend: 'github', item: 'create_issue' };

/** How many of `n` requests pass. */
async function passing(limits: RateLimits, caller: CallerIdentity, target: LimitedTarget, n: number): Promise<number> {
  let passed = 0;
  for (let i = 0; i < n; i++) if ((await limits.check(caller, target)) === undefined) passed++;
  return passed;
}

const rule = (fields: Partial<LimitRule>): LimitRule => ({ match: {}, rate: { points: 3, perSeconds: 60 }, ...fields });

describe('RateLimits', () => {
  it('answers at once, without a bucket, when no rule applies', () => {
    expect(new RateLimits(() => undefined).check(cursor, createIssue)).toBeUndefined();
    const limits = new RateLimits(() => [rule({ match: { client: 'vscode' } })]);
    expect(limits.check(cursor, createIssue)).toBeUndefined();
  });

  it("refuses a caller's request past the rate, with the wait, the limit and the scope, while another caller's pass", async () => {
    const limits = new RateLimits(() => [rule({ server: 'github', tool: 'create_issue' })]);
    expect(await passing(limits, cursor, createIssue, 3)).toBe(3);
    const refused = await limits.check(cursor, createIssue);
    expect(refused).toMatchObject({
      limit: { points: 3, perSeconds: 60 },
      scope: { rule: 0, caller: 'client:cursor', server: 'github', tool: 'create_issue' },
      text: expect.stringContaining('3 per 60 s of policy.limits.0'),
    });
    expect(refused!.retryAfterMs).toBeGreaterThan(55_000);
    expect(refused!.retryAfterMs).toBeLessThanOrEqual(60_000);
    expect(await passing(limits, vscode, createIssue, 3)).toBe(3);
    // Another tool of the same server is not counted by a rule naming one tool.
    expect(await passing(limits, cursor, search, 5)).toBe(5);
    expect(limits.refusals('github')).toBe(1);
  });

  it("names a tool by its server's name or as clients see it; both count in the one bucket", async () => {
    const weather: LimitedTarget = {
      kind: 'tools/call',
      backend: 'fx',
      item: 'get.weather',
      exposed: 'fx__get_weather',
    };
    const limits = new RateLimits(() => [
      rule({ server: 'fx', tool: 'fx__get.weather', rate: { points: 2, perSeconds: 60 } }),
      rule({ match: { client: 'vscode' }, server: 'fx', tool: 'get.weather', rate: { points: 1, perSeconds: 60 } }),
      rule({ match: { client: 'zed' }, server: 'fx', tool: 'fx__get_weather', rate: { points: 1, perSeconds: 60 } }),
    ]);
    expect(await passing(limits, cursor, weather, 4)).toBe(2);
    expect(await passing(limits, vscode, weather, 4)).toBe(1);
    expect(await passing(limits, { clientId: 'zed' }, weather, 4)).toBe(1);
    // Another tool of the server is not counted, whichever way it is named.
    expect(await passing(limits, cursor, { ...weather, item: 'get.news', exposed: 'fx__get_news' }, 3)).toBe(3);
  });

  it('matches clients, people by subject or email, and groups; a tool rule never counts prompts', async () => {
    const limits = new RateLimits(() => [
      rule({ match: { principal: 'alice@x' }, rate: { points: 1, perSeconds: 60 } }),
      rule({ match: { group: 'sales' }, rate: { points: 2, perSeconds: 60 } }),
      rule({
        match: { client: 'cursor' },
        server: 'github',
        tool: 'create_issue',
        rate: { points: 1, perSeconds: 60 },
      }),
    ]);
    expect(await passing(limits, alice, createIssue, 3)).toBe(1);
    expect(await passing(limits, bob, createIssue, 3)).toBe(2);
    expect(await passing(limits, cursor, createIssue, 3)).toBe(1);
    expect(await passing(limits, cursor, prompt, 3)).toBe(3);
    // A person's bucket is theirs, whatever client they call through.
    expect(await limits.check({ ...alice, clientId: 'other' }, search)).toMatchObject({
      scope: { caller: 'principal:u-1' },
    });
  });

  it('gives everyone one bucket when the rule is shared', async () => {
    const limits = new RateLimits(() => [
      rule({ match: { group: 'eng' }, shared: true, rate: { points: 2, perSeconds: 60 } }),
    ]);
    const carol: CallerIdentity = { clientId: 'gw', principal: { subject: 'u-3', groups: ['eng'] } };
    expect(await passing(limits, alice, search, 1)).toBe(1);
    expect(await passing(limits, carol, search, 3)).toBe(1);
  });

  it('refills after the window and allows a burst on top of the rate', async () => {
    const limits = new RateLimits(() => [rule({ rate: { points: 2, perSeconds: 0.2 }, burst: 2 })]);
    expect(await passing(limits, cursor, search, 5)).toBe(4);
    const refused = await limits.check(cursor, search);
    expect(refused?.retryAfterMs).toBeLessThanOrEqual(200);
    await sleep(refused!.retryAfterMs + 20);
    // The rate refilled; the burst reserve (ten windows) did not.
    expect(await passing(limits, cursor, search, 3)).toBe(2);
  });

  it('keeps the buckets of rules an edit did not change, and starts new rules empty', async () => {
    let rules: LimitRule[] = [rule({ server: 'github' })];
    const limits = new RateLimits(() => rules);
    expect(await passing(limits, cursor, search, 3)).toBe(3);
    rules = [rule({ match: { client: 'vscode' } }), rule({ server: 'github' })];
    expect(await passing(limits, cursor, search, 1)).toBe(0);
    expect(await passing(limits, vscode, search, 1)).toBe(1);
    rules = [rule({ server: 'github', rate: { points: 4, perSeconds: 60 } })];
    expect(await passing(limits, cursor, search, 5)).toBe(4);
  });

  it('holds at most its cap of buckets: the least recently used is dropped', async () => {
    const buckets = memoryBuckets({ points: 1, perSeconds: 60 }, 3);
    for (const key of ['a', 'b', 'c', 'd', 'e']) expect(await buckets.take(key)).toEqual({ ok: true });
    expect(buckets.size).toBe(3);
    expect((await buckets.take('e')).ok).toBe(false);
    // `a` was dropped with its count: it starts again.
    expect(await buckets.take('a')).toEqual({ ok: true });
    expect(buckets.size).toBe(3);
  });

  it('names each rule the same way in every process reading the same policy (a shared store keys by it)', async () => {
    const named = (rules: LimitRule[]) => {
      const names: string[] = [];
      const limits = new RateLimits(
        () => rules,
        (size, name) => {
          names.push(name);
          return memoryBuckets(size);
        },
      );
      void limits.check(cursor, search);
      return names;
    };
    const policy = [rule({ server: 'github' }), rule({ server: 'github' }), rule({ tool: 'search', server: 'github' })];
    const first = named(policy);
    // Another replica, another copy of the same policy: the same names.
    expect(named(structuredClone(policy))).toEqual(first);
    // Two identical rules are two buckets; a different rule another name.
    expect(new Set(first).size).toBe(3);
  });
});
