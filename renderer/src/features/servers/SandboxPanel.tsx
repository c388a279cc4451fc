/**
 * A stdio server's sandbox on its card (issues #25, #37): what it runs under,
 * in plain words ("Sandboxed (bubblewrap): …", "Not sandboxed: runs with your
 * rights", "Sandbox unavailable: <reason> — not started"), a switch to turn
 * it on or off, what the sandbox refused ("blocked by the sandbox: …", each
 * with **Allow**: BlockedAccess.tsx), and the server's grants, each with
 * **Revoke**. Turning the sandbox on first says what the server's launch
 * points at outside it (`MEMORY_FILE_PATH=/home/u/notes.json`), offering the
 * grant. Each change is saved on the server (`sandbox.*`), which restarts.
 * **Learn permissions** (LearnPermissions.tsx) proposes a grant from a
 * recorded run.
 */
import { useState } from 'react';
import type { SandboxBlock } from '../../../../shared/model/health.js';
import { entrySandbox, grantsOf, grantWords } from '../../../../shared/model/sandboxGrants.js';
import type { SandboxPathWarning } from '../../../../shared/model/sandboxViews.js';
import type { BackendView } from '../../../../shared/model/views.js';
import { ErrorNote } from '../../components/ErrorNote.js';
import { useOutcome } from '../../components/useOutcome.js';
import { useAppStore } from '../../store/context.js';
import { BlockedAccessList } from './BlockedAccess.js';
import { LearnPermissions } from './LearnPermissions.js';
import { granted, sandboxLine } from './sandboxEntry.js';

const TONE = { on: 'tone-ok', off: 'tone-warn', unavailable: 'tone-bad' } as const;

/** The sandbox section of `backend`'s card (stdio servers with a sandbox in their health). */
export function SandboxPanel({ backend }: { backend: BackendView }) {
  const sandbox = backend.health.sandbox;
  const call = useAppStore((s) => s.call);
  const { busy, error, run } = useOutcome();
  /** What the launch points at outside the sandbox, shown before it is turned on. */
  const [outside, setOutside] = useState<SandboxPathWarning[] | undefined>();
  if (!sandbox) return null;
  const id = backend.health.id;
  const own = entrySandbox(backend.entry);
  /** On as far as the config says (health says `unavailable` for one that is on but cannot run). */
  const on = sandbox.state !== 'off';
  const grants = grantsOf(own);

  const setEnabled = async (enabled: boolean) => {
    setOutside(undefined);
    await run(() => call('sandbox.setEnabled', { id, enabled }), 'toggle');
  };
  const turnOn = async () => {
    const view = await run(() => call('sandbox.server', { id }), 'check');
    if (!view?.ok) return;
    if (view.result.warnings.length > 0) setOutside(view.result.warnings);
    else await setEnabled(true);
  };
  const allowOutside = async (warning: SandboxPathWarning) => {
    const done = await run(() => call('sandbox.grant', { id, grant: warning.grant }), 'grant');
    if (!done?.ok) return;
    // Nothing left outside: on, as the user asked.
    if (done.result.warnings.length === 0) await setEnabled(true);
    else setOutside(done.result.warnings);
  };

  return (
    <section className="stack sandbox" aria-label={`Sandbox of ${id}`}>
      <div className={`note small ${TONE[sandbox.state]}`} role="status">
        {sandboxLine(sandbox)}
        {own === undefined && <span className="muted"> (the default in Settings; no setting of its own)</span>}
      </div>
      <BlockedAccessList
        id={id}
        blocked={sandbox.blocked}
        home={sandbox.home}
        granted={(block: SandboxBlock) => granted(backend.entry, block)}
      />
      {grants.length > 0 && (
        <ul className="grant-list small stack" aria-label={`Grants of ${id}`}>
          {grants.map((grant) => (
            <li key={`${grant.kind} ${grant.target}`} className="row">
              <span>
                Allowed: <code>{grantWords(grant)}</code>
              </span>
              <button
                type="button"
                disabled={busy}
                aria-label={`Revoke ${grantWords(grant)}`}
                title="Saved on this server, which restarts without it"
                onClick={() => void run(() => call('sandbox.revoke', { id, grant }), 'revoke')}
              >
                Revoke
              </button>
            </li>
          ))}
        </ul>
      )}
      {outside && outside.length > 0 && (
        <div className="note small tone-warn stack" role="alert" aria-label={`Outside the sandbox of ${id}`}>
          <span>Its sandbox would hide what its launch points at:</span>
          <ul className="blocked-list stack">
            {outside.map((warning) => (
              <li key={warning.name} className="row">
                <code>
                  {warning.name} = {warning.path}
                </code>
                <button
                  type="button"
                  disabled={busy}
                  aria-label={`Allow ${grantWords(warning.grant)}`}
                  onClick={() => void allowOutside(warning)}
                >
                  Allow
                </button>
              </li>
            ))}
          </ul>
          <div className="row">
            <button type="button" disabled={busy} onClick={() => void setEnabled(true)}>
              Turn on anyway
            </button>
            <button type="button" disabled={busy} onClick={() => setOutside(undefined)}>
              Cancel
            </button>
          </div>
        </div>
      )}
      <div className="row">
        <label className="check">
          <input
            type="checkbox"
            checked={on}
            disabled={busy}
            onChange={(event) => void (event.target.checked ? turnOn() : setEnabled(false))}
          />
          Run sandboxed
        </label>
        {busy && <span className="muted small">Saving and restarting…</span>}
      </div>
      <LearnPermissions id={id} />
      <ErrorNote error={error} title="Sandbox not changed" />
    </section>
  );
}
