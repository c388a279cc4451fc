/**
 * Recognizing, among whatever a backend request throws, the failures that
 * only the user's authorization can fix: a 401 we could not answer (MCP
 * authorization spec, "Authorization flow steps"), or a 403
 * insufficient_scope (spec "Scope challenge handling"; RFC 6750 §3.1).
 */
import { InsufficientScopeError, SdkErrorCode, SdkHttpError, UnauthorizedError } from '@modelcontextprotocol/client';
import { ErrorCode, SwitchboardError } from '../../../../shared/errors.js';
import { AuthorizationRequiredError } from './vaultProvider.js';

/** Why a request needs the user's authorization. */
export interface AuthorizationProblem {
  reason: string;
  /** The scope the server asked for (step-up). */
  scope?: string;
  /** A 403 insufficient_scope: the current grant still serves other requests. */
  stepUp: boolean;
}

/** The authorization problem behind `error` (or its causes), if that is what it is. */
export function authorizationProblem(error: unknown): AuthorizationProblem | undefined {
  for (let current = error, depth = 0; current !== undefined && current !== null && depth < 5; depth++) {
    if (current instanceof AuthorizationRequiredError) {
      return current.scope === undefined
        ? { reason: current.reason, stepUp: false }
        : { reason: current.reason, scope: current.scope, stepUp: false };
    }
    if (InsufficientScopeError.isInstance(current)) {
      const scope = current.requiredScope;
      const reason = `the server asks for scope "${scope ?? '(unspecified)'}" (step-up authorization)`;
      return scope === undefined ? { reason, stepUp: true } : { reason, scope, stepUp: true };
    }
    if (UnauthorizedError.isInstance(current)) return { reason: 'the server requires authorization', stepUp: false };
    if (SdkHttpError.isInstance(current) && current.code === SdkErrorCode.ClientHttpAuthentication) {
      return { reason: 'the server refused the access token even after a refresh', stepUp: false };
    }
    if (current instanceof SwitchboardError && current.code === ErrorCode.AuthorizationRequired) {
      return { reason: String(current.data?.['reason'] ?? current.message), stepUp: false };
    }
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** The error a request or connection fails with when the backend needs authorization. */
export function authorizationRequired(backendId: string, problem: AuthorizationProblem): SwitchboardError {
  const data: Record<string, unknown> = { backend: backendId, reason: problem.reason };
  if (problem.scope !== undefined) data['scope'] = problem.scope;
  return new SwitchboardError(
    ErrorCode.AuthorizationRequired,
    `backend "${backendId}" needs authorization: ${problem.reason} (run \`mcp-switchboard authorize ${backendId}\`)`,
    data,
  );
}
