/**
 * Who is an administrator of the UI in gateway mode: a person in one of
 * `gateway.ui.adminGroups` (the groups claim), or whose subject or email is
 * in `gateway.ui.adminPrincipals`. Everyone else gets the self-service page.
 */
import type { GatewayUiConfig } from '../../core/platform/index.js';

/** The parts of a principal the decision reads. */
export interface AdminCandidate {
  subject: string;
  email?: string | undefined;
  groups: readonly string[];
}

/** Whether `person` is an administrator under `ui`. */
export function isAdmin(person: AdminCandidate, ui: Pick<GatewayUiConfig, 'adminGroups' | 'adminPrincipals'>): boolean {
  const principals = new Set(ui.adminPrincipals);
  if (principals.has(person.subject) || (person.email !== undefined && principals.has(person.email))) return true;
  const groups = new Set(ui.adminGroups);
  return person.groups.some((group) => groups.has(group));
}
