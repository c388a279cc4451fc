/**
 * The id of the client request being handled, carried through its async work
 * (AsyncLocalStorage), so a log line written anywhere on its path names it.
 * Set only when observability is on; laptop mode never enters a scope.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';

const scope = new AsyncLocalStorage<string>();

/** A new request id: 16 hex digits. */
export function newRequestId(): string {
  return randomBytes(8).toString('hex');
}

/** Runs `run` as the request `requestId`. */
export function inRequest<T>(requestId: string, run: () => T): T {
  return scope.run(requestId, run);
}

/** The id of the request being handled here, if any. */
export function currentRequestId(): string | undefined {
  return scope.getStore();
}
