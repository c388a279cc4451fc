/**
 * A verified token's claims as a Principal: the subject, email, name and
 * groups under the configured claim names, the scopes (`scope`, space
 * separated, or `scp` as a list or a string) and the issuer. A token without
 * a subject names nobody and is refused.
 */
import type { GatewayConfig } from '../../../platform/config/gatewayConfig.js';
import type { Principal } from '../../../catalog/policy/principal.js';

type Claims = Record<string, unknown>;

/** A claim as a list of strings: an array's strings, or a string split on spaces. */
function stringList(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter((item): item is string => typeof item === 'string');
  if (typeof value === 'string') return value.split(/\s+/).filter(Boolean);
  return [];
}

function stringClaim(claims: Claims, name: string): string | undefined {
  const value = claims[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The principal of verified `claims` from `issuer`, or undefined when they name no subject. */
export function principalOf(claims: Claims, issuer: string, names: GatewayConfig['claims']): Principal | undefined {
  const subject = stringClaim(claims, names.subject);
  if (subject === undefined) return undefined;
  const email = stringClaim(claims, names.email);
  const name = stringClaim(claims, names.name);
  return {
    subject,
    ...(email !== undefined ? { email } : {}),
    ...(name !== undefined ? { name } : {}),
    groups: stringList(claims[names.groups]),
    scopes: stringList(claims['scope'] ?? claims['scp']),
    issuer,
  };
}
