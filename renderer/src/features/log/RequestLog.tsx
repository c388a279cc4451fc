/**
 * The request log: a live tail (new calls appear as the core reports them,
 * fetched only while shown), filters (LogFilters.tsx), a call's detail on
 * click, and export of what is shown as JSON lines.
 */
import { useState } from 'react';
import type { LogEntryView } from '../../../../shared/model/views.js';
import { DataTable } from '../../components/DataTable.js';
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
          <DataTable
            label="Calls"
            rows={entries}
            rowKey={(entry, index) => `${entry.time}-${index}`}
            isSelected={(entry) => selected === entry}
            onOpen={(entry) => setSelected(entry)}
            columns={[
              { header: 'Time', className: 'small', cell: (entry) => new Date(entry.time).toLocaleTimeString() },
              {
                header: 'Client',
                cell: (entry) => (
                  <>
                    {entry.client}
                    {entry.principal && (
                      <div className="small muted">{entry.principal.email ?? entry.principal.subject}</div>
                    )}
                  </>
                ),
              },
              { header: 'Server', cell: (entry) => entry.backend },
              {
                header: 'Request',
                className: 'mono small',
                cell: (entry) => (
                  <>
                    {entry.kind}{' '}
                    <button
                      type="button"
                      className="link mono"
                      aria-label={`Details of ${entry.item} at ${new Date(entry.time).toLocaleTimeString()}`}
                      onClick={() => setSelected(entry)}
                    >
                      {entry.item}
                    </button>
                  </>
                ),
              },
              {
                header: 'Outcome',
                cell: (entry) => (
                  <>
                    <Badge tone={OUTCOME_TONE[entry.outcome]}>{entry.outcome}</Badge>
                    {entry.errorCode !== undefined && entry.errorCode !== entry.outcome && (
                      <span className="small muted"> {entry.errorCode}</span>
                    )}
                    {entry.detail && <div className="small muted">{entry.detail}</div>}
                  </>
                ),
              },
              { header: 'ms', cell: (entry) => Math.round(entry.durationMs) },
            ]}
          />
        )}
      </section>
      {selected && <LogDetail entry={selected} onClose={() => setSelected(undefined)} />}
    </>
  );
}
