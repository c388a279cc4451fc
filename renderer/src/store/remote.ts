/**
 * Remote data as the store keeps it: the last good value, the last error
 * (as data, shown inline), and whether a fetch is running.
 */
import type { CallOutcome } from '../../../shared/contract.js';
import type { ErrorData } from '../../../shared/errors.js';

/** One fetched resource. */
export interface Remote<T> {
  data: T | undefined;
  error: ErrorData | undefined;
  loading: boolean;
}

/** A resource not fetched yet. */
export function idle<T>(): Remote<T> {
  return { data: undefined, error: undefined, loading: false };
}

/**
 * Runs a fetch and writes its progress and outcome through `write`: loading
 * while it runs; then the new data (error cleared) or the error (previous data kept).
 * When `current` says the answer is no longer wanted (what it was asked for
 * changed meanwhile), it is dropped.
 */
export async function fetchRemote<T>(
  read: () => Remote<T>,
  write: (next: Remote<T>) => void,
  run: () => Promise<CallOutcome<T>>,
  current: () => boolean = () => true,
): Promise<void> {
  write({ ...read(), loading: true });
  const outcome = await run();
  if (!current()) return;
  if (outcome.ok) write({ data: outcome.result, error: undefined, loading: false });
  else write({ ...read(), error: outcome.error, loading: false });
}
