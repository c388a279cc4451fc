/**
 * What the UI's viewer is told about themselves (`me.get`): whether they are
 * an administrator (the management UI) or not (the self-service page), and,
 * when signed in through the team's identity provider in gateway mode, who
 * they are, the client profile they are bound to, what that profile lets
 * them use and their connections to per-caller servers. Never a token.
 */
import type { ConnectionView } from './connectionViews.js';

/** A signed-in person, from the identity provider's claims. */
export interface MePrincipalView {
  subject: string;
  email?: string;
  name?: string;
  groups: string[];
  issuer: string;
}

/** One tool the viewer's profile lets them use. */
export interface MeToolView {
  /** The name their MCP client sees. */
  name: string;
  /** Scopes an access token needs to call it (gateway `scopes` / `toolScopes`); empty: none. */
  scopes: string[];
  /** An `ask` rule: each call is asked about first. */
  ask: boolean;
}

/** One server with the tools the viewer may use. */
export interface MeServerView {
  id: string;
  tools: MeToolView[];
}

/** The viewer of the UI. */
export interface MeView {
  /** Administrators get the management UI; everyone else the self-service page. */
  admin: boolean;
  /** Absent: the operator's one-time login link or the main token (the local user). */
  principal?: MePrincipalView;
  /** The client profile serving them, and how it was chosen. */
  profile?: { id: string; name?: string; by: 'principal' | 'group' | 'default' | 'none' };
  /** Bound to no profile (`profile.by` is `none`): what to ask the operator for, in one sentence. */
  unbound?: string;
  /** What their profile lets them use (a signed-in person only; the operator's list is the Catalog screen). */
  servers: MeServerView[];
  connections: ConnectionView[];
}
