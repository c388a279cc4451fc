/**
 * The request log's filters: server, client and person (typed; each applies
 * on Enter, on leaving the box, or after a pause), tool or item (matched in
 * the UI), outcome, and time (since a moment before now). The person is
 * gateway mode's: a subject or an email.
 */
import { useEffect, useState } from 'react';
import type { LogQueryView } from '../../../../shared/contractMethods.js';
import { LOG_OUTCOMES } from '../../../../shared/model/logViews.js';
import type { LogEntryView } from '../../../../shared/model/views.js';
import { useAppStore } from '../../store/context.js';

/** The outcomes a call can have. */
export const OUTCOMES: LogEntryView['outcome'][] = [...LOG_OUTCOMES];

/** How long typing in the client filter pauses before it applies (ms). */
export const CLIENT_FILTER_DELAY_MS = 500;

/**
 * Before the servers or profiles are fetched: the selectors return the slice's own value, never a fresh `[]`
 * (a new array on each read makes React re-render without end, error #185).
 */
const NONE_YET: never[] = [];

/** Time windows of the time filter (label, milliseconds back from now). */
const WINDOWS: [string, number][] = [
  ['Last 5 minutes', 5 * 60_000],
  ['Last hour', 60 * 60_000],
  ['Last 24 hours', 24 * 60 * 60_000],
];

/** The filter row; `item` and `setItem` are the tool filter (applied in the UI). */
export function LogFilters({ item, setItem }: { item: string; setItem: (item: string) => void }) {
  const filter = useAppStore((s) => s.logFilter);
  const setFilter = useAppStore((s) => s.setLogFilter);
  const backends = useAppStore((s) => s.backends.data) ?? NONE_YET;
  const profiles = useAppStore((s) => s.profiles.data) ?? NONE_YET;
  const [clientDraft, setClientDraft] = useState(filter.client ?? '');
  const [personDraft, setPersonDraft] = useState(filter.principal ?? '');
  const [timeWindow, setTimeWindow] = useState('');
  // People are gateway mode's: the person filter shows once a call names one (or while it is in use).
  const anyPerson = useAppStore((s) => s.log.data?.some((entry) => entry.principal !== undefined) ?? false);
  const showPerson = anyPerson || filter.principal !== undefined || personDraft !== '';
  const apply = (next: LogQueryView) => setFilter(next);
  const applyClient = () => {
    const client = clientDraft.trim() || undefined;
    if (client !== filter.client) apply({ ...filter, client });
  };
  const applyPerson = () => {
    const principal = personDraft.trim() || undefined;
    if (principal !== filter.principal) apply({ ...filter, principal });
  };
  useEffect(() => {
    const timer = setTimeout(() => {
      const client = clientDraft.trim() || undefined;
      const principal = personDraft.trim() || undefined;
      if (client !== filter.client || principal !== filter.principal) setFilter({ ...filter, client, principal });
    }, CLIENT_FILTER_DELAY_MS);
    return () => clearTimeout(timer);
  }, [clientDraft, personDraft, filter, setFilter]);
  return (
    <div className="row" role="group" aria-label="Log filters">
      <select
        aria-label="Filter by server"
        value={filter.backend ?? ''}
        onChange={(e) => apply({ ...filter, backend: e.target.value || undefined })}
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
      {showPerson && (
        <input
          aria-label="Filter by person"
          placeholder="person (subject or email)"
          value={personDraft}
          onChange={(e) => setPersonDraft(e.target.value)}
          onBlur={applyPerson}
          onKeyDown={(e) => {
            if (e.key === 'Enter') applyPerson();
          }}
        />
      )}
      <input
        type="search"
        aria-label="Filter by tool"
        placeholder="tool, prompt or resource"
        value={item}
        onChange={(e) => setItem(e.target.value)}
      />
      <select
        aria-label="Filter by outcome"
        value={filter.outcome ?? ''}
        onChange={(e) =>
          apply({ ...filter, outcome: (e.target.value || undefined) as LogEntryView['outcome'] | undefined })
        }
      >
        <option value="">Any outcome</option>
        {OUTCOMES.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
      <select
        aria-label="Filter by time"
        value={timeWindow}
        onChange={(e) => {
          setTimeWindow(e.target.value);
          const back = WINDOWS.find(([label]) => label === e.target.value)?.[1];
          apply({ ...filter, since: back === undefined ? undefined : new Date(Date.now() - back).toISOString() });
        }}
      >
        <option value="">Any time</option>
        {WINDOWS.map(([label]) => (
          <option key={label} value={label}>
            {label}
          </option>
        ))}
      </select>
    </div>
  );
}
