/**
 * Who is signed in to each server with per-caller credentials (a team
 * gateway's people, or the local user): who, since when, until when their
 * token lasts, never a token; an administrator revokes one person's
 * connection after confirmation (their next call asks them to sign in again).
 * Shown only when someone is signed in to such a server.
 */
import { useCallback, useEffect, useState } from 'react';
import type { CallerConnectionView } from '../../../../shared/model/connectionViews.js';
import { ConfirmDialog } from '../../components/Dialog.js';
import { DataTable } from '../../components/DataTable.js';
import { ErrorNote } from '../../components/ErrorNote.js';
import { timeAgo } from '../../components/time.js';
import { useOutcome } from '../../components/useOutcome.js';
import { useAppStore } from '../../store/context.js';

/** The panel of people's connections to per-caller servers. */
export function PeopleConnectionsPanel() {
  const call = useAppStore((s) => s.call);
  const [connections, setConnections] = useState<CallerConnectionView[] | undefined>();
  const [revoking, setRevoking] = useState<CallerConnectionView | undefined>();
  const { busy, error, run } = useOutcome();

  const load = useCallback(async () => {
    const outcome = await run(() => call('connections.everyone'));
    if (outcome?.ok) setConnections(outcome.result);
  }, [call, run]);

  useEffect(() => {
    void load();
  }, [load]);

  const revoke = async (connection: CallerConnectionView) => {
    setRevoking(undefined);
    const outcome = await run(() =>
      call('connections.revokeCaller', { server: connection.server, caller: connection.caller }),
    );
    if (outcome?.ok) await load();
  };

  if (!error && (!connections || connections.length === 0)) return null;
  return (
    <section className="panel" aria-label="People signed in to servers">
      <h2>People signed in to servers ({connections?.length ?? 0})</h2>
      <p className="muted small">Each uses a server with per-caller credentials as themselves.</p>
      <ErrorNote error={error} />
      {connections && connections.length > 0 && (
        <DataTable
          label="People signed in"
          rows={connections}
          rowKey={(connection) => `${connection.server}\n${connection.caller}`}
          columns={[
            { header: 'Server', cell: (connection) => connection.server },
            {
              header: 'Person',
              cell: (connection) => <span title={connection.caller}>{connection.person}</span>,
            },
            {
              header: 'Signed in',
              cell: (connection) => (
                <span title={connection.since}>{connection.since ? timeAgo(connection.since) : 'unknown'}</span>
              ),
            },
            {
              header: 'Token expires',
              cell: (connection) =>
                connection.expiresAt ? new Date(connection.expiresAt).toLocaleString() : 'no expiry given',
            },
            {
              header: 'Actions',
              hiddenHeader: true,
              cell: (connection) => (
                <button
                  type="button"
                  disabled={busy}
                  aria-label={`Revoke ${connection.person} on ${connection.server}`}
                  onClick={() => setRevoking(connection)}
                >
                  Revoke
                </button>
              ),
            },
          ]}
        />
      )}
      {revoking && (
        <ConfirmDialog
          title={`Revoke ${revoking.person} on ${revoking.server}?`}
          message="Their tokens for this server are forgotten and their connection to it is closed. Their next call asks them to sign in again."
          confirmLabel="Revoke"
          onCancel={() => setRevoking(undefined)}
          onConfirm={() => void revoke(revoking)}
        />
      )}
    </section>
  );
}
