/**
 * Who made a request, as limits and the audit log see it: the client profile
 * its bearer token belongs to (`local` for the main token) and, in gateway
 * mode, the signed-in person it acts for with their groups. Everything keyed
 * on "the caller" reads it through `callerIdentityOf`, so a principal in the
 * request context reaches limits and the audit log in that one function.
 */
import { LOCAL_CLIENT } from '../../platform/config/policyConfig.js';
import { principalKey, type Principal } from './principal.js';
import { PRINCIPAL_KEY_PREFIX } from '../../platform/config/principalId.js';

/** A signed-in person, as far as limits and the audit log need them (never a token). */
export interface CallerPrincipal {
  /** The token's subject: stable, unique per issuer. */
  subject: string;
  email?: string | undefined;
  groups: string[];
  /** Unique across issuers (principal.ts principalKey); buckets are keyed on it. */
  key?: string | undefined;
}

/** The caller of one request. */
export interface CallerIdentity {
  /** The client profile (`local` for the main token). */
  clientId: string;
  /** The person it acts for (gateway mode only). */
  principal?: CallerPrincipal | undefined;
}

/** What a request's context says about its caller (the router's RouteOptions carry it). */
export interface CallerContext {
  /** The client profile making the request (default: the local user). */
  client?: string | undefined;
  /** Gateway mode: the signed-in person (principal.ts). */
  principal?: Principal | undefined;
}

/** The caller of a request, from its context. */
export function callerIdentityOf(context: CallerContext): CallerIdentity {
  const clientId = context.client ?? LOCAL_CLIENT;
  const person = context.principal;
  if (!person) return { clientId };
  // The subject is unique per issuer only: the bucket key names both (principal.ts principalKey).
  const principal = { subject: person.subject, email: person.email, groups: person.groups, key: principalKey(person) };
  return { clientId, principal };
}

/** The key of a caller's own buckets: the person when there is one, else the client profile. */
export function callerKey(caller: CallerIdentity): string {
  return caller.principal
    ? `${PRINCIPAL_KEY_PREFIX}${caller.principal.key ?? caller.principal.subject}`
    : `client:${caller.clientId}`;
}
