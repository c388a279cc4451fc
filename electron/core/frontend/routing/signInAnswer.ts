/**
 * How a caller learns they must sign in to a per-caller server
 * (backends/supervisor/signInRequired.ts): a 2025-era client that declared
 * URL-mode elicitation gets the spec's URLElicitationRequiredError (-32042,
 * MCP 2025-11-25 "Elicitation", URL mode: the request cannot go on until the
 * user completes the elicitation; the client shows the link and may retry);
 * any other client an error whose message and data carry the link.
 */
import { ProtocolError, UrlElicitationRequiredError } from '@modelcontextprotocol/server';
import { ErrorCode } from '../../../../shared/errors.js';
import { signInLinkOf } from '../../backends/supervisor/signInRequired.js';
import type { FrontendChannel } from '../relay/frontendChannel.js';

/** JSON-RPC code of the plain error (the implementation-defined server-error range). */
const SIGN_IN_ERROR_CODE = -32000;

/** Whether the frontend takes URL-mode elicitations (2025-11-25: `elicitation: { url: {} }`). */
function takesUrlElicitation(frontend: FrontendChannel | undefined): boolean {
  const elicitation = frontend?.capabilities?.elicitation as { url?: unknown } | undefined;
  return frontend?.era === 'legacy' && elicitation?.url !== undefined;
}

/** The answer to a sign-in-required error, or the error itself when it is another. */
export function signInAnswer(error: unknown, frontend: FrontendChannel | undefined): unknown {
  const link = signInLinkOf(error);
  if (!link) return error;
  if (takesUrlElicitation(frontend)) {
    // One elicitation per link: the link id is already unguessable, its hash would add nothing.
    const elicitationId = new URL(link.url).searchParams.get('link') ?? link.url;
    return new UrlElicitationRequiredError([{ mode: 'url', message: link.message, url: link.url, elicitationId }]);
  }
  return new ProtocolError(SIGN_IN_ERROR_CODE, link.message, {
    code: ErrorCode.AuthorizationRequired,
    backend: link.backend,
    url: link.url,
  });
}
