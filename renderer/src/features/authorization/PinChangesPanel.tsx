/**
 * Tools whose definition changed since it was approved: old and new side by
 * side, quarantined until approved, each with a Review link (the scan's
 * findings are on the Review screen). A tool held for the scan's findings (no
 * approved definition) or of a quarantined server is decided only there,
 * where its findings are shown: no approval is offered here without them.
 */
import { ErrorNote } from '../../components/ErrorNote.js';
import { timeAgo } from '../../components/time.js';
import { useOutcome } from '../../components/useOutcome.js';
import { useAppStore } from '../../store/context.js';

/** The changed definitions (nothing when none). */
export function PinChangesPanel() {
  const pins = useAppStore((s) => s.pins);
  const approve = useAppStore((s) => s.approvePin);
  const openReview = useAppStore((s) => s.openReview);
  const reviews = useAppStore((s) => s.reviews.data);
  const quarantined = (server: string) => reviews?.some((review) => review.server === server && review.quarantined);
  const { busy, error, run } = useOutcome();
  const list = pins.data ?? [];
  if (list.length === 0 && !pins.error) return null;
  return (
    <section className="panel" aria-label="Changed tool definitions">
      <h2>Changed tool definitions ({list.length})</h2>
      <p className="muted small">
        These tools are quarantined: hidden from clients until you approve the new definition.
      </p>
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
            {change.pinned !== undefined && !quarantined(change.backend) && (
              <button
                type="button"
                className="primary"
                disabled={busy}
                onClick={() => void run(() => approve(change.backend, change.tool))}
              >
                Approve new definition
              </button>
            )}
            <button type="button" aria-label={`Review ${change.backend}`} onClick={() => openReview(change.backend)}>
              Review
            </button>
            {(change.pinned === undefined || quarantined(change.backend)) && (
              <span className="small muted">
                quarantined: decide on the Review screen, where the scan&apos;s findings are shown
              </span>
            )}
          </div>
        </article>
      ))}
    </section>
  );
}
