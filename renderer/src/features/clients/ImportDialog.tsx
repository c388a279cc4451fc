/**
 * Importing a client app's servers: list them, choose, import.
 */
import { useEffect, useState } from 'react';
import type { ErrorData } from '../../../../shared/errors.js';
import type { ClientAppView, ImportCandidateView } from '../../../../shared/model/views.js';
import { Dialog } from '../../components/Dialog.js';
import { ErrorNote } from '../../components/ErrorNote.js';
import { toggled } from '../../components/sets.js';
import { useAppStore } from '../../store/context.js';
import { RunPreview } from '../servers/RunPreview.js';

/** The servers chosen at first: every one that can be imported and Switchboard does not have yet. */
export function initialSelection(candidates: readonly ImportCandidateView[]): Set<string> {
  return new Set(candidates.filter((c) => c.inSwitchboard === 'no' && !c.skipReason).map((c) => c.name));
}

/** Where a candidate's secret fields go (names only; their values never reach the UI). */
export function secretsNote(candidate: ImportCandidateView, keychain: boolean): string | undefined {
  if (candidate.secretFields.length === 0 || candidate.skipReason || candidate.inSwitchboard === 'same') return;
  const fields = candidate.secretFields.join(', ');
  return keychain
    ? `secrets moved to the keychain: ${fields}`
    : `secrets become environment references (no keychain): ${fields}`;
}

/** The import dialog for `app`. */
export function ImportDialog({ app, onClose }: { app: ClientAppView; onClose: () => void }) {
  const call = useAppStore((s) => s.call);
  const invalidate = useAppStore((s) => s.invalidate);
  const keychain = useAppStore((s) => s.info.data?.keychain.available ?? false);
  const [candidates, setCandidates] = useState<ImportCandidateView[] | undefined>();
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [error, setError] = useState<ErrorData | undefined>();
  const [done, setDone] = useState<string[] | undefined>();

  useEffect(() => {
    void call('clients.importable', { client: app.id }).then((outcome) => {
      if (!outcome.ok) return setError(outcome.error);
      setCandidates(outcome.result);
      setChosen(initialSelection(outcome.result));
    });
  }, [app.id, call]);

  const importChosen = async () => {
    const outcome = await call('clients.import', { client: app.id, names: [...chosen] });
    if (!outcome.ok) return setError(outcome.error);
    setDone(outcome.result.imported);
    // The imported servers reach the lists through the core's events; client apps have none.
    invalidate('apps');
  };

  return (
    <Dialog title={`Import from ${app.name}`} onClose={onClose}>
      <ErrorNote error={error} />
      {!candidates && !error && <p className="muted">Reading {app.configPath}…</p>}
      {candidates && candidates.length === 0 && <p className="muted">{app.name} has no servers to import.</p>}
      <div className="stack">
        {candidates?.map((candidate) => (
          <div key={candidate.name} className="stack">
            <label className="check">
              <input
                type="checkbox"
                disabled={!!candidate.skipReason || candidate.inSwitchboard === 'same'}
                checked={chosen.has(candidate.name)}
                onChange={(e) => setChosen(toggled(chosen, candidate.name, e.target.checked))}
              />
              <span>
                <strong>{candidate.name}</strong>
                {candidate.inSwitchboard === 'same' && <span className="muted"> — already in Switchboard</span>}
                {candidate.inSwitchboard === 'name-taken' && (
                  <span className="muted"> — name taken, imported as {candidate.id}</span>
                )}
                {candidate.skipReason && <span className="muted"> — {candidate.skipReason}</span>}
                {secretsNote(candidate, keychain) && (
                  <span className="small"> ({secretsNote(candidate, keychain)})</span>
                )}
                {candidate.warnings.map((w) => (
                  <span key={w} className="small muted">
                    {' '}
                    ({w})
                  </span>
                ))}
              </span>
            </label>
            {candidate.preview && candidate.inSwitchboard !== 'same' && !candidate.skipReason && (
              <RunPreview preview={candidate.preview} label={`What ${candidate.id} will run`} />
            )}
          </div>
        ))}
      </div>
      {done && <p role="status">Imported: {done.join(', ') || 'nothing'}</p>}
      <div className="actions">
        <button type="button" onClick={onClose}>
          Close
        </button>
        <button
          type="button"
          className="primary"
          disabled={chosen.size === 0 || !!done}
          onClick={() => void importChosen()}
        >
          Import {chosen.size}
        </button>
      </div>
    </Dialog>
  );
}
