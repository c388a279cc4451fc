/**
 * The rule switch of one item for one profile: inherit (naming what it
 * inherits), allow, deny, and ask for tools.
 */
import type { PolicyItemView, RuleView } from '../../../../shared/model/views.js';
import { inheritLabel, selectValue } from './ruleChoice.js';

/** The select; `onChange` gets the new rule (`null`: inherit). */
export function RuleSelect({
  item,
  label,
  disabled,
  onChange,
}: {
  item: Pick<PolicyItemView, 'exposed' | 'kind' | 'own' | 'rule' | 'source' | 'inherited'>;
  /** Accessible name (default "Rule for <exposed>"). */
  label?: string;
  disabled?: boolean;
  onChange: (rule: RuleView | null) => void;
}) {
  return (
    <select
      aria-label={label ?? `Rule for ${item.exposed}`}
      value={selectValue(item)}
      disabled={disabled}
      onChange={(event) => onChange((event.target.value || null) as RuleView | null)}
    >
      <option value="">{inheritLabel(item)}</option>
      <option value="allow">allow</option>
      <option value="deny">deny</option>
      {item.kind === 'tools' && <option value="ask">ask</option>}
    </select>
  );
}
