/**
 * Gateway mode's scope check inside a frontend server: a tool whose server
 * or own entry requires scopes (catalog/policy/toolScopes.ts) is left out of
 * the caller's tools/list when their token lacks one, and calling it answers
 * a JSON-RPC error naming the scopes (the HTTP layer answers a direct call
 * with 403 and a step-up challenge before it gets here:
 * frontend/http/gateway/gatewayGuard.ts). Without a principal (laptop mode)
 * nothing is checked.
 */
import { ProtocolError, ProtocolErrorCode, type Tool } from '@modelcontextprotocol/server';
import { ErrorCode } from '../../../../shared/errors.js';
import type { FrontendCore } from '../../api/services.js';
import type { Principal } from '../../catalog/policy/principal.js';
import { missingScopes, requiredScopes } from '../../catalog/policy/toolScopes.js';

/** The scopes `principal` lacks for a tool the client knows by `name` (an alias or its exposed name). */
export function missingToolScopes(core: FrontendCore, client: string, principal: Principal, name: string): string[] {
  const policy = core.policy.current;
  const catalog = core.catalog();
  const exposed = core.policy.view(client, catalog).aliases.get(name) ?? name;
  const origin = catalog.toolIndex.get(exposed);
  if (!origin) return [];
  return missingScopes(requiredScopes(policy, origin), principal.scopes);
}

/** `tools` without those `principal` lacks a scope for (meta-tools and unknown names stay). */
export function toolsWithinScopes(
  core: FrontendCore,
  client: string,
  principal: Principal | undefined,
  tools: Tool[],
): Tool[] {
  if (!principal) return tools;
  return tools.filter((tool) => missingToolScopes(core, client, principal, tool.name).length === 0);
}

/** The JSON-RPC error of a call whose token lacks `scopes`. */
export function insufficientScope(name: string, scopes: string[]): ProtocolError {
  return new ProtocolError(
    ProtocolErrorCode.InvalidRequest,
    `Insufficient scope: calling ${name} needs the scope(s) ${scopes.join(' ')}; sign in again asking for them`,
    { code: ErrorCode.InsufficientScope, scopes },
  );
}

/** Throws `insufficientScope` when `principal` lacks a scope `name` needs. */
export function checkToolScopes(
  core: FrontendCore,
  client: string,
  principal: Principal | undefined,
  name: string,
): void {
  if (!principal) return;
  const missing = missingToolScopes(core, client, principal, name);
  if (missing.length > 0) throw insufficientScope(name, missing);
}
