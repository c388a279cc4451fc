/**
 * Clients connected right now. 2026-07-28 clients are stateless, so nothing
 * says when one is done: the core drops an entry once it sat idle past its
 * timeout, when the list is read. The panel reads it again every
 * {@link SESSIONS_REFRESH_MS} while shown, so such entries leave the screen
 * soon after, even when no other session comes or goes.
 */
import { useEffect } from 'react';
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
        <table className="table">
          <thead>
            <tr>
              <th scope="col">Client</th>
              <th scope="col">Profile</th>
              <th scope="col">Protocol</th>
              <th scope="col">Connected</th>
              <th scope="col">Last activity</th>
            </tr>
          </thead>
          <tbody>
            {list.map((session) => (
              <tr key={session.id}>
                <td>
                  {session.clientName ?? 'unknown'} <span className="muted">{session.clientVersion}</span>
                </td>
                <td>{session.profile}</td>
                <td>
                  {session.era === 'modern' ? '2026-07-28 (stateless)' : '2025 (session)'} · {session.transport}
                </td>
                <td>{timeAgo(session.connectedAt)}</td>
                <td>{timeAgo(session.lastActivityAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
