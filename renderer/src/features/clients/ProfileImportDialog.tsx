/**
 * Importing a profile file (docs/profiles.md): pick the file, see what would
 * change (the host's preview names servers, rules and secrets, never a
 * value), enter each secret it needs, import. Secret values go to the host
 * once, with the import, and are not kept here after it.
 */
import { useEffect, useState } from 'react';
import type { ErrorData } from '../../../../shared/errors.js';
import type { ProfileImportPreviewView } from '../../../../shared/model/profileFileViews.js';
import { Dialog } from '../../components/Dialog.js';
import { ErrorNote } from '../../components/ErrorNote.js';
import { useAppStore } from '../../store/context.js';
import { secretDestination, useKeychainAvailable } from '../servers/SecretStorageChoice.js';

const SERVER_STATES: Record<ProfileImportPreviewView['servers'][number]['state'], string> = {
  added: 'added',
  same: 'already here, the same: left as it is',
  differs: 'already here, differs: left as it is',
  missing: 'used by the profile, but neither in the file nor here',
};

const POLICY_STATES: Record<ProfileImportPreviewView['policies'][number]['state'], string> = {
  added: 'added',
  same: 'already here, the same',
  differs: 'already here, differs: left as it is',
};

/** The preview's lines about the profile itself. */
export function profileLine(preview: ProfileImportPreviewView): string {
  if (preview.profile.state === 'new') return `Profile ${preview.id}: new`;
  const fields = preview.profile.changedFields;
  return `Profile ${preview.id}: replaced (${fields.length > 0 ? `changes ${fields.join(', ')}` : 'no rule changes'})`;
}

/** The import dialog. */
export function ProfileImportDialog({ onClose }: { onClose: () => void }) {
  const call = useAppStore((s) => s.call);
  const keychain = useKeychainAvailable();
  const [text, setText] = useState<string | undefined>();
  const [fileName, setFileName] = useState('');
  const [as, setAs] = useState('');
  const [replace, setReplace] = useState(false);
  const [preview, setPreview] = useState<ProfileImportPreviewView | undefined>();
  const [secrets, setSecrets] = useState<Record<string, string>>({});
  const [error, setError] = useState<ErrorData | undefined>();
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<string | undefined>();

  // The preview follows the file and the options; a stale answer (the options changed since) is dropped.
  const asId = as.trim();
  useEffect(() => {
    if (text === undefined) return;
    let current = true;
    setPreview(undefined);
    setError(undefined);
    void call('profiles.previewImport', { text, ...(asId ? { as: asId } : {}), replace }).then((outcome) => {
      if (!current) return;
      if (!outcome.ok) return setError(outcome.error);
      setPreview(outcome.result);
    });
    return () => {
      current = false;
    };
  }, [call, text, asId, replace]);

  const missing = preview?.inputs.filter((input) => !input.stored && !secrets[input.name]) ?? [];

  const importFile = async () => {
    if (text === undefined) return;
    setBusy(true);
    const outcome = await call('profiles.import', {
      text,
      ...(asId ? { as: asId } : {}),
      replace,
      secrets: Object.fromEntries(Object.entries(secrets).filter(([, value]) => value !== '')),
    });
    setBusy(false);
    setSecrets({});
    if (!outcome.ok) return setError(outcome.error);
    const added = outcome.result.servers;
    setDone(`Imported profile ${outcome.result.id}${added.length > 0 ? ` with servers ${added.join(', ')}` : ''}.`);
  };

  return (
    <Dialog title="Import a profile" onClose={onClose}>
      {done ? (
        <>
          <p role="status">{done}</p>
          <p className="muted small">It has a token of its own: Rotate token shows a new one once.</p>
          <div className="actions">
            <button type="button" className="primary" onClick={onClose}>
              Done
            </button>
          </div>
        </>
      ) : (
        <div className="stack">
          <label className="stack">
            Profile file
            <input
              type="file"
              accept=".json,application/json"
              aria-label="Profile file"
              onChange={(event) => {
                const file = event.target.files?.[0];
                if (!file) return;
                setFileName(file.name);
                void file.text().then(setText);
              }}
            />
          </label>
          <div className="row">
            <label className="row">
              Import as
              <input placeholder="the file's ID" value={as} onChange={(e) => setAs(e.target.value)} />
            </label>
            <label className="row">
              <input type="checkbox" checked={replace} onChange={(e) => setReplace(e.target.checked)} />
              Replace a profile of the same ID
            </label>
          </div>
          <ErrorNote error={error} />
          {preview && (
            <section className="stack" aria-label="Changes">
              <h3>What {fileName || 'the file'} changes</h3>
              <ul>
                <li>{profileLine(preview)}</li>
                {preview.servers.map((server) => (
                  <li key={`server-${server.id}`}>
                    Server {server.id}: {SERVER_STATES[server.state]}
                  </li>
                ))}
                {preview.policies.map((policy) => (
                  <li key={`policy-${policy.id}`}>
                    Policy of {policy.id}: {POLICY_STATES[policy.state]}
                  </li>
                ))}
              </ul>
              {preview.inputs.length > 0 && <h3>Secrets</h3>}
              {preview.inputs.map((input) => (
                <label key={input.name} className="stack">
                  <span>
                    <span className="mono">{input.name}</span>{' '}
                    <span className="muted small">
                      {input.description}
                      {input.stored
                        ? ' (in the keychain already: leave empty to keep it)'
                        : input.inline
                          ? ' (written into its launch line)'
                          : keychain
                            ? ` (${secretDestination(true)})`
                            : ' (needs the OS keychain, which this machine does not have: the import is refused until it does)'}
                    </span>
                  </span>
                  <input
                    type="password"
                    autoComplete="off"
                    aria-label={`Secret ${input.name}`}
                    value={secrets[input.name] ?? ''}
                    onChange={(e) => setSecrets({ ...secrets, [input.name]: e.target.value })}
                  />
                </label>
              ))}
            </section>
          )}
          <div className="actions">
            <button type="button" onClick={onClose}>
              Cancel
            </button>
            <button
              type="button"
              className="primary"
              disabled={busy || !preview || missing.length > 0}
              onClick={() => void importFile()}
            >
              Import
            </button>
          </div>
        </div>
      )}
    </Dialog>
  );
}
