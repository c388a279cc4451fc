/**
 * Who may use what: per-profile rules for every item in one table grouped by
 * server (collapsible, filterable, with bulk actions), per-server settings,
 * the profile's tool exposure, calls waiting for approval and changed tool
 * definitions.
 */
import { useMemo, useState } from 'react';
import { EmptyState } from '../../components/EmptyState.js';
import { ErrorNote } from '../../components/ErrorNote.js';
import { useAppStore } from '../../store/context.js';
import { ApprovalsPanel } from './ApprovalsPanel.js';
import { BackendRules } from './BackendRules.js';
import { ExposurePanel } from './ExposurePanel.js';
import { PinChangesPanel } from './PinChangesPanel.js';
import { filterItems } from './ruleChoice.js';

/** The Authorization screen. */
export function AuthorizationScreen() {
  const policy = useAppStore((s) => s.policy);
  const profile = useAppStore((s) => s.policyProfile);
  const setProfile = useAppStore((s) => s.setPolicyProfile);
  const profiles = useAppStore((s) => s.profiles.data);
  const filter = useAppStore((s) => s.policyFilter);
  const setFilter = useAppStore((s) => s.setPolicyFilter);
  const setScreen = useAppStore((s) => s.setScreen);
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());
  const view = policy.data;
  const shown = useMemo(() => filterItems(view?.items ?? [], filter), [view, filter]);
  const backends = useMemo(() => {
    if (!view) return [];
    const filtering = filter.trim() !== '';
    return (
      view.backends
        .map((backend) => ({
          backend,
          total: view.items.filter((item) => item.backendId === backend.id).length,
          items: shown.filter((item) => item.backendId === backend.id),
        }))
        // A server whose name matches shows even with nothing offered yet.
        .filter(
          ({ backend, items }) => !filtering || items.length > 0 || backend.id.includes(filter.trim().toLowerCase()),
        )
    );
  }, [view, shown, filter]);
  const name = profile === '*' ? 'the main token' : (profiles?.find((p) => p.id === profile)?.name ?? profile);

  return (
    <>
      <header className="screen-head">
        <div>
          <h1>Authorization</h1>
          <p>Choose what each client may use. Denied items disappear from that client's lists.</p>
        </div>
        <div className="row">
          <label className="field">
            Rules for
            <select value={profile} onChange={(event) => setProfile(event.target.value)}>
              <option value="*">Everyone (default)</option>
              {(profiles ?? []).map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name} ({p.id})
                </option>
              ))}
            </select>
          </label>
          <input
            type="search"
            aria-label="Filter servers and items"
            placeholder="Filter servers and items"
            value={filter}
            onChange={(event) => setFilter(event.target.value)}
          />
        </div>
      </header>
      <ApprovalsPanel />
      <PinChangesPanel />
      {view?.tools && <ExposurePanel profile={profile} name={name} tools={view.tools} />}
      <ErrorNote error={policy.error} title="Could not load the rules" />
      {view && view.backends.length === 0 && (
        <section className="panel">
          <EmptyState
            title="No servers to authorize"
            actions={
              <button type="button" className="primary" onClick={() => setScreen('add')}>
                Add a server
              </button>
            }
          >
            Rules appear here for each server's tools, prompts and resources.
          </EmptyState>
        </section>
      )}
      {view && view.backends.length > 0 && (
        <section className="panel">
          {backends.length === 0 ? (
            <EmptyState title="Nothing matches">Try fewer words.</EmptyState>
          ) : (
            <table className="table rules-table" aria-label="Rules">
              <colgroup>
                <col className="rules-item" />
                <col className="rules-kind" />
                <col className="rules-rule" />
                <col className="rules-from" />
              </colgroup>
              <thead>
                <tr>
                  <th scope="col">Item</th>
                  <th scope="col">Kind</th>
                  <th scope="col">Rule{profile === '*' ? '' : ` for ${profile}`}</th>
                  <th scope="col">From</th>
                </tr>
              </thead>
              {backends.map(({ backend, items, total }) => (
                <BackendRules
                  key={backend.id}
                  backend={backend}
                  items={items}
                  total={total}
                  profile={view.profile}
                  expanded={!collapsed.has(backend.id)}
                  onToggle={() =>
                    setCollapsed((current) => {
                      const next = new Set(current);
                      if (!next.delete(backend.id)) next.add(backend.id);
                      return next;
                    })
                  }
                />
              ))}
            </table>
          )}
        </section>
      )}
    </>
  );
}
