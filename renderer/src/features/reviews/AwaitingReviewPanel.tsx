/**
 * The servers awaiting review (reviews.list), at the top of the Servers
 * screen: each quarantined server or server with changes held, why, its
 * scan's summary, and a button to its Review screen, ordered and coloured by
 * the scan's highest severity (high first). Nothing when none waits.
 */
import { ErrorNote } from '../../components/ErrorNote.js';
import { useAppStore } from '../../store/context.js';
import { awaitsReview, heldWords, REASON_WORDS, scanTone, scanWords, severityRank } from './reviewWords.js';

/** The panel. */
export function AwaitingReviewPanel() {
  const reviews = useAppStore((s) => s.reviews);
  const openReview = useAppStore((s) => s.openReview);
  const waiting = (reviews.data ?? [])
    .filter(awaitsReview)
    .sort((a, b) => severityRank(a.scan?.highest) - severityRank(b.scan?.highest));
  if (waiting.length === 0) return <ErrorNote error={reviews.error} title="Could not load reviews" />;
  return (
    <section className="panel" aria-label="Awaiting review">
      <h2>Awaiting review ({waiting.length})</h2>
      <ErrorNote error={reviews.error} title="Could not load reviews" />
      <ul className="stack">
        {waiting.map((summary) => (
          <li key={summary.server} className={`row${summary.scan ? ` tone-border-${scanTone(summary.scan)}` : ''}`}>
            <strong>{summary.server}</strong>
            <span className="small">
              {[
                summary.quarantined && `quarantined${summary.reason ? `: ${REASON_WORDS[summary.reason]}` : ''}`,
                summary.pending > 0 && heldWords(summary.pending),
                summary.scan && scanWords(summary.scan),
              ]
                .filter(Boolean)
                .join(' · ')}
            </span>
            <button type="button" onClick={() => openReview(summary.server)} aria-label={`Review ${summary.server}`}>
              Review
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
