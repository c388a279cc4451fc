/**
 * The Review screen for one server (issue #25): why it waits (quarantined:
 * new, its launch line changed, a high-severity finding, or put back under
 * review; changes held), exactly what runs and under which sandbox, the tool
 * changes held with what changed, and every item with the scan's findings,
 * worst first. The decision comes after that evidence (issue #37): Approve
 * server serves its items (and the changes held for it), past a high-severity
 * finding only once a dialog naming those findings is confirmed; Approve,
 * holding flagged tools serves the rest and keeps each flagged tool held for
 * its own Approve change; Keep quarantined leaves it as it is; an approved
 * server offers Quarantine again.
 */
import { useState } from 'react';
import { ConfirmDialog } from '../../components/Dialog.js';
import { ErrorNote } from '../../components/ErrorNote.js';
import { timeAgo } from '../../components/time.js';
import { useOutcome } from '../../components/useOutcome.js';
import { useAppStore, useShown } from '../../store/context.js';
import type { ServerReviewView } from '../../../../shared/model/reviewViews.js';
import type { ScanFinding } from '../../../../shared/model/scanViews.js';
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

/** The high-severity findings of a review, which an approval must confirm. */
function highFindings(review: ServerReviewView): ScanFinding[] {
  return (review.scan?.findings ?? []).filter((finding) => finding.severity === 'high');
}

/** The tools with a finding of medium or higher: what Approve, holding flagged tools keeps held. */
function flaggedTools(review: ServerReviewView): string[] {
  const flagged = (review.scan?.findings ?? []).filter(
    (finding) => finding.item.kind === 'tool' && finding.severity !== 'low',
  );
  return [...new Set(flagged.map((finding) => finding.item.name))];
}

/** The dialog that names the high-severity findings an approval goes past. */
function ConfirmHighDialog({
  review,
  findings,
  onConfirm,
  onCancel,
}: {
  review: ServerReviewView;
  findings: readonly ScanFinding[];
  onConfirm: () => void;
  onCancel: () => void;
}) {
  return (
    <ConfirmDialog
      title={`Approve ${review.server} despite ${findings.length} high-severity ${findings.length === 1 ? 'finding' : 'findings'}?`}
      message={
        <div className="stack">
          <p>The scan found these in what {review.server} tells the model. Approve it only if you trust it.</p>
          <ul aria-label="High-severity findings" className="stack">
            {findings.map((finding, at) => (
              <li key={`${at} ${finding.rule} ${finding.item.name}`}>
                <strong>{finding.rule}</strong> in {finding.item.kind} <code>{finding.item.name}</code>:{' '}
                <q>{finding.excerpt}</q>
              </li>
            ))}
          </ul>
        </div>
      }
      confirmLabel="Approve anyway"
      onConfirm={onConfirm}
      onCancel={onCancel}
    />
  );
}

/** Approve server / Keep quarantined, for a quarantined server (after the evidence). */
function ServerDecision({ review }: { review: ServerReviewView }) {
  const approveServer = useAppStore((s) => s.approveServer);
  const setScreen = useAppStore((s) => s.setScreen);
  const { busy, error, run } = useOutcome();
  // The approval a dialog confirms: of the whole server, or holding its flagged tools.
  const [confirming, setConfirming] = useState<'all' | 'hold' | undefined>();
  const high = highFindings(review);
  const flagged = flaggedTools(review);
  // High findings left once the flagged tools are held (a prompt's or a resource's): holding still asks to confirm them.
  const highUnheld = high.filter((finding) => finding.item.kind !== 'tool');
  const approve = (options: { confirmHigh?: boolean; holdFlagged?: boolean }) => {
    setConfirming(undefined);
    void run(() => approveServer(review.server, options), 'approve').then((outcome) => {
      // Refused for a finding this screen had not seen yet: the dialog names it.
      if (outcome && !outcome.ok && outcome.error.code === 'confirmation_required')
        setConfirming(options.holdFlagged ? 'hold' : 'all');
    });
  };
  return (
    <section className="panel stack" aria-label="Decision">
      <h2>Decision</h2>
      <ErrorNote error={error?.code === 'confirmation_required' ? undefined : error} title="Could not approve" />
      {high.length > 0 && (
        <p className="note tone-bad">
          The scan found {high.length} high-severity {high.length === 1 ? 'finding' : 'findings'} above: approving asks
          you to confirm them.
        </p>
      )}
      <div className="row" role="group" aria-label={`Decision on ${review.server}`}>
        <button
          type="button"
          className="primary"
          disabled={busy}
          onClick={() => (high.length > 0 ? setConfirming('all') : approve({}))}
        >
          {busy ? 'Approving…' : 'Approve server'}
        </button>
        {flagged.length > 0 && (
          <button
            type="button"
            disabled={busy}
            title={`Serves the server, but keeps ${flagged.join(', ')} held until you approve each one`}
            onClick={() => (highUnheld.length > 0 ? setConfirming('hold') : approve({ holdFlagged: true }))}
          >
            Approve, holding {flagged.length} flagged {flagged.length === 1 ? 'tool' : 'tools'}
          </button>
        )}
        <button type="button" disabled={busy} onClick={() => setScreen('backends')}>
          Keep quarantined
        </button>
      </div>
      <p className="small muted">
        Approving serves its items to clients now
        {review.changes.length > 0 ? `, with the ${review.changes.length} held above` : ''}, and starts it under its own
        sandbox setting. A later change of its command, arguments, environment, URL or sandbox quarantines it again.
        {flagged.length > 0 &&
          ` Approve, holding flagged tools serves the rest and keeps the tools the scan flagged (medium or higher) held, each with its own Approve change.`}
      </p>
      {confirming && (
        <ConfirmHighDialog
          review={review}
          findings={confirming === 'hold' ? highUnheld : high}
          onConfirm={() => approve({ confirmHigh: true, holdFlagged: confirming === 'hold' })}
          onCancel={() => setConfirming(undefined)}
        />
      )}
    </section>
  );
}

/** Quarantine again, for an approved server. */
function QuarantineAgain({ review }: { review: ServerReviewView }) {
  const quarantineServer = useAppStore((s) => s.quarantineServer);
  const { busy, error, run } = useOutcome();
  return (
    <section className="panel stack" aria-label="Decision">
      <h2>Decision</h2>
      <ErrorNote error={error} title="Could not quarantine" />
      <div className="row" role="group" aria-label={`Decision on ${review.server}`}>
        <button
          type="button"
          className="danger"
          disabled={busy}
          onClick={() => void run(() => quarantineServer(review.server), 'quarantine')}
        >
          {busy ? 'Quarantining…' : 'Quarantine again'}
        </button>
      </div>
      <p className="small muted">
        Hides its tools, prompts and resources from every client and runs it under the strict sandbox until you approve
        it again.
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
          {view.quarantined ? <ServerDecision review={view} /> : view.approvedAt && <QuarantineAgain review={view} />}
        </>
      )}
    </>
  );
}
