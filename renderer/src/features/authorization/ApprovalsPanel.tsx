/**
 * Tool calls waiting for the user (rule `ask`): approve once, always, or deny.
 */
import { ErrorNote } from '../../components/ErrorNote.js';
import { timeAgo } from '../../components/time.js';
import { useOutcome } from '../../components/useOutcome.js';
import { useAppStore } from '../../store/context.js';

/** The pending approvals (nothing when none wait). */
export function ApprovalsPanel() {
  const approvals = useAppStore((s) => s.approvals);
  const resolve = useAppStore((s) => s.resolveApproval);
  const { busy, error, run } = useOutcome();
  const list = approvals.data ?? [];
  if (list.length === 0 && !approvals.error) return null;
  const decide = (id: string, decision: 'once' | 'always' | 'deny') => run(() => resolve(id, decision));
  return (
    <section className="panel" aria-label="Waiting for approval">
      <h2>Waiting for approval ({list.length})</h2>
      <ErrorNote error={approvals.error ?? error} />
      <div className="stack">
        {list.map((approval) => (
          <article key={approval.id} className="card" aria-label={`Approval for ${approval.exposed}`}>
            <div className="row spread">
              <strong className="mono">{approval.exposed}</strong>
              <span className="small muted">{timeAgo(approval.requestedAt)}</span>
            </div>
            <div className="small">
              <b>{approval.client}</b> wants to call <code>{approval.tool}</code> on <b>{approval.backend}</b>
            </div>
            {approval.arguments && <pre className="stderr">{JSON.stringify(approval.arguments, null, 2)}</pre>}
            <div className="row">
              <button
                type="button"
                className="primary"
                disabled={busy}
                onClick={() => void decide(approval.id, 'once')}
              >
                Approve once
              </button>
              <button type="button" disabled={busy} onClick={() => void decide(approval.id, 'always')}>
                Always allow
              </button>
              <button type="button" className="danger" disabled={busy} onClick={() => void decide(approval.id, 'deny')}>
                Deny
              </button>
            </div>
          </article>
        ))}
      </div>
    </section>
  );
}
