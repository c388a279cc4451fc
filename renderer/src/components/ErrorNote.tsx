/**
 * An error shown where it happened, as data: message, code, details on demand.
 */
import type { ErrorData } from '../../../shared/errors.js';

/** The inline error for `error` (renders nothing without one). */
export function ErrorNote({ error, title }: { error: ErrorData | undefined; title?: string }) {
  if (!error) return null;
  const details = error.data && Object.keys(error.data).length > 0 ? JSON.stringify(error.data, null, 2) : undefined;
  return (
    <div className="note tone-bad" role="alert">
      <strong>{title ?? 'Failed'}:</strong> {error.message} <span className="chip">{error.code}</span>
      {details && (
        <details>
          <summary>Details</summary>
          <pre>{details}</pre>
        </details>
      )}
    </div>
  );
}
