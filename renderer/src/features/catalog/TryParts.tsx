/**
 * The pieces every "Try it" form shares: a field's validation message, and
 * the footer with the submit button (busy while the call runs), the error
 * and the result.
 */
import type { ErrorData } from '../../../../shared/errors.js';
import type { TryResult } from '../../../../shared/model/views.js';
import { ErrorNote } from '../../components/ErrorNote.js';
import { ResultView } from '../../components/ResultView.js';

/** A field's validation message, announced when it appears. */
export function FieldError({ name, message }: { name: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <span className="field-error" role="alert">
      {name} {message}
    </span>
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
}) {
  return (
    <>
      <div className="row">
        <button type="submit" className="primary" disabled={props.busy}>
          {props.busy ? props.busyLabel : props.label}
        </button>
      </div>
      <ErrorNote error={props.error} title={props.errorTitle} />
      {props.result && <ResultView result={props.result} />}
    </>
  );
}
