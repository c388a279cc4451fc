/**
 * A person (or service) signed in to the gateway: who an access token says
 * the caller is. Gateway mode builds one per request from the token's claims
 * (frontend/http/gateway/tokenVerifier.ts) and carries it beside the client
 * profile through the request path, so policy binding, scope checks, `ask`
 * approvals and the audit log all name the same caller. Later features (a
 * person's own upstream credentials, rate limits, the self-service page) key
 * their state by `principalKey`.
 */

/** The caller of a gateway request, from its access token. */
export interface Principal {
  /** The token's subject (`sub`, or the configured claim): unique per issuer. */
  subject: string;
  email?: string;
  name?: string;
  /** The groups claim, as strings (a missing claim: none). */
  groups: string[];
  /** The scopes the token grants (`scope`, space-separated, or `scp`). */
  scopes: string[];
  /** The issuer that vouched for the subject. */
  issuer: string;
}

/** What the audit log keeps of a principal: never a token or its scopes. */
export interface PrincipalRef {
  subject: string;
  email?: string;
  issuer: string;
}

/** A principal's identity for the audit log. */
export function principalRef(principal: Principal): PrincipalRef {
  return {
    subject: principal.subject,
    ...(principal.email !== undefined ? { email: principal.email } : {}),
    issuer: principal.issuer,
  };
}

/** One key per person across issuers (state held per principal is keyed by it). */
export function principalKey(principal: Pick<Principal, 'issuer' | 'subject'>): string {
  return `${principal.issuer}#${principal.subject}`;
}
