/**
 * The Review screen for one server (issue #25): why it waits (quarantined:
 * new, its launch line changed, or a high-severity finding; changes held),
 * exactly what runs and under which sandbox, the tool changes held with what
 * changed, and every item with the scan's findings. Approve server serves its
 * items (and the changes held for it); Keep quarantined leaves it as it is.
 */
import { ErrorNote } from '../../components/ErrorNote.js';
import { timeAgo } from '../../components/time.js';
import { useOutcome } from '../../components/useOutcome.js';
import { useAppStore, useShown } from '../../store/context.js';
import type { ServerReviewView } from '../../../../shared/model/reviewViews.js';
import { HeldChange } from './HeldChange.js';
import { LaunchLinePanel } from './LaunchLinePanel.js';
import { ReviewItemList } from './ReviewItemList.js';
import { heldWords, REASON_WORDS, scanWords } from './reviewWords.js';

/** The review's state in one sentence. */
export function reviewStateLine(review: ServerReviewView): string {
  if (review.quarantined) {
    const why = review.reason ? REASON_WORDS[review.reason] : 'not approved';
    return `Quarantined (${why}): its tools, prompts and resources are hidden from every client until you approve it.`;
  }
  const approved = review.approvedAt ? `Approved ${timeAgo(review.approvedAt)}` : 'Served';
  return review.pending > 0 ? `${approved}; ${heldWords(review.pending)} until you approve them.` : `${approved}.`;
}

/** Approve server / Keep quarantined, for a quarantined server. */
function ServerDecision({ review }: { review: ServerReviewView }) {
  const approveServer = useAppStore((s) => s.approveServer);
  const setScreen = useAppStore((s) => s.setScreen);
  const { busy, error, run } = useOutcome();
  return (
    <section className="panel stack" aria-label="Decision">
      <ErrorNote error={error} title="Could not approve" />
      <div className="row" role="group" aria-label={`Decision on ${review.server}`}>
        <button
          type="button"
          className="primary"
          disabled={busy}
          onClick={() => void run(() => approveServer(review.server), 'approve')}
        >
          {busy ? 'Approving…' : 'Approve server'}
        </button>
        <button type="button" disabled={busy} onClick={() => setScreen('backends')}>
          Keep quarantined
        </button>
      </div>
      <p className="small muted">
        Approving serves its items to clients now
        {review.changes.length > 0 ? `, with the ${review.changes.length} held below` : ''}. A later change of its
        command, arguments, environment, URL or sandbox quarantines it again.
      </p>
    </section>
  );
}

/** The Review screen. */
export function ReviewScreen() {
  useShown('review');
  const id = useAppStore((s) => s.reviewServer);
  const review = useAppStore((s) => s.review);
  const setScreen = useAppStore((s) => s.setScreen);
  const health = useAppStore((s) => s.backends.data?.find((backend) => backend.health.id === id)?.health);
  const view = review.data?.server === id ? review.data : undefined;
  const held = new Set(view?.changes.map((change) => change.tool));
  return (
    <>
      <header className="screen-head">
        <div>
          <h1>Review {id}</h1>
          {view && (
            <p>
              <span>{reviewStateLine(view)}</span>
              {view.scan && (
                <span className="muted">{` · ${scanWords({ findings: view.scan.findings.length, ...(view.scan.highest ? { highest: view.scan.highest } : {}) })}`}</span>
              )}
            </p>
          )}
        </div>
        <button type="button" onClick={() => setScreen('backends')}>
          Back to Servers
        </button>
      </header>
      <ErrorNote error={review.error} title="Could not load the review" />
      {!view && !review.error && <p className="muted">Loading…</p>}
      {view && (
        <>
          {view.quarantined && <ServerDecision review={view} />}
          <LaunchLinePanel launch={view.launch} approvedLaunch={view.approvedLaunch} sandbox={health?.sandbox} />
          {view.changes.length > 0 && (
            <section className="panel stack" aria-label="Changes held">
              <h2>Changes held ({view.changes.length})</h2>
              {view.changes.map((change) => (
                <HeldChange key={change.tool} server={view.server} change={change} />
              ))}
            </section>
          )}
          <ReviewItemList items={view.items} quarantined={view.quarantined} held={held} />
        </>
      )}
    </>
  );
}
