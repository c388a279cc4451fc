/**
 * Which client profile serves a principal in gateway mode: its own entry in
 * `policy.principals` (by subject, then by email), else the first group of
 * `policy.groups`, in config order, that the principal belongs to, else the
 * gateway's `defaultProfile`; with none of those, a profile nobody has, so
 * nothing would be listed and every call refused (policyEngine.ts denies an
 * unknown client): the gateway refuses such a person's requests with
 * unboundMessage instead, which names what to ask the operator for.
 */
import type { Policy } from '../../platform/config/policyConfig.js';
import type { Principal } from './principal.js';

/** The profile ID of a principal no binding names: no config entry can take it (IDs use [A-Za-z0-9_-]). */
export const NO_PROFILE = '(no profile)';

/** How a principal's profile was chosen (for the log and the UI). */
export interface ProfileChoice {
  profile: string;
  by: 'principal' | 'group' | 'default' | 'none';
  /** The principal key or group that matched. */
  match?: string;
}

/** The client profile of `principal`; see the module comment. */
export function profileFor(
  policy: Pick<Policy, 'principals' | 'groups'>,
  principal: Principal,
  defaultProfile: string | undefined,
): ProfileChoice {
  const principals = policy.principals ?? {};
  for (const key of [principal.subject, principal.email]) {
    const bound = key === undefined ? undefined : principals[key];
    if (bound && key !== undefined) return { profile: bound.profile, by: 'principal', match: key };
  }
  const groups = new Set(principal.groups);
  for (const [group, bound] of Object.entries(policy.groups ?? {})) {
    if (groups.has(group)) return { profile: bound.profile, by: 'group', match: group };
  }
  if (defaultProfile !== undefined) return { profile: defaultProfile, by: 'default' };
  return { profile: NO_PROFILE, by: 'none' };
}

/**
 * What a person bound to no profile is told (the gateway's 403, the
 * self-service page): who they are as the gateway sees them, and the three
 * bindings an operator can add.
 */
export function unboundMessage(principal: Pick<Principal, 'subject' | 'email' | 'groups'>): string {
  const who = principal.email ?? principal.subject;
  const groups = principal.groups.length > 0 ? `groups: ${principal.groups.join(', ')}` : 'no groups';
  return (
    `you (${who}; ${groups}) are bound to no profile of this Switchboard gateway, so no server is available to you. ` +
    `Ask its operator to bind you: your email or subject under policy.principals, one of your groups under ` +
    `policy.groups, or a gateway.defaultProfile for everyone`
  );
}
