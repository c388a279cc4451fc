/**
 * Who makes a request, as far as upstream credentials care: the client
 * profile the bearer token names today, and the signed-in person (the
 * principal) in gateway mode. `callerKey` is the one string per-caller state
 * is keyed on (upstream tokens, upstream connections): the principal's
 * subject when there is one, so a person is the same caller from every client
 * app, else the client profile.
 */

/** The caller of one request. */
export interface CallerIdentity {
  clientId: string;
  principal?: { subject: string; email?: string; groups: string[] };
}

/** The key per-caller state is held under: `principal:<subject>` or `client:<clientId>`. */
export function callerKey(identity: CallerIdentity): string {
  return identity.principal ? `principal:${identity.principal.subject}` : `client:${identity.clientId}`;
}
