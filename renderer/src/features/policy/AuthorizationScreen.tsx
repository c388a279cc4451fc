/**
 * Who may use what: per-profile rules for every item, per-backend settings,
 * calls waiting for approval and changed tool definitions.
 */
import { EmptyState } from '../../components/EmptyState.js';
import { ErrorNote } from '../../components/ErrorNote.js';
import { useAppStore } from '../../store/context.js';
import { ApprovalsPanel } from './ApprovalsPanel.js';
import { BackendRules } from './BackendRules.js';
import { PinChangesPanel } from './PinChangesPanel.js';

/** The Authorization screen. */
export function AuthorizationScreen() {
  const policy = useAppStore((s) => s.policy);
  const profile = useAppStore((s) => s.policyProfile);
  const setProfile = useAppStore((s) => s.setPolicyProfile);
  const profiles = useAppStore((s) => s.profiles.data ?? []);
  const setScreen = useAppStore((s) => s.setScreen);
  const view = policy.data;
  return (
    <>
      <header className="screen-head">
        <div>
          <h1>Authorization</h1>
          <p>Choose what each client may use. Denied items disappear from that client's lists.</p>
        </div>
        <label className="field">
          Rules for
          <select value={profile} onChange={(event) => setProfile(event.target.value)}>
            <option value="*">Everyone (default)</option>
            {profiles.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name} ({p.id})
              </option>
            ))}
          </select>
        </label>
      </header>
      <ApprovalsPanel />
      <PinChangesPanel />
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
      {view?.backends.map((backend) => (
        <BackendRules
          key={backend.id}
          backend={backend}
          items={view.items.filter((item) => item.backendId === backend.id)}
          profile={view.profile}
        />
      ))}
    </>
  );
}
