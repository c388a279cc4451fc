/**
 * The `me.*` methods: the UI's viewer about themselves. For the operator (the
 * login link, the main token, the desktop app) they answer as the local user.
 * For a person signed in through the gateway's identity provider (bridge.ts
 * builds these per connection) they answer only for that person: who they
 * are, the profile they are bound to and the tools it lets them use (with
 * the scopes a tool needs), their connections to per-caller servers, and
 * their own audit entries; a revocation touches only their own tokens.
 */
import type { CoreHandlers } from '../../shared/contract.js';
import type { MeServerView, MeView } from '../../shared/model/meViews.js';
import type { Switchboard } from '../core/api/index.js';
import {
  callerIdentityOf,
  NO_PROFILE,
  profileFor,
  requiredScopes,
  unboundMessage,
  type Principal,
} from '../core/catalog/index.js';
import { LOCAL_CLIENT } from '../core/platform/index.js';
import { catalogAccess } from './catalogAccess.js';
import { logEntryView } from './logEntryView.js';
import type { UiViewer } from './uiSessions.js';

type MeMethods = 'me.get' | 'me.calls' | 'me.connections.revoke';

/** How many calls `me.calls` answers unless asked for fewer. */
const DEFAULT_CALLS = 50;

/** The servers and tools `profile` lets its callers use (allowed or asked about), with their scopes. */
export function usableServers(core: Switchboard, profile: string): MeServerView[] {
  if (profile !== LOCAL_CLIENT && !core.policy.current.clients[profile]) return [];
  const access = catalogAccess(core, profile === LOCAL_CLIENT ? undefined : profile);
  const policy = core.policy.current;
  const servers = new Map<string, MeServerView>();
  for (const item of access.items) {
    if (item.kind !== 'tools' || (item.state !== 'allowed' && item.state !== 'ask')) continue;
    const server = servers.get(item.backendId) ?? { id: item.backendId, tools: [] };
    servers.set(item.backendId, server);
    server.tools.push({
      name: item.clientName ?? item.exposed,
      scopes: requiredScopes(policy, { backendId: item.backendId, original: item.original }),
      ask: item.state === 'ask',
    });
  }
  return [...servers.values()];
}

/** The profile serving `principal` (gateway bindings), with its name. */
function profileOf(core: Switchboard, principal: Principal, defaultProfile: string | undefined): MeView['profile'] {
  const choice = profileFor(core.policy.current, principal, defaultProfile);
  const name = choice.profile === NO_PROFILE ? undefined : core.policy.current.clients[choice.profile]?.name;
  return { id: choice.profile, ...(name !== undefined ? { name } : {}), by: choice.by };
}

/** The `me.*` handlers for `viewer` (the gateway's default profile as in force now). */
export function meHandlers(core: Switchboard, viewer: UiViewer): Pick<CoreHandlers, MeMethods> {
  const person = viewer.principal;
  const defaultProfile = () => core.settings.gateway()?.defaultProfile;
  const profile = () => (person ? profileFor(core.policy.current, person, defaultProfile()).profile : LOCAL_CLIENT);
  const caller = () => callerIdentityOf({ client: profile(), principal: person });
  return {
    'me.get': async () => {
      const connections = await core.connections.list(caller());
      // The operator's page is the management UI, which asks for what it shows itself: no catalog work here.
      if (!person) return { admin: viewer.admin, servers: [], connections };
      const view: MeView = { admin: viewer.admin, servers: usableServers(core, profile()), connections };
      const { subject, email, name, groups, issuer } = person;
      view.principal = {
        subject,
        ...(email !== undefined ? { email } : {}),
        ...(name !== undefined ? { name } : {}),
        groups,
        issuer,
      };
      view.profile = profileOf(core, person, defaultProfile());
      if (view.profile?.by === 'none') {
        const message = unboundMessage(person);
        view.unbound = message.charAt(0).toUpperCase() + message.slice(1) + '.';
      }
      return view;
    },
    'me.calls': async ({ limit }) => {
      if (!person) return [];
      // The audit filter matches a subject or an email: keep only entries of this very person (and issuer).
      const entries = await core.audit.query({ principal: person.subject, limit: limit ?? DEFAULT_CALLS });
      return entries
        .filter(
          (entry) =>
            entry.principal?.subject === person.subject &&
            (entry.principal.issuer === undefined || entry.principal.issuer === person.issuer),
        )
        .map(logEntryView);
    },
    'me.connections.revoke': async ({ server }) => core.connections.revoke(caller(), server),
  };
}
