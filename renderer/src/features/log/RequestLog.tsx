/**
 * The request log: a live tail (new calls appear as the core reports them,
 * fetched only while shown), filters (LogFilters.tsx), a call's detail on
 * click, and export of what is shown as JSON lines.
 */
import { useState } from 'react';
import type { LogEntryView } from '../../../../shared/model/views.js';
import { ErrorNote } from '../../components/ErrorNote.js';
import { Badge, type Tone } from '../../components/HealthBadge.js';
import { useAppStore, useShown } from '../../store/context.js';
import { downloadJsonLines } from './exportLog.js';
import { LogDetail } from './LogDetail.js';
import { LogFilters } from './LogFilters.js';

export { CLIENT_FILTER_DELAY_MS } from './LogFilters.js';

const OUTCOME_TONE: Record<LogEntryView['outcome'], Tone> = {
  ok: 'ok',
  error: 'bad',
  sandbox_blocked: 'bad',
  denied: 'warn',
  timeout: 'bad',
  cancelled: 'idle',
};

/** The log panel. */
export function RequestLog() {
  const log = useAppStore((s) => s.log);
  const filter = useAppStore((s) => s.logFilter);
  const [item, setItem] = useState('');
  const [selected, setSelected] = useState<LogEntryView | undefined>();
  useShown('log');
  const needle = item.trim().toLowerCase();
  const entries = (log.data ?? []).filter((entry) => !needle || entry.item.toLowerCase().includes(needle));
  const filtered = needle !== '' || Object.values(filter).some(Boolean);
  return (
    <>
      <section className="panel" aria-label="Request log">
        <div className="row spread">
          <h2>Calls, newest first</h2>
          <button type="button" disabled={entries.length === 0} onClick={() => downloadJsonLines(entries)}>
            Export JSON lines
          </button>
        </div>
        <LogFilters item={item} setItem={setItem} />
        <ErrorNote error={log.error} />
        {entries.length === 0 ? (
          <p className="muted">No requests yet{filtered ? ' match these filters' : ''}.</p>
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
                <tr key={`${entry.time}-${index}`} aria-selected={selected === entry || undefined}>
                  <td className="small">{new Date(entry.time).toLocaleTimeString()}</td>
                  <td>
                    {entry.client}
                    {entry.principal && (
                      <div className="small muted">{entry.principal.email ?? entry.principal.subject}</div>
                    )}
                  </td>
                  <td>{entry.backend}</td>
                  <td className="mono small">
                    {entry.kind}{' '}
                    <button
                      type="button"
                      className="link mono"
                      aria-label={`Details of ${entry.item} at ${new Date(entry.time).toLocaleTimeString()}`}
                      onClick={() => setSelected(entry)}
                    >
                      {entry.item}
                    </button>
                  </td>
                  <td>
                    <Badge tone={OUTCOME_TONE[entry.outcome]}>{entry.outcome}</Badge>
                    {entry.errorCode !== undefined && entry.errorCode !== entry.outcome && (
                      <span className="small muted"> {entry.errorCode}</span>
                    )}
                    {entry.detail && <div className="small muted">{entry.detail}</div>}
                  </td>
                  <td>{Math.round(entry.durationMs)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      {selected && <LogDetail entry={selected} onClose={() => setSelected(undefined)} />}
    </>
  );
}
