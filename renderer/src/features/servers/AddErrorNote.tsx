/**
 * Why a server was not added. A runtime that is not installed (npx, uvx,
 * dnx, docker) comes with the link to get it; the form's button then says
 * Retry, for after installing it.
 */
import type { ErrorData } from '../../../../shared/errors.js';
import { ErrorDetails, ErrorNote, errorSentence } from '../../components/ErrorNote.js';

/** The install link of a missing runtime, when `error` is that. */
export function missingRuntimeOf(error: ErrorData | undefined): { url: string; name: string } | undefined {
  const url = error?.code === 'runtime_missing' ? error.data?.['installUrl'] : undefined;
  if (typeof url !== 'string') return undefined;
  const name = error?.data?.['runtime'];
  return { url, name: typeof name === 'string' ? name : String(error?.data?.['command'] ?? 'it') };
}

/** The error of an add form (nothing without one). */
export function AddErrorNote({ error, title }: { error: ErrorData | undefined; title: string }) {
  const runtime = missingRuntimeOf(error);
  if (!error || !runtime) return <ErrorNote error={error} title={title} />;
  return (
    <div className="note tone-bad" role="alert">
      <strong>{title}:</strong> {errorSentence(error)}{' '}
      <a href={runtime.url} target="_blank" rel="noreferrer">
        Install {runtime.name}
      </a>
      <ErrorDetails error={error} />
    </div>
  );
}
