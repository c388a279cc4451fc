/**
 * One call of the request log in full: when, who, what, how it ended and how
 * long it took, the rule that decided it, and its arguments and result where the server's policy
 * captures them.
 */
import { decisionText } from '../../../../shared/model/logViews.js';
import type { LogEntryView } from '../../../../shared/model/views.js';

/** The detail panel of `entry`. */
export function LogDetail({ entry, onClose }: { entry: LogEntryView; onClose: () => void }) {
  const rows: [string, string][] = [
    ['Time', new Date(entry.time).toLocaleString()],
    ['Client', entry.client],
    ...(entry.principal
      ? [['Person', [entry.principal.email, entry.principal.subject].filter(Boolean).join(', ')] as [string, string]]
      : []),
    ['Server', entry.backend],
    ['Request', `${entry.kind} ${entry.item}`],
    ['Outcome', entry.outcome + (entry.errorCode !== undefined ? ` (${entry.errorCode})` : '')],
    ['Duration', `${Math.round(entry.durationMs)} ms`],
  ];
  if (entry.decision) rows.push(['Decided by', decisionText(entry.decision)]);
  if (entry.detail) rows.push(['Detail', entry.detail]);
  return (
    <section className="panel" aria-label="Call detail">
      <div className="row spread">
        <h2>
          <span className="mono">{entry.item}</span>
        </h2>
        <button type="button" onClick={onClose}>
          Close detail
        </button>
      </div>
      <table className="table">
        <tbody>
          {rows.map(([label, value]) => (
            <tr key={label}>
              <th scope="row">{label}</th>
              <td>{value}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {entry.arguments !== undefined || entry.result !== undefined ? (
        <>
          <h3>Arguments</h3>
          <pre className="stderr">{JSON.stringify(entry.arguments ?? null, null, 2)}</pre>
          <h3>Result</h3>
          <pre className="stderr">{JSON.stringify(entry.result ?? null, null, 2)}</pre>
        </>
      ) : (
        <p className="small muted">
          Arguments and results are kept only for servers whose policy captures them (<code>capture: true</code>).
        </p>
      )}
    </section>
  );
}
