/**
 * Rate limits and quotas on routed requests (the `policy.limits` rules): each
 * request of a caller takes one point from the bucket of every rule that
 * applies to it (limitRules.ts); when one is empty the request is refused
 * with the time to wait, before it reaches its server. Buckets live in a
 * `Buckets` store (memoryBuckets.ts by default), one store per rule; a policy
 * edit keeps the buckets of the rules it did not change. Refusals are counted
 * per server for health.
 */
import type { LimitRule } from '../../../platform/config/limitsConfig.js';
import type { CallerIdentity } from '../callerIdentity.js';
import type { Buckets, BucketsFactory } from './buckets.js';
import { bucketKey, rateText, ruleApplies, type LimitedTarget } from './limitRules.js';
import { createHash } from 'node:crypto';
import { memoryBuckets } from './memoryBuckets.js';

/** One process's buckets (laptop mode). */
const inMemory: BucketsFactory = (size) => memoryBuckets(size);

/** A rule's identity: a hash of its text, and which of several identical rules it is. */
function ruleIdentity(text: string, occurrence: number): string {
  return `${createHash('sha256').update(text).digest('base64url').slice(0, 16)}.${occurrence}`;
}

/** Why a request was refused: what the caller is told (`data` of the error) and the audit log keeps. */
export interface LimitRefusal {
  /** How long until the bucket has a point again. */
  retryAfterMs: number;
  limit: { points: number; perSeconds: number; burst?: number };
  /** Which rule and whose bucket: `caller` is the caller's own key, or `shared`. */
  scope: { rule: number; caller: string; server?: string; tool?: string };
  /** One line for people: `rate limit 10 per 60 s of policy.limits.0 reached; retry in 41 s`. */
  text: string;
}

/** A check that needed no bucket (no rule applies) is answered at once, without a promise. */
export type LimitCheck = Promise<LimitRefusal | undefined> | undefined;

/** The rules in force, their buckets, and the refusals counted per server. */
export class RateLimits {
  private rules: readonly LimitRule[] | undefined;
  private stores: Buckets[] = [];
  private readonly refused = new Map<string, number>();

  /** `rules()` is the policy's `limits` in force, read on each request (an edit takes effect at once). */
  constructor(
    private readonly current: () => readonly LimitRule[] | undefined,
    private readonly factory: BucketsFactory = inMemory,
  ) {}

  /** Takes a point for this request from every rule that applies; the first empty bucket refuses it. */
  check(caller: CallerIdentity, target: LimitedTarget): LimitCheck {
    const rules = this.current();
    if (!rules || rules.length === 0) return undefined;
    const stores = this.storesFor(rules);
    const applying = rules.flatMap((rule, index) => (ruleApplies(rule, caller, target) ? [index] : []));
    if (applying.length === 0) return undefined;
    return this.take(rules, stores, applying, caller, target);
  }

  /** Requests to `backend` refused since start. */
  refusals(backend: string): number {
    return this.refused.get(backend) ?? 0;
  }

  private async take(
    rules: readonly LimitRule[],
    stores: readonly Buckets[],
    applying: readonly number[],
    caller: CallerIdentity,
    target: LimitedTarget,
  ): Promise<LimitRefusal | undefined> {
    for (const index of applying) {
      const rule = rules[index]!;
      const key = bucketKey(rule, caller);
      const taken = await stores[index]!.take(key);
      if (taken.ok) continue;
      this.refused.set(target.backend, this.refusals(target.backend) + 1);
      return refusal(rule, index, key, taken.retryAfterMs);
    }
    return undefined;
  }

  /** The stores of `rules`, rebuilt when the policy changed: a rule unchanged keeps its buckets. */
  private storesFor(rules: readonly LimitRule[]): Buckets[] {
    if (rules === this.rules) return this.stores;
    const kept = new Map<string, Buckets[]>();
    (this.rules ?? []).forEach((rule, index) => {
      const same = kept.get(JSON.stringify(rule)) ?? [];
      same.push(this.stores[index]!);
      kept.set(JSON.stringify(rule), same);
    });
    const seen = new Map<string, number>();
    this.stores = rules.map((rule) => {
      const text = JSON.stringify(rule);
      const occurrence = seen.get(text) ?? 0;
      seen.set(text, occurrence + 1);
      return (
        kept.get(text)?.shift() ??
        this.factory(
          { points: rule.rate.points, perSeconds: rule.rate.perSeconds, burst: rule.burst },
          ruleIdentity(text, occurrence),
        )
      );
    });
    this.rules = rules;
    return this.stores;
  }
}

function refusal(rule: LimitRule, index: number, caller: string, retryAfterMs: number): LimitRefusal {
  const { points, perSeconds } = rule.rate;
  const limit = rule.burst === undefined ? { points, perSeconds } : { points, perSeconds, burst: rule.burst };
  const scope = {
    rule: index,
    caller,
    ...(rule.server === undefined ? {} : { server: rule.server }),
    ...(rule.tool === undefined ? {} : { tool: rule.tool }),
  };
  const wait = Math.ceil(retryAfterMs / 1000);
  const text = `rate limit ${rateText(rule)} of policy.limits.${index} reached; retry in ${wait} s`;
  return { retryAfterMs, limit, scope, text };
}
