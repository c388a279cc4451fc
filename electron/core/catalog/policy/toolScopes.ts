/**
 * Scopes per server and per tool (gateway mode): `policy.backends.<id>.scopes`
 * applies to every tool of the server, `policy.backends.<id>.toolScopes.<tool>`
 * adds more for one tool (original name). A token that lacks one does not
 * list the tool, and its call is answered 403 `insufficient_scope` naming
 * what is missing, so a client can ask for it (step-up authorization).
 */
import type { Policy } from '../../platform/config/policyConfig.js';
import type { ItemOrigin } from '../catalog.js';

/** The scopes a tool requires: its server's, then its own, each once. */
export function requiredScopes(policy: Pick<Policy, 'backends'>, origin: ItemOrigin): string[] {
  const backend = policy.backends[origin.backendId];
  if (!backend) return [];
  const own = backend.toolScopes?.[origin.original] ?? [];
  return [...new Set([...(backend.scopes ?? []), ...own])];
}

/** The required scopes a token's `granted` scopes do not hold. */
export function missingScopes(required: readonly string[], granted: readonly string[]): string[] {
  if (required.length === 0) return [];
  const have = new Set(granted);
  return required.filter((scope) => !have.has(scope));
}
