/**
 * The pieces every "Try it" form shares: a field's validation message, and
 * the footer with the submit button (busy while the call runs), the call's
 * progress and Cancel button, the server's questions, the error and the result.
 */
import type { ErrorData } from '../../../../shared/errors.js';
import type { TryProgressView, TryResult } from '../../../../shared/model/views.js';
import { ErrorNote } from '../../components/ErrorNote.js';
import { ResultView } from '../../components/ResultView.js';
import { ElicitationDialog } from './ElicitationDialog.js';
import { useOpenResourceLink } from './resourceLinks.js';
import type { TryRunning } from './useTryCall.js';

/** "3 of 5", "3" or "50%": the server's progress in words. */
export function progressText(progress: TryProgressView): string {
  const { total } = progress;
  const amount =
    total === undefined
      ? `${progress.progress}`
      : total === 100
        ? `${Math.round(progress.progress)}%`
        : `${progress.progress} of ${total}`;
  return progress.message ? `${amount}: ${progress.message}` : amount;
}

/** The running call's progress bar (indeterminate until the server reports a total) and Cancel. */
function RunningCall({ running }: { running: TryRunning }) {
  const { progress } = running;
  return (
    <div className="row try-running" role="status" aria-label="Call in progress">
      {progress?.total !== undefined ? (
        <progress aria-label="Progress" value={progress.progress} max={progress.total} />
      ) : (
        <progress aria-label="Progress" />
      )}
      <span className="small muted">{progress ? progressText(progress) : 'Waiting for the server…'}</span>
      <button type="button" onClick={running.cancel} disabled={running.cancelling}>
        {running.cancelling ? 'Cancelling…' : 'Cancel'}
      </button>
    </div>
  );
}

/** Submit button, then what the call gave: an error or a result. */
export function TryFooter(props: {
  busy: boolean;
  label: string;
  busyLabel: string;
  error: ErrorData | undefined;
  errorTitle: string;
  result: TryResult | undefined;
  running?: TryRunning | undefined;
}) {
  const openLink = useOpenResourceLink();
  const [input] = props.running?.inputs ?? [];
  return (
    <>
      <div className="row">
        <button type="submit" className="primary" disabled={props.busy}>
          {props.busy ? props.busyLabel : props.label}
        </button>
      </div>
      {props.running && <RunningCall running={props.running} />}
      {input && <ElicitationDialog key={input.id} input={input} />}
      <ErrorNote error={props.error} title={props.errorTitle} />
      {props.result && <ResultView result={props.result} onOpenLink={openLink} />}
    </>
  );
}
