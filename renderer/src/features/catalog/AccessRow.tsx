/**
 * What the chosen profile gets of one catalog item, with its rule switch
 * right there (saved for that profile; `*` is everyone).
 */
import type { ItemAccessView } from '../../../../shared/model/views.js';
import { ErrorNote } from '../../components/ErrorNote.js';
import { Badge } from '../../components/HealthBadge.js';
import { useOutcome } from '../../components/useOutcome.js';
import { useAppStore } from '../../store/context.js';
import { approxTokens } from '../clients/ExposureCell.js';
import { RuleSelect } from '../authorization/RuleSelect.js';
import { stateLook } from '../authorization/ruleChoice.js';

/** The rows of the detail table about access; `viewer` is the profile's name. */
export function AccessRows({ item, viewer, profile }: { item: ItemAccessView; viewer: string; profile: string }) {
  const setRules = useAppStore((s) => s.setRules);
  const { error, run } = useOutcome({ exclusive: false });
  const look = stateLook(item.state, viewer);
  return (
    <>
      <tr>
        <th scope="row">{viewer.charAt(0).toUpperCase() + viewer.slice(1)} gets</th>
        <td>
          <div className="row">
            <Badge tone={look.tone}>{look.label}</Badge>
            <span aria-label={`Access for ${viewer}`}>{look.detail}</span>
          </div>
          <div className="row">
            <RuleSelect
              item={item}
              label={`Rule for ${item.exposed} for ${viewer}`}
              onChange={(rule) =>
                void run(() =>
                  setRules(profile, [{ backendId: item.backendId, kind: item.kind, original: item.original, rule }]),
                )
              }
            />
            {!item.listed && (item.state === 'allowed' || item.state === 'ask') && (
              <span className="small muted">found by search_tools, not listed</span>
            )}
          </div>
          <ErrorNote error={error} title="Not changed" />
        </td>
      </tr>
      {item.clientName && (
        <tr>
          <th scope="row">{viewer} sees it as</th>
          <td className="mono">{item.clientName}</td>
        </tr>
      )}
      {item.tokens !== undefined && (
        <tr>
          <th scope="row">Context cost</th>
          <td>{approxTokens(item.tokens)} tokens in tools/list</td>
        </tr>
      )}
    </>
  );
}
