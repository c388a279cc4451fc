/**
 * An item's rule for one profile, split into its layers: the rule in force and
 * the layer it comes from (PolicyEngine's `decideRule`, the one home of the
 * precedence), and the rule it would inherit without a rule of its own at the
 * level being edited, so the Authorization screen's "inherit (…)" names what
 * inheriting would give.
 */
import { decideRule, type DecisionSource } from './policyEngine.js';
import { LOCAL_CLIENT, type ItemKind, type Policy, type ToolRule } from '../../platform/config/policyConfig.js';

/** Where a rule comes from, as the Authorization screen groups the levels. */
export type RuleSource = 'client' | 'item' | 'backend' | 'default';

const SOURCE_VIEW: Record<DecisionSource, RuleSource> = {
  backendDisabled: 'backend',
  unknownClient: 'client',
  clientBackends: 'client',
  clientItem: 'client',
  item: 'item',
  backendDefault: 'backend',
  globalDefault: 'default',
};

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
  const decision = decideRule(policy, client, kind, backendId, original);
  const layers = { rule: decision.rule, source: SOURCE_VIEW[decision.source] };
  const backend = policy.backends[backendId];
  if (client === LOCAL_CLIENT) {
    const own = backend?.[kind]?.[original] !== undefined;
    // Without the item's own rule: the server's default (a switched-off server denies regardless).
    const inherited = backend?.enabled === false ? 'deny' : (backend?.defaultRule ?? policy.defaultRule);
    return { ...layers, inherited, own };
  }
  const own = policy.clients[client]?.items?.[backendId]?.[kind]?.[original] !== undefined;
  // Without the profile's own rule: what everyone gets, unless the profile cannot see the server at all.
  const inherited =
    decision.source === 'clientItem' ? decideRule(policy, LOCAL_CLIENT, kind, backendId, original).rule : decision.rule;
  return { ...layers, inherited, own };
}
