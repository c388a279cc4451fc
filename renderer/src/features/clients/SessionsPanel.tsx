/**
 * Clients connected right now. 2026-07-28 clients are stateless, so nothing
 * says when one is done: the core drops an entry once it sat idle past its
 * timeout, when the list is read. The panel reads it again every
 * {@link SESSIONS_REFRESH_MS} while shown, so such entries leave the screen
 * soon after, even when no other session comes or goes.
 */
import { useEffect } from 'react';
import { DataTable } from '../../components/DataTable.js';
import { ErrorNote } from '../../components/ErrorNote.js';
import { timeAgo } from '../../components/time.js';
import { useAppStore, useShown } from '../../store/context.js';

/** How often the shown list is read again (ms). */
export const SESSIONS_REFRESH_MS = 30_000;

/** The sessions panel. */
export function SessionsPanel() {
  const sessions = useAppStore((s) => s.sessions);
  const invalidate = useAppStore((s) => s.invalidate);
  useShown('sessions');
  useEffect(() => {
    const timer = setInterval(() => invalidate('sessions'), SESSIONS_REFRESH_MS);
    return () => clearInterval(timer);
  }, [invalidate]);
  const list = sessions.data ?? [];
  return (
    <section className="panel" aria-label="Connected sessions">
      <h2>Connected sessions ({list.length})</h2>
      <ErrorNote error={sessions.error} />
      {list.length === 0 ? (
        <p className="muted">No client is connected. Install Switchboard into a client above, then start it.</p>
      ) : (
        <DataTable
          label="Sessions"
          rows={list}
          rowKey={(session) => session.id}
          columns={[
            {
              header: 'Client',
              cell: (session) => (
                <>
                  {session.clientName ?? 'unknown'} <span className="muted">{session.clientVersion}</span>
                </>
              ),
            },
            { header: 'Profile', cell: (session) => session.profile },
            {
              header: 'Protocol',
              cell: (session) =>
                `${session.era === 'modern' ? '2026-07-28 (stateless)' : '2025 (session)'} · ${session.transport}`,
            },
            { header: 'Connected', cell: (session) => timeAgo(session.connectedAt) },
            { header: 'Last activity', cell: (session) => timeAgo(session.lastActivityAt) },
          ]}
        />
      )}
    </section>
  );
}
