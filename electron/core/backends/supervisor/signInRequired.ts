/**
 * The error a caller gets from a per-caller backend they have not signed in
 * to (or whose sign-in expired): it carries the caller's own sign-in link, so
 * the frontend can turn it into a URL elicitation or an error that shows it
 * (frontend/routing/signInAnswer.ts). Another caller's token is never used.
 */
import { ErrorCode, SwitchboardError } from '../../../../shared/errors.js';

/** Marks the data of a sign-in-required error. */
export const SIGN_IN_REQUIRED = 'sign_in_required';

/** The caller must sign in to `backend` at `url` (undefined: serve's HTTP port is not listening). */
export function signInRequired(backend: string, url: string | undefined): SwitchboardError {
  const where = url
    ? `open ${url} to sign in`
    : 'sign in through the link serve gives on its HTTP port (run `mcp-switchboard serve`)';
  return new SwitchboardError(
    ErrorCode.AuthorizationRequired,
    `"${backend}" needs you to sign in to it as yourself: ${where}`,
    { backend, reason: SIGN_IN_REQUIRED, ...(url ? { url } : {}) },
  );
}

/** The sign-in link an error carries, when it is a sign-in-required error. */
export function signInLinkOf(error: unknown): { backend: string; url: string; message: string } | undefined {
  if (!(error instanceof SwitchboardError) || error.data?.['reason'] !== SIGN_IN_REQUIRED) return undefined;
  const url = error.data['url'];
  const backend = error.data['backend'];
  return typeof url === 'string' && typeof backend === 'string' ? { backend, url, message: error.message } : undefined;
}
