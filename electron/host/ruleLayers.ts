/**
 * An item's rule for one profile, split into its layers: the rule in force,
 * the layer it comes from, and the rule it would inherit without a rule of its
 * own at the level being edited. Mirrors PolicyEngine.rule's precedence
 * (backend disabled -> client profile's backends, then its item overrides ->
 * the backend's item rule -> the backend's default -> the global default), so
 * the Authorization screen's "inherit (…)" names what inheriting would give.
 */
import { LOCAL_CLIENT, type ItemKind, type Policy, type ToolRule } from '../core/policy/policyConfig.js';

/** Where a rule comes from. */
export type RuleSource = 'client' | 'item' | 'backend' | 'default';

/** One item's rule for one profile, with its layers. */
export interface RuleLayers {
  /** The rule in force. */
  rule: ToolRule;
  /** `client`: this profile's own rule (or its server list); `item`: the item's rule for everyone; `backend`: the server's default or switch; `default`: the global default. */
  source: RuleSource;
  /**
   * The rule the item gets with no rule of its own at the edited level: for a
   * profile, what everyone gets; for everyone (`local`), the server's or the
   * global default.
   */
  inherited: ToolRule;
  /** Whether the item has a rule of its own at the edited level (what "inherit" removes). */
  own: boolean;
}

/** The layers of `original`'s rule for `client` (`local`: everyone, the main token). */
export function ruleLayers(
  policy: Policy,
  client: string,
  kind: ItemKind,
  backendId: string,
  original: string,
): RuleLayers {
  const backend = policy.backends[backendId];
  const serverDefault: ToolRule = backend?.defaultRule ?? policy.defaultRule;
  const serverSource: RuleSource = backend?.defaultRule ? 'backend' : 'default';
  const itemRule = backend?.[kind]?.[original];
  // What everyone gets (the layer below any profile's own rule).
  const everyone: { rule: ToolRule; source: RuleSource } = itemRule
    ? { rule: itemRule, source: 'item' }
    : { rule: serverDefault, source: serverSource };
  if (client === LOCAL_CLIENT) {
    if (backend?.enabled === false) return { rule: 'deny', source: 'backend', inherited: 'deny', own: !!itemRule };
    return { ...everyone, inherited: serverDefault, own: !!itemRule };
  }
  const profile = policy.clients[client];
  const override = profile?.items?.[backendId]?.[kind]?.[original];
  const own = override !== undefined;
  if (backend?.enabled === false) return { rule: 'deny', source: 'backend', inherited: 'deny', own };
  if (!profile || (profile.backends && !profile.backends.includes(backendId))) {
    return { rule: 'deny', source: 'client', inherited: 'deny', own };
  }
  if (override) return { rule: override, source: 'client', inherited: everyone.rule, own };
  return { ...everyone, inherited: everyone.rule, own };
}
