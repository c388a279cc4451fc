/**
 * Settings' sandbox panel (issue #25): whether a sandbox can run on this
 * machine (or why not), and the `proxy.defaultSandbox` switch, "Sandbox
 * servers that have no setting of their own". Saved at once; the proxy
 * section is read at start, so the panel says when a restart is still due.
 */
import { useEffect, useState } from 'react';
import type { SandboxSettingsView } from '../../../../shared/model/sandboxViews.js';
import { ErrorNote } from '../../components/ErrorNote.js';
import { useOutcome } from '../../components/useOutcome.js';
import { useAppStore } from '../../store/context.js';

/** The panel. */
export function SandboxSettingsPanel() {
  const call = useAppStore((s) => s.call);
  const [view, setView] = useState<SandboxSettingsView | undefined>();
  const load = useOutcome();
  const save = useOutcome();
  const runLoad = load.run;
  useEffect(() => {
    void runLoad(async () => {
      const outcome = await call('sandbox.settings');
      if (outcome.ok) setView(outcome.result);
      return outcome;
    });
  }, [call, runLoad]);

  const setDefault = async (enabled: boolean) => {
    const outcome = await save.run(() => call('sandbox.setDefault', { enabled }));
    if (outcome?.ok) setView(outcome.result);
  };

  return (
    <section className="panel stack" aria-label="Sandbox">
      <h2>Sandbox</h2>
      <p className="muted">
        A sandboxed server sees the system&apos;s files read-only, its own package folders, a private home and temp
        folder, and only the paths you grant it; by default it has no network. Servers you add are sandboxed.
      </p>
      <ErrorNote error={load.error} title="Could not read the sandbox settings" />
      {view && (
        <>
          <p role="status" className={`note small ${view.support.available ? 'tone-ok' : 'tone-bad'}`}>
            {view.support.available
              ? `Sandboxing works here (${view.support.engine}).`
              : `No sandbox can run here: ${view.support.reason}. Sandboxed servers are not started.`}
          </p>
          <label className="check">
            <input
              type="checkbox"
              checked={view.defaultSandbox}
              disabled={save.busy}
              onChange={(event) => void setDefault(event.target.checked)}
            />
            Sandbox servers that have no setting of their own
          </label>
          {view.defaultSandbox !== view.defaultInForce && (
            <p className="note tone-warn small">Saved: applies once Switchboard restarts.</p>
          )}
          <ErrorNote error={save.error} title="Not saved" />
        </>
      )}
    </section>
  );
}
