/**
 * How failures cross the wire: local errors (string codes) become JSON-RPC
 * protocol errors; an unknown, removed or hidden item is invalid params
 * (-32602), as the spec asks for unknown tools, prompts and resources; a
 * caller who must sign in to a per-caller server learns it with the link.
 */
import { ProtocolError, ProtocolErrorCode, UrlElicitationRequiredError } from '@modelcontextprotocol/server';
import { ErrorCode, SwitchboardError } from '../../../../shared/errors.js';
import { signInLinkOf } from '../../backends/supervisor/signInRequired.js';
import type { FrontendChannel } from '../relay/frontendChannel.js';

/**
 * JSON-RPC codes for local failures. -32001 is the conventional request-timeout
 * code (the v1 SDK's `RequestTimeout`); -32000 is the implementation-defined
 * server-error range for "backend busy / unavailable". `data.code` carries our
 * local code so clients and the UI can tell them apart.
 */
const WIRE_CODE: Partial<Record<ErrorCode, number>> = {
  [ErrorCode.Timeout]: -32001,
  [ErrorCode.QueueFull]: -32000,
  [ErrorCode.BackendUnavailable]: -32000,
  [ErrorCode.BackendRemoved]: -32000,
  [ErrorCode.TaskLimit]: -32000,
  [ErrorCode.RateLimited]: -32000,
};

/** Turns a local error into the protocol error a frontend receives; protocol errors pass through. */
export function toProtocolError(error: unknown): unknown {
  if (error instanceof SwitchboardError) {
    return new ProtocolError(WIRE_CODE[error.code] ?? ProtocolErrorCode.InternalError, error.message, {
      code: error.code,
      ...error.data,
    });
  }
  return error;
}

/** The answer to an unknown (or hidden) item. */
export function unknownItem(kind: string, name: string): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown ${kind}: ${name}`);
}

/**
 * The answer to an item withheld for review that the client's rules would
 * allow (a quarantined server's, or a tool whose changed definition is held):
 * invalid params like an unknown item, but saying why and where to review it,
 * in the same words as the UI, `doctor` and the CLI.
 */
export function withheldItem(kind: string, name: string, server: string, why: 'quarantined' | 'held'): ProtocolError {
  const state =
    why === 'quarantined'
      ? `is quarantined: its server "${server}" waits for review`
      : `is held for review: its definition changed since it was approved`;
  const where = `review it in Switchboard (Servers, then Review on "${server}") or run: mcp-switchboard review ${server}`;
  const capital = kind.charAt(0).toUpperCase() + kind.slice(1);
  return new ProtocolError(ProtocolErrorCode.InvalidParams, `${capital} ${name} ${state}; ${where}`, {
    code: ErrorCode.PolicyDenied,
    reason: why,
    server,
  });
}

/** JSON-RPC code of the plain sign-in error (the implementation-defined server-error range). */
const SIGN_IN_ERROR_CODE = -32000;

/** Whether the frontend takes URL-mode elicitations (2025-11-25: `elicitation: { url: {} }`). */
function takesUrlElicitation(frontend: FrontendChannel | undefined): boolean {
  const elicitation = frontend?.capabilities?.elicitation as { url?: unknown } | undefined;
  return frontend?.era === 'legacy' && elicitation?.url !== undefined;
}

/**
 * The answer to a sign-in-required error (backends/supervisor/signInRequired.ts), or the error itself
 * when it is another: a 2025-era client that declared URL-mode elicitation gets the spec's
 * URLElicitationRequiredError (-32042, MCP 2025-11-25 "Elicitation", URL mode: the request cannot go on
 * until the user completes the elicitation; the client shows the link and may retry); any other client
 * an error whose message and data carry the link.
 */
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
