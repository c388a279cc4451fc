/**
 * The request log with filters by backend, client and outcome. It is fetched
 * only while shown; the typed client filter applies on Enter, on leaving the
 * box, or after a pause in typing (not one query per keystroke).
 */
import { useEffect, useState } from 'react';
import type { LogEntryView } from '../../../../shared/model/views.js';
import { ErrorNote } from '../../components/ErrorNote.js';
import { Badge, type Tone } from '../../components/HealthBadge.js';
import { useAppStore, useShown } from '../../store/context.js';

const OUTCOME_TONE: Record<LogEntryView['outcome'], Tone> = {
  ok: 'ok',
  error: 'bad',
  denied: 'warn',
  timeout: 'bad',
  cancelled: 'idle',
};
const OUTCOMES = Object.keys(OUTCOME_TONE) as LogEntryView['outcome'][];

/** How long typing in the client filter pauses before it applies (ms). */
export const CLIENT_FILTER_DELAY_MS = 500;

/** The log panel. */
export function RequestLog() {
  const log = useAppStore((s) => s.log);
  const filter = useAppStore((s) => s.logFilter);
  const setFilter = useAppStore((s) => s.setLogFilter);
  const backends = useAppStore((s) => s.backends.data ?? []);
  const profiles = useAppStore((s) => s.profiles.data ?? []);
  const entries = log.data ?? [];
  useShown('log');
  const [clientDraft, setClientDraft] = useState(filter.client ?? '');
  const applyClient = () => {
    const client = clientDraft.trim() || undefined;
    if (client !== filter.client) setFilter({ ...filter, client });
  };
  useEffect(() => {
    const timer = setTimeout(() => {
      const client = clientDraft.trim() || undefined;
      if (client !== filter.client) setFilter({ ...filter, client });
    }, CLIENT_FILTER_DELAY_MS);
    return () => clearTimeout(timer);
  }, [clientDraft, filter, setFilter]);
  return (
    <section className="panel" aria-label="Request log">
      <h2>Request log</h2>
      <div className="row" role="group" aria-label="Log filters">
        <select
          aria-label="Filter by server"
          value={filter.backend ?? ''}
          onChange={(e) => setFilter({ ...filter, backend: e.target.value || undefined })}
        >
          <option value="">All servers</option>
          {backends.map((b) => (
            <option key={b.health.id} value={b.health.id}>
              {b.health.id}
            </option>
          ))}
        </select>
        <input
          aria-label="Filter by client"
          placeholder="client"
          list="log-clients"
          value={clientDraft}
          onChange={(e) => setClientDraft(e.target.value)}
          onBlur={applyClient}
          onKeyDown={(e) => {
            if (e.key === 'Enter') applyClient();
          }}
        />
        <datalist id="log-clients">
          {profiles.map((p) => (
            <option key={p.id} value={p.id} />
          ))}
        </datalist>
        <select
          aria-label="Filter by outcome"
          value={filter.outcome ?? ''}
          onChange={(e) =>
            setFilter({ ...filter, outcome: (e.target.value || undefined) as LogEntryView['outcome'] | undefined })
          }
        >
          <option value="">Any outcome</option>
          {OUTCOMES.map((o) => (
            <option key={o} value={o}>
              {o}
            </option>
          ))}
        </select>
      </div>
      <ErrorNote error={log.error} />
      {entries.length === 0 ? (
        <p className="muted">No requests yet{Object.values(filter).some(Boolean) ? ' match these filters' : ''}.</p>
      ) : (
        <table className="table">
          <thead>
            <tr>
              <th scope="col">Time</th>
              <th scope="col">Client</th>
              <th scope="col">Server</th>
              <th scope="col">Request</th>
              <th scope="col">Outcome</th>
              <th scope="col">ms</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((entry, index) => (
              <tr key={`${entry.time}-${index}`}>
                <td className="small">{new Date(entry.time).toLocaleTimeString()}</td>
                <td>{entry.client}</td>
                <td>{entry.backend}</td>
                <td className="mono small">
                  {entry.kind} {entry.item}
                </td>
                <td>
                  <Badge tone={OUTCOME_TONE[entry.outcome]}>{entry.outcome}</Badge>
                  {entry.errorCode !== undefined && <span className="small muted"> {entry.errorCode}</span>}
                  {entry.detail && <div className="small muted">{entry.detail}</div>}
                </td>
                <td>{Math.round(entry.durationMs)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
