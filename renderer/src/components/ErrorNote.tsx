/**
 * An error shown where it happened, in the UI's own terms: the message, and
 * when the error carries its fix as data, the control on screen that applies
 * it (the CLI names its flag instead). The code and the error's data are
 * for whoever reports a bug: only inside the Details element.
 */
import { ErrorFix, fixOf, type ErrorData } from '../../../shared/errors.js';

/** Each fix, said as the control that applies it. */
const FIX_WORDS: Record<ErrorFix, string> = {
  [ErrorFix.ReplaceOrRename]: 'tick “Replace a profile of the same ID”, or enter another ID in “Import as”',
  [ErrorFix.RunUnsandboxed]: 'to add it unsandboxed, tick “Run it unsandboxed, with your rights”',
  [ErrorFix.GiveValue]: 'fill in its field',
};

/** `error`'s sentence as the UI says it: its message, then its fix's control. */
export function errorSentence(error: ErrorData): string {
  const fix = fixOf(error);
  return fix ? `${error.message}: ${FIX_WORDS[fix]}.` : error.message;
}

/** The code and the data of `error`, folded away. */
export function ErrorDetails({ error }: { error: ErrorData }) {
  const { fix: _fix, ...data } = error.data ?? {};
  return (
    <details>
      <summary>Details</summary>
      <pre>
        {JSON.stringify(Object.keys(data).length > 0 ? { code: error.code, ...data } : { code: error.code }, null, 2)}
      </pre>
    </details>
  );
}

/** The inline error for `error` (renders nothing without one). */
export function ErrorNote({ error, title }: { error: ErrorData | undefined; title?: string }) {
  if (!error) return null;
  return (
    <div className="note tone-bad" role="alert">
      <strong>{title ?? 'Failed'}:</strong> {errorSentence(error)}
      <ErrorDetails error={error} />
    </div>
  );
}
