/**
 * One tool change held for approval (pinning grown into review): what
 * changed, field by field, old and new side by side; its findings; Approve
 * change, or Keep held (it stays hidden from clients; the card folds away
 * until shown again). A new tool held for a high finding says "new tool".
 */
import { useState } from 'react';
import type { PendingChangeView } from '../../../../shared/model/reviewViews.js';
import { ErrorNote } from '../../components/ErrorNote.js';
import { Badge } from '../../components/HealthBadge.js';
import { timeAgo } from '../../components/time.js';
import { useOutcome } from '../../components/useOutcome.js';
import { useAppStore } from '../../store/context.js';
import { FieldDiffView } from './FieldDiffView.js';
import { FindingList } from './FindingList.js';

/** The held change `change` of server `server`. */
export function HeldChange({ server, change }: { server: string; change: PendingChangeView }) {
  const approveChange = useAppStore((s) => s.approveChange);
  const { busy, error, run } = useOutcome();
  const [kept, setKept] = useState(false);
  const isNew = change.approved === undefined;
  return (
    <article className="card" aria-label={`Change of ${change.tool}`}>
      <div className="row spread">
        <strong>
          <span className="mono">{change.tool}</span>{' '}
          <Badge tone={isNew ? 'info' : 'warn'}>{isNew ? 'new tool' : 'changed definition'}</Badge>
        </strong>
        <span className="small muted" title={new Date(change.detectedAt).toLocaleString()}>
          {timeAgo(change.detectedAt)}
        </span>
      </div>
      {kept ? (
        <div className="row">
          <span className="small">Kept held: still hidden from clients.</span>
          <button type="button" onClick={() => setKept(false)}>
            Show again
          </button>
        </div>
      ) : (
        <>
          <p className="small muted">Hidden from clients until you approve it.</p>
          {change.diff.map((diff) => (
            <FieldDiffView key={diff.field} tool={change.tool} diff={diff} isNew={isNew} />
          ))}
          <FindingList name={change.tool} findings={change.findings} texts={change.texts} />
          <ErrorNote error={error} />
          <div className="row" role="group" aria-label={`Decision on ${change.tool}`}>
            <button
              type="button"
              className="primary"
              disabled={busy}
              onClick={() => void run(() => approveChange(server, change.tool))}
            >
              Approve change
            </button>
            <button type="button" disabled={busy} onClick={() => setKept(true)}>
              Keep held
            </button>
          </div>
        </>
      )}
    </article>
  );
}
