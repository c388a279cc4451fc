/**
 * The logic behind the rule switches (Authorization rows, the Catalog's
 * detail pane) and the per-server bulk actions: what a select shows, what
 * "inherit" would give, which rules a bulk action writes, and how an item's
 * state for a profile reads.
 */
import type { ItemAccessState, PolicyItemView, PolicyKind, RuleView } from '../../../../shared/model/views.js';

/** The select's value: the item's own rule at this level, or `''` (inherit). */
export function selectValue(item: Pick<PolicyItemView, 'own' | 'rule' | 'source'>): RuleView | '' {
  // A profile's server list (source `client` without an override) is not a rule of the item's own.
  return item.own ? item.rule : '';
}

/** The "inherit" option's label, naming the value inheriting gives (not the item's own rule). */
export function inheritLabel(item: Pick<PolicyItemView, 'inherited'>): string {
  return `inherit (${item.inherited})`;
}

/** A bulk action on one server's items. */
export type BulkAction = 'allow' | 'deny' | 'ask-writes' | 'inherit';

/** One rule change, as `policy.setRules` takes it. */
export interface RuleChange {
  backendId: string;
  kind: PolicyKind;
  original: string;
  rule: RuleView | null;
}

/**
 * The changes a bulk action makes to `items`: allow or deny every item; ask
 * for every tool its annotations do not mark read-only (`readOnlyHint`), the
 * rest left as they are; or remove every own rule. Items already so are left out.
 */
export function bulkChanges(
  items: readonly Pick<PolicyItemView, 'backendId' | 'kind' | 'original' | 'own' | 'rule' | 'readOnly'>[],
  action: BulkAction,
): RuleChange[] {
  const change = (item: (typeof items)[number], rule: RuleView | null): RuleChange => ({
    backendId: item.backendId,
    kind: item.kind,
    original: item.original,
    rule,
  });
  switch (action) {
    case 'inherit':
      return items.filter((item) => item.own).map((item) => change(item, null));
    case 'ask-writes':
      return items
        .filter((item) => item.kind === 'tools' && item.readOnly !== true && !(item.own && item.rule === 'ask'))
        .map((item) => change(item, 'ask'));
    default:
      return items.filter((item) => !(item.own && item.rule === action)).map((item) => change(item, action));
  }
}

/** How an item's state for a profile reads, with its tone ("denied by your rule for Cursor"). */
export function stateLook(
  state: ItemAccessState,
  name: string,
): { label: string; detail: string; tone: 'ok' | 'warn' | 'bad' | 'info' | 'idle' } {
  switch (state) {
    case 'allowed':
      return { label: 'allowed', detail: `${name} may use it`, tone: 'ok' };
    case 'ask':
      return { label: 'ask', detail: `${name} may use it after you approve each call`, tone: 'info' };
    case 'denied':
      return { label: 'denied', detail: `denied by your rule for ${name}`, tone: 'bad' };
    case 'withheld':
      return {
        label: 'quarantined',
        detail: 'quarantined: hidden from clients until you approve it (Review)',
        tone: 'warn',
      };
    case 'server-off':
      return { label: 'hidden', detail: 'hidden: the server is off for every client', tone: 'idle' };
    case 'server-hidden':
      return { label: 'hidden', detail: `hidden: ${name} does not see this server`, tone: 'idle' };
    case 'over-cap':
      return { label: 'over cap', detail: `hidden: past ${name}'s tool cap`, tone: 'warn' };
  }
}

/** Whether a client gets the item at all (listed or found by search). */
export function clientGets(state: ItemAccessState): boolean {
  return state === 'allowed' || state === 'ask';
}

/** "12 of 16 tools on": the tools of one server a profile gets, of all it offers. */
export function toolsOn(
  items: readonly { kind: PolicyKind; backendId: string; state: ItemAccessState }[],
  backendId: string,
): { on: number; total: number } {
  let on = 0;
  let total = 0;
  for (const item of items) {
    if (item.kind !== 'tools' || item.backendId !== backendId) continue;
    total += 1;
    if (clientGets(item.state)) on += 1;
  }
  return { on, total };
}

/** Items whose name, the server's own name or the server matches every word of `filter`. */
export function filterItems<T extends Pick<PolicyItemView, 'exposed' | 'original' | 'backendId'>>(
  items: readonly T[],
  filter: string,
): T[] {
  const words = filter.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...items];
  return items.filter((item) => {
    const text = `${item.exposed}\n${item.original}\n${item.backendId}`.toLowerCase();
    return words.every((word) => text.includes(word));
  });
}
