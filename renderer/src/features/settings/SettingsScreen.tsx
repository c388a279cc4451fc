/**
 * Settings: the PATH every stdio backend gets. Shows where it came from (the
 * login shell, or the usual install locations when the shell could not be
 * asked, with why), the PATH in force, and the directories the user put in
 * front of it; adding or removing one is saved at once (`proxy.extraPath`)
 * and applies to every server started after it. Below it, the sandbox
 * (SandboxSettingsPanel.tsx).
 */
import { useEffect, useId, useState } from 'react';
import type { PathView } from '../../../../shared/model/registryViews.js';
import { ErrorNote } from '../../components/ErrorNote.js';
import { FieldError, invalidProps } from '../../components/FieldError.js';
import { useOutcome } from '../../components/useOutcome.js';
import { useAppStore } from '../../store/context.js';
import { SandboxSettingsPanel } from './SandboxSettingsPanel.js';

const SOURCE_LABEL: Record<PathView['source'], string> = {
  'login-shell': 'from your login shell',
  fallback: 'the usual install locations (the login shell could not be asked)',
  inherited: 'as Switchboard was started',
  given: 'as Switchboard was started',
  resolving: 'as Switchboard was started, until your login shell answers',
};

/** The Settings screen. */
export function SettingsScreen() {
  return (
    <>
      <header className="screen-head">
        <div>
          <h1>Settings</h1>
          <p>How Switchboard starts the servers it runs.</p>
        </div>
      </header>
      <PathPanel />
      <SandboxSettingsPanel />
    </>
  );
}

function PathPanel() {
  const call = useAppStore((s) => s.call);
  const [view, setView] = useState<PathView | undefined>();
  const [adding, setAdding] = useState('');
  /** Whether the last save added the typed directory (its error then sits on that field). */
  const [added, setAdded] = useState(false);
  const load = useOutcome();
  const save = useOutcome();
  const fieldId = useId();
  // The core names the entry ("paths.2 (…): no such directory"); on the field, the words are enough.
  const addError = added ? save.error?.message.replace(/^paths\.\d+ /, '') : undefined;
  const runLoad = load.run;
  useEffect(() => {
    void runLoad(async () => {
      const outcome = await call('env.path');
      if (outcome.ok) setView(outcome.result);
      return outcome;
    });
  }, [call, runLoad]);

  const setExtra = async (paths: string[], adds: boolean) => {
    setAdded(adds);
    const outcome = await save.run(() => call('env.setExtraPath', { paths }));
    if (outcome?.ok) {
      setView(outcome.result);
      setAdding('');
    }
  };

  return (
    <section className="panel stack" aria-label="PATH of stdio servers">
      <h2>PATH of stdio servers</h2>
      <p className="muted">
        Servers started by a command (npx, uvx, docker…) look it up on this PATH. Started from a dock or menu, an app
        gets a short PATH, so Switchboard asks your login shell for its own.
      </p>
      <ErrorNote error={load.error} title="Could not read the PATH" />
      {view && (
        <>
          <p role="status">
            PATH {SOURCE_LABEL[view.source]}
            {view.reason ? ` (${view.reason})` : ''}
          </p>
          <ol className="path-list" aria-label="PATH in force">
            {view.path.map((dir) => (
              <li key={dir}>
                <code>{dir}</code>
                {view.extra.includes(dir) && <span className="muted"> (added by you)</span>}
              </li>
            ))}
          </ol>
          <h3>Directories you added</h3>
          {view.extra.length === 0 && <p className="muted">None: add one if a command is not found.</p>}
          <ul aria-label="Directories you added">
            {view.extra.map((dir) => (
              <li key={dir} className="row">
                <code>{dir}</code>
                <button
                  type="button"
                  disabled={save.busy}
                  aria-label={`Remove ${dir}`}
                  onClick={() =>
                    void setExtra(
                      view.extra.filter((other) => other !== dir),
                      false,
                    )
                  }
                >
                  Remove
                </button>
              </li>
            ))}
          </ul>
          <form
            className="row"
            aria-label="Add a directory"
            onSubmit={(event) => {
              event.preventDefault();
              if (adding.trim() !== '') void setExtra([...view.extra, adding.trim()], true);
            }}
          >
            <div className="field-wrap">
              <label className="field">
                Directory to put in front
                <input
                  value={adding}
                  placeholder="/opt/tools/bin"
                  onChange={(event) => setAdding(event.target.value)}
                  {...invalidProps(fieldId, addError)}
                />
              </label>
              <FieldError id={fieldId} message={addError} />
            </div>
            <button type="submit" disabled={save.busy || adding.trim() === ''}>
              Add
            </button>
          </form>
          {!added && <ErrorNote error={save.error} title="Not saved" />}
        </>
      )}
    </section>
  );
}
