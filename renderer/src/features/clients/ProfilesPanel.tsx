/**
 * Client profiles and their tokens: create (the token is shown once), rotate,
 * revoke (after confirmation); export one as a profile file, import one.
 */
import { useId, useState } from 'react';
import { badIdMessage } from '../../../../shared/ids.js';
import { BACKEND_ID_RULE } from '../../../../shared/presets.js';
import { CopyButton } from '../../components/CopyButton.js';
import { ConfirmDialog, Dialog } from '../../components/Dialog.js';
import { DataTable } from '../../components/DataTable.js';
import { ErrorNote } from '../../components/ErrorNote.js';
import { FieldError, invalidProps } from '../../components/FieldError.js';
import { useOutcome } from '../../components/useOutcome.js';
import { useAppStore } from '../../store/context.js';
import { downloadProfile } from './downloadProfile.js';
import { ExposureCell } from './ExposureCell.js';
import { ProfileImportDialog } from './ProfileImportDialog.js';

/** Shows a freshly issued token once. */
function TokenOnce({ token, onClose }: { token: string; onClose: () => void }) {
  return (
    <Dialog title="Copy the token now" onClose={onClose}>
      <p>It is shown only this once. Paste it into the client as its bearer token.</p>
      <div className="token-box">
        <code aria-label="New token">{token}</code>
        <CopyButton text={token} label="Copy token" />
      </div>
      <div className="actions">
        <button type="button" className="primary" onClick={onClose}>
          Done
        </button>
      </div>
    </Dialog>
  );
}

/** The profiles panel. */
export function ProfilesPanel() {
  const profiles = useAppStore((s) => s.profiles);
  const createToken = useAppStore((s) => s.createToken);
  const rotateToken = useAppStore((s) => s.rotateToken);
  const revokeProfile = useAppStore((s) => s.revokeProfile);
  const setExposure = useAppStore((s) => s.setExposure);
  const [id, setId] = useState('');
  const [name, setName] = useState('');
  const [token, setToken] = useState<string | undefined>();
  const { busy, error, run } = useOutcome();
  /** The new profile's ID problem, shown on its field. */
  const [idProblem, setIdProblem] = useState<string | undefined>();
  const idErrorId = useId();
  const [revoking, setRevoking] = useState<string | undefined>();
  const [importing, setImporting] = useState(false);
  const call = useAppStore((s) => s.call);

  const exportProfile = (id: string) =>
    void run(async () => {
      const outcome = await call('profiles.export', { id, servers: true });
      if (outcome.ok) downloadProfile(outcome.result);
      return outcome;
    });

  const issue = async (action: () => ReturnType<typeof createToken>): Promise<boolean> => {
    const outcome = await run(action);
    if (outcome?.ok) setToken(outcome.result.token);
    return outcome?.ok === true;
  };

  return (
    <section className="panel" aria-label="Client profiles">
      <h2>Client profiles and tokens</h2>
      <div className="row">
        <p className="muted small">Each profile has its own token and its own rules under Authorization.</p>
        <button type="button" onClick={() => setImporting(true)}>
          Import profile…
        </button>
      </div>
      <ErrorNote error={profiles.error ?? error} />
      {profiles.data && profiles.data.length > 0 && (
        <DataTable
          label="Profiles"
          rows={profiles.data}
          rowKey={(profile) => profile.id}
          columns={[
            {
              header: 'Profile',
              cell: (profile) => (
                <>
                  <strong>{profile.name}</strong> <span className="muted mono">{profile.id}</span>
                </>
              ),
            },
            { header: 'Servers', cell: (profile) => (profile.backends ? profile.backends.join(', ') : 'all') },
            { header: 'Token', cell: (profile) => (profile.hasToken ? 'set' : 'none') },
            {
              header: 'Tools',
              cell: (profile) => (
                <ExposureCell
                  profile={profile}
                  busy={busy}
                  onSet={(exposure) => void run(() => setExposure(profile.id, exposure))}
                />
              ),
            },
            {
              header: 'Actions',
              cell: (profile) => (
                <div className="row">
                  <button type="button" disabled={busy} onClick={() => void issue(() => rotateToken(profile.id))}>
                    {profile.hasToken ? 'Rotate token' : 'Issue token'}
                  </button>
                  <button type="button" disabled={busy} onClick={() => exportProfile(profile.id)}>
                    Export
                  </button>
                  <button type="button" className="danger" disabled={busy} onClick={() => setRevoking(profile.id)}>
                    Revoke
                  </button>
                </div>
              ),
            },
          ]}
        />
      )}
      <form
        className="row"
        aria-label="New client profile"
        onSubmit={(event) => {
          event.preventDefault();
          const problem = BACKEND_ID_RULE.test(id.trim()) ? undefined : badIdMessage('ID');
          setIdProblem(problem);
          if (problem) return;
          void issue(() => createToken(id.trim(), name.trim() || id.trim())).then((ok) => {
            if (ok) {
              setId('');
              setName('');
            }
          });
        }}
      >
        <span className="stack">
          <input
            aria-label="Profile ID"
            placeholder="id, e.g. laptop-cursor"
            value={id}
            onChange={(e) => setId(e.target.value)}
            {...invalidProps(idErrorId, idProblem)}
          />
          <FieldError id={idErrorId} message={idProblem} />
        </span>
        <input aria-label="Profile name" placeholder="name" value={name} onChange={(e) => setName(e.target.value)} />
        <button type="submit" className="primary" disabled={busy || !id.trim()}>
          Create token
        </button>
      </form>
      {importing && <ProfileImportDialog onClose={() => setImporting(false)} />}
      {token && <TokenOnce token={token} onClose={() => setToken(undefined)} />}
      {revoking && (
        <ConfirmDialog
          title={`Revoke ${revoking}?`}
          message="Clients using its token are refused from now on."
          confirmLabel="Revoke"
          onCancel={() => setRevoking(undefined)}
          onConfirm={() => {
            const target = revoking;
            setRevoking(undefined);
            void run(() => revokeProfile(target));
          }}
        />
      )}
    </section>
  );
}
