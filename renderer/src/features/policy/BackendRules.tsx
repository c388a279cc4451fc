/**
 * One backend's authorization: its settings (for everyone) and a rule per item
 * (for the selected profile).
 */
import { useState } from 'react';
import type { PolicyItemView, PolicyView, RuleView } from '../../../../shared/model/views.js';
import { ErrorNote } from '../../components/ErrorNote.js';
import { Badge } from '../../components/HealthBadge.js';
import { useOutcome } from '../../components/useOutcome.js';
import { useAppStore } from '../../store/context.js';

type BackendPolicy = PolicyView['backends'][number];

const KIND_LABEL = { tools: 'tool', prompts: 'prompt', resources: 'resource', resourceTemplates: 'template' } as const;
const SOURCE_LABEL = { client: 'this profile', item: 'set here', backend: 'server default', default: 'global default' };

/** The panel for one backend. */
export function BackendRules({
  backend,
  items,
  profile,
}: {
  backend: BackendPolicy;
  items: PolicyItemView[];
  profile: string;
}) {
  const setBackendPolicy = useAppStore((s) => s.setBackendPolicy);
  const setRule = useAppStore((s) => s.setRule);
  // Not exclusive: each switch saves on its own (disabling them would take the focus away mid-keyboard use).
  const { error, run: change } = useOutcome({ exclusive: false });
  const [filter, setFilter] = useState('');

  const toggle = (patch: Partial<Omit<BackendPolicy, 'id'>>) =>
    void change(() => setBackendPolicy({ backendId: backend.id, ...patch }));
  const shown = filter ? items.filter((i) => i.exposed.toLowerCase().includes(filter.toLowerCase())) : items;

  return (
    <section className="panel" aria-label={`Rules for ${backend.id}`}>
      <div className="row spread">
        <h2>{backend.id}</h2>
        <span className="small muted">Server settings apply to everyone.</span>
      </div>
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
      <div className="row" role="group" aria-label={`${backend.id} settings`}>
        <label className="check">
          <input type="checkbox" checked={backend.enabled} onChange={(e) => toggle({ enabled: e.target.checked })} />
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
          <input type="checkbox" checked={backend.pinning} onChange={(e) => toggle({ pinning: e.target.checked })} />
          Pin tool definitions
        </label>
        <label className="check">
          <input type="checkbox" checked={backend.capture} onChange={(e) => toggle({ capture: e.target.checked })} />
          Record arguments in the log
        </label>
      </div>
      <ErrorNote error={error} title="Not changed" />
      {items.length > 12 && (
        <input
          type="search"
          aria-label={`Filter ${backend.id} items`}
          placeholder="Filter items"
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
        />
      )}
      {items.length === 0 ? (
        <p className="muted">This server offers nothing yet (or is not up).</p>
      ) : (
        <table className="table">
          <thead>
            <tr>
              <th scope="col">Item</th>
              <th scope="col">Kind</th>
              <th scope="col">Rule{profile === '*' ? '' : ` for ${profile}`}</th>
              <th scope="col">From</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((item) => (
              <tr key={`${item.kind}:${item.original}`}>
                <td className="mono">
                  {item.exposed} {item.withheld && <Badge tone="warn">withheld: changed</Badge>}
                </td>
                <td>{KIND_LABEL[item.kind]}</td>
                <td>
                  <select
                    aria-label={`Rule for ${item.exposed}`}
                    value={item.source === 'item' || item.source === 'client' ? item.rule : ''}
                    onChange={(e) =>
                      void change(() =>
                        setRule(backend.id, item.kind, item.original, (e.target.value || null) as RuleView | null),
                      )
                    }
                  >
                    <option value="">inherit ({item.rule})</option>
                    <option value="allow">allow</option>
                    <option value="deny">deny</option>
                    {item.kind === 'tools' && <option value="ask">ask</option>}
                  </select>
                </td>
                <td className="small muted">{SOURCE_LABEL[item.source]}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
