/**
 * One caller's connection to a server whose credentials are per caller
 * (`credentials: "per-caller"`), as the contract, the CLI and the UI show it:
 * whether they are signed in, until when, with which scope, and, when they
 * are not, their own sign-in link. Never a token.
 */

/** A caller's connection to one per-caller server. */
export interface ConnectionView {
  server: string;
  connected: boolean;
  /** When the access token expires (ISO 8601); refreshed before then when there is a refresh token. */
  expiresAt?: string;
  scope?: string;
  /** Not connected: the caller's one-time sign-in link (served by `serve`'s HTTP port). */
  signInUrl?: string;
}

/** One person's (or client's) connection to a per-caller server, as an administrator sees it: never a token. */
export interface CallerConnectionView {
  server: string;
  /** The caller's key (`principal:<issuer>#<subject>`, or `client:<profile>`): what revoking names. */
  caller: string;
  /** Who it is: their email, else subject, at sign-in (else read from the key). */
  person: string;
  /** When they signed in (ISO 8601; absent for a sign-in recorded before this was kept). */
  since?: string;
  /** When the access token expires (ISO 8601); refreshed before then when there is a refresh token. */
  expiresAt?: string;
  scope?: string;
}
