/**
 * One server's part of the Authorization table: a collapsible group header
 * with the server's settings (for everyone), bulk actions for the selected
 * profile, and a rule per item. Every server's rows share the table's columns.
 */
import type { PolicyItemView, PolicyView } from '../../../../shared/model/views.js';
import { ErrorNote } from '../../components/ErrorNote.js';
import { Badge } from '../../components/HealthBadge.js';
import { useOutcome } from '../../components/useOutcome.js';
import { useAppStore } from '../../store/context.js';
import { bulkChanges, type BulkAction } from './ruleChoice.js';
import { RuleSelect } from './RuleSelect.js';

type BackendPolicy = PolicyView['backends'][number];

const KIND_LABEL = {
  tools: 'tool',
  prompts: 'prompt',
  resources: 'resource',
  resourceTemplates: 'template',
  skills: 'skill',
} as const;
const SOURCE_LABEL = { client: 'this profile', item: 'set here', backend: 'server default', default: 'global default' };
const BULK: { action: BulkAction; label: string }[] = [
  { action: 'allow', label: 'Allow all' },
  { action: 'deny', label: 'Deny all' },
  { action: 'ask-writes', label: 'Ask for non-read-only tools' },
  { action: 'inherit', label: 'Reset to inherit' },
];

/** The rows of one backend; `items` are the ones the filter shows, `total` how many it has. */
export function BackendRules({
  backend,
  items,
  total,
  profile,
  expanded,
  onToggle,
}: {
  backend: BackendPolicy;
  items: PolicyItemView[];
  total: number;
  profile: string;
  expanded: boolean;
  onToggle: () => void;
}) {
  const setBackendPolicy = useAppStore((s) => s.setBackendPolicy);
  const setRule = useAppStore((s) => s.setRule);
  const setRules = useAppStore((s) => s.setRules);
  const openReview = useAppStore((s) => s.openReview);
  // Not exclusive: each switch saves on its own (disabling them would take the focus away mid-keyboard use).
  const { error, run: change } = useOutcome({ exclusive: false });
  const toggle = (patch: Partial<Omit<BackendPolicy, 'id'>>) =>
    void change(() => setBackendPolicy({ backendId: backend.id, ...patch }));
  const rowsId = `rules-${backend.id}`;
  const who = profile === '*' ? 'everyone' : profile;

  return (
    <tbody id={rowsId} aria-label={`Rules for ${backend.id}`}>
      <tr className="rules-group">
        <th colSpan={4} scope="colgroup">
          <div className="row spread">
            <button type="button" className="disclosure" aria-expanded={expanded} onClick={onToggle}>
              <span aria-hidden="true">{expanded ? '▾' : '▸'}</span> {backend.id}{' '}
              <span className="chip">{items.length === total ? total : `${items.length} of ${total}`}</span>
            </button>
            <div className="row" role="group" aria-label={`${backend.id} bulk actions`}>
              {BULK.map(({ action, label }) => (
                <button
                  key={action}
                  type="button"
                  className="small"
                  aria-label={`${label} of ${backend.id} for ${who}`}
                  disabled={items.length === 0}
                  onClick={() => void change(() => setRules(profile, bulkChanges(items, action)))}
                >
                  {label}
                </button>
              ))}
            </div>
          </div>
          {expanded && (
            <div className="row" role="group" aria-label={`${backend.id} settings`}>
              {profile !== '*' && (
                <label className="check">
                  <input
                    type="checkbox"
                    checked={backend.visible}
                    onChange={(e) =>
                      void change(() => setBackendPolicy({ backendId: backend.id, profile, visible: e.target.checked }))
                    }
                  />
                  {profile} sees this server
                </label>
              )}
              <label className="check">
                <input
                  type="checkbox"
                  checked={backend.enabled}
                  onChange={(e) => toggle({ enabled: e.target.checked })}
                />
                {/* Not "Enabled": that is the Servers screen's switch, which stops the process. This one only hides it. */}
                Clients may use it
              </label>
              <label className="check">
                Default rule
                <select
                  value={backend.defaultRule}
                  onChange={(e) => toggle({ defaultRule: e.target.value as 'allow' | 'deny' })}
                >
                  <option value="allow">allow</option>
                  <option value="deny">deny</option>
                </select>
              </label>
              <label className="check">
                <input
                  type="checkbox"
                  checked={backend.pinning}
                  onChange={(e) => toggle({ pinning: e.target.checked })}
                />
                Pin tool definitions
              </label>
              <label className="check">
                <input
                  type="checkbox"
                  checked={backend.capture}
                  onChange={(e) => toggle({ capture: e.target.checked })}
                />
                Record arguments in the log
              </label>
              <span className="small muted">Server settings apply to everyone.</span>
            </div>
          )}
          <ErrorNote error={error} title="Not changed" />
        </th>
      </tr>
      {expanded && total === 0 && (
        <tr>
          <td colSpan={4} className="muted">
            This server offers nothing yet (or is not up).
          </td>
        </tr>
      )}
      {expanded &&
        items.map((item) => (
          <tr key={`${item.kind}:${item.original}`}>
            <td className="mono">
              {item.exposed}{' '}
              {item.withheld && (
                <button
                  type="button"
                  className="badge badge-button tone-warn"
                  aria-label={`Quarantined — review ${backend.id}`}
                  onClick={() => openReview(backend.id)}
                >
                  quarantined — review
                </button>
              )}
              {item.readOnly && <Badge tone="ok">read-only</Badge>}
            </td>
            <td>{KIND_LABEL[item.kind]}</td>
            <td>
              <RuleSelect
                item={item}
                onChange={(rule) => void change(() => setRule(backend.id, item.kind, item.original, rule))}
              />
            </td>
            <td className="small muted">
              {item.source === 'item' && profile !== '*' ? "everyone's rule" : SOURCE_LABEL[item.source]}
            </td>
          </tr>
        ))}
    </tbody>
  );
}
