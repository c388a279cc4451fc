/**
 * Tools whose definition changed since it was approved: old and new side by
 * side, withheld until approved.
 */
import { ErrorNote } from '../../components/ErrorNote.js';
import { timeAgo } from '../../components/time.js';
import { useOutcome } from '../../components/useOutcome.js';
import { useAppStore } from '../../store/context.js';

/** The changed definitions (nothing when none). */
export function PinChangesPanel() {
  const pins = useAppStore((s) => s.pins);
  const approve = useAppStore((s) => s.approvePin);
  const { busy, error, run } = useOutcome();
  const list = pins.data ?? [];
  if (list.length === 0 && !pins.error) return null;
  return (
    <section className="panel" aria-label="Changed tool definitions">
      <h2>Changed tool definitions ({list.length})</h2>
      <p className="muted small">These tools are withheld from clients until you approve the new definition.</p>
      <ErrorNote error={pins.error ?? error} />
      {list.map((change) => (
        <article key={`${change.backend}/${change.tool}`} className="card" aria-label={`Change of ${change.tool}`}>
          <div className="row spread">
            <strong>
              {change.backend} / <span className="mono">{change.tool}</span>
            </strong>
            <span className="small muted">{timeAgo(change.detectedAt)}</span>
          </div>
          <div className="diff">
            <div>
              <div className="small muted">Approved</div>
              <pre>{JSON.stringify(change.pinned, null, 2)}</pre>
            </div>
            <div>
              <div className="small muted">Now offered</div>
              <pre>{JSON.stringify(change.offered, null, 2)}</pre>
            </div>
          </div>
          <div className="row">
            <button
              type="button"
              className="primary"
              disabled={busy}
              onClick={() => void run(() => approve(change.backend, change.tool))}
            >
              Approve new definition
            </button>
          </div>
        </article>
      ))}
    </section>
  );
}
