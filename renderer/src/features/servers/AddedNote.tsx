/**
 * How every add route ends, in one sentence: the server was added and, as
 * every new server is, waits in quarantine for the user's review, with the
 * Review button that opens it. The form, Featured, the registry and a
 * bundle show it atop the Servers screen; a pasted snippet beside each
 * server it added.
 */
import { useAppStore } from '../../store/context.js';

/** "Added <id>: waiting for your review" and its Review button. */
export function AddedNote({ id }: { id: string }) {
  const openReview = useAppStore((s) => s.openReview);
  return (
    <div className="note tone-ok row" role="status">
      <span>
        Added <strong>{id}</strong>: waiting for your review.
      </span>
      <button type="button" aria-label={`Review ${id}`} onClick={() => openReview(id)}>
        Review
      </button>
    </div>
  );
}
