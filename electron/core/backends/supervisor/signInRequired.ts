/**
 * The error a caller gets from a per-caller backend they have not signed in
 * to (or whose sign-in expired): it carries the caller's own sign-in link, so
 * the frontend can turn it into a URL elicitation or an error that shows it
 * (frontend/routing/protocolErrors.ts signInAnswer). Another caller's token is never used.
 * Before anyone signed in (and with no cached catalog), such a backend
 * publishes one tool, {@link SIGN_IN_TOOL}: calling it routes like any call
 * and so answers with that caller's own link; the first sign-in lists the
 * real catalog in its place. No operator has to sign in first.
 */
import { ErrorCode, SwitchboardError } from '../../../../shared/errors.js';
import type { BackendCatalog } from '../connection/backendRequests.js';

/** The one tool a per-caller backend nobody signed in to yet publishes. */
export const SIGN_IN_TOOL = 'sign_in';

/** The catalog of a per-caller backend before anyone signed in to it: one tool that answers with the caller's link. */
export function signInCatalog(backend: string): BackendCatalog {
  const tool = {
    name: SIGN_IN_TOOL,
    title: `Sign in to ${backend}`,
    description:
      `Answers with your own link to sign in to the "${backend}" server as yourself. ` +
      'Its tools are listed here once someone has signed in.',
    inputSchema: { type: 'object' as const, properties: {} },
    annotations: { readOnlyHint: true, openWorldHint: false },
  };
  return { tools: [tool], resources: [], resourceTemplates: [], prompts: [] };
}

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
