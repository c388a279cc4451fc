/**
 * A server's review state on its card: "Quarantined — review" with the
 * reason, the changes held, and the scan's summary (plain for no findings
 * or only low ones), each a button to its Review screen. The server's
 * entry in reviews.list is read first (re-fetched at every catalog and pin
 * change, which health is not), health until that list has it.
 */
import type { BackendHealth } from '../../../../shared/model/health.js';
import { useAppStore } from '../../store/context.js';
import { heldWords, quarantineTone, REASON_WORDS, scanTone, scanWords } from './reviewWords.js';

/** The review line of the card of the server `health` describes (nothing when there is nothing to say). */
export function ReviewBadges({ health }: { health: BackendHealth }) {
  const openReview = useAppStore((s) => s.openReview);
  const listed = useAppStore((s) => s.reviews.data?.find((summary) => summary.server === health.id));
  const state = listed ?? health.review;
  const quarantined = state?.quarantined ?? health.quarantined ?? false;
  const reason = state?.reason;
  const pending = state?.pending ?? 0;
  const scan = listed ? listed.scan : health.scan;
  if (!quarantined && pending === 0 && !scan) return null;
  return (
    <div className="row" role="group" aria-label={`Review of ${health.id}`}>
      {quarantined && (
        <>
          <button
            type="button"
            className={`badge badge-button tone-${quarantineTone(reason)}`}
            onClick={() => openReview(health.id)}
          >
            Quarantined — review
          </button>
          {reason && <span className="small">{REASON_WORDS[reason]}</span>}
        </>
      )}
      {pending > 0 && (
        <button type="button" className="badge badge-button tone-warn" onClick={() => openReview(health.id)}>
          {heldWords(pending)} — review
        </button>
      )}
      {scan && (
        <button
          type="button"
          className={`badge badge-button tone-${scanTone(scan)}`}
          title={`Scanned ${new Date(scan.scannedAt).toLocaleString()}: open the review`}
          onClick={() => openReview(health.id)}
        >
          {scanWords(scan)}
        </button>
      )}
    </div>
  );
}
