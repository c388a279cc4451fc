/**
 * Which limit rules a request counts against, and in which bucket: a rule
 * applies when its `match` names the caller (its client profile, its person
 * by subject or email, one of its groups; `{}` everyone) and its `server`
 * and `tool` (if given) name the request's item. A rule without `tool`
 * counts every routed request to its server (or to any server); one with
 * `tool` counts only calls of that tool.
 */
import type { LimitMatch, LimitRule } from '../../../platform/config/limitsConfig.js';
import { callerKey, type CallerIdentity } from '../callerIdentity.js';

/** The request a rule is weighed against: the owning backend and the backend's own name or URI. */
export interface LimitedTarget {
  kind: 'tools/call' | 'prompts/get' | 'resources/read';
  backend: string;
  /** The backend's original name or URI. */
  item: string;
}

/** Whether `match` names this caller. */
export function matchesCaller(match: LimitMatch, caller: CallerIdentity): boolean {
  if (match.client !== undefined) return match.client === caller.clientId;
  const principal = caller.principal;
  if (match.principal !== undefined) {
    return principal !== undefined && (principal.subject === match.principal || principal.email === match.principal);
  }
  if (match.group !== undefined) return principal?.groups.includes(match.group) ?? false;
  return true;
}

/** Whether `rule` counts this request of this caller. */
export function ruleApplies(rule: LimitRule, caller: CallerIdentity, target: LimitedTarget): boolean {
  if (rule.server !== undefined && rule.server !== target.backend) return false;
  if (rule.tool !== undefined && (target.kind !== 'tools/call' || rule.tool !== target.item)) return false;
  return matchesCaller(rule.match, caller);
}

/** The bucket of this caller under `rule`: their own, or the rule's one shared bucket. */
export function bucketKey(rule: LimitRule, caller: CallerIdentity): string {
  return rule.shared ? 'shared' : callerKey(caller);
}

/** The rule as people read it in an error or the audit log: `10 per 60 s (+5 burst)`. */
export function rateText(rule: LimitRule): string {
  const burst = rule.burst === undefined ? '' : ` (+${rule.burst} burst)`;
  return `${rule.rate.points} per ${rule.rate.perSeconds} s${burst}`;
}
