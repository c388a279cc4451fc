/**
 * Which limit rules a request counts against, and in which bucket: a rule
 * applies when its `match` names the caller (its client profile, its person
 * by subject or email, one of its groups; `{}` everyone) and its `server`
 * and `tool` (if given) name the request's item. A rule without `tool`
 * counts every routed request to its server (or to any server); one with
 * `tool` counts only calls of that tool, named by its server's own name or
 * as people see it (see namesTool).
 */
import type { LimitMatch, LimitRule } from '../../../platform/config/limitsConfig.js';
import { callerKey, type CallerIdentity } from '../callerIdentity.js';

/** The request a rule is weighed against: the owning backend and the backend's own name or URI. */
export interface LimitedTarget {
  kind: 'tools/call' | 'prompts/get' | 'resources/read';
  backend: string;
  /** The backend's original name or URI. */
  item: string;
  /** The name clients call it by (the catalog's), when it is a tool. */
  exposed?: string | undefined;
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
  if (rule.tool !== undefined && (target.kind !== 'tools/call' || !namesTool(rule.tool, rule.server, target)))
    return false;
  return matchesCaller(rule.match, caller);
}

/**
 * Whether a rule's `tool` names the target: the server's own name (`get.weather`),
 * the catalog's name clients call (`fx__get_weather`), or the server's ID and its
 * own name joined as the catalog joins them (`fx__get.weather`). No allocation.
 */
function namesTool(tool: string, server: string | undefined, target: LimitedTarget): boolean {
  if (tool === target.item || tool === target.exposed) return true;
  if (server === undefined || tool.length !== server.length + 2 + target.item.length) return false;
  return tool.startsWith(server) && tool.startsWith('__', server.length) && tool.endsWith(target.item);
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
