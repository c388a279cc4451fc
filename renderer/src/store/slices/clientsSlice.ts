/**
 * Clients: the apps Switchboard can be installed into, client profiles with
 * their tokens, and the connected sessions. Profile actions do not re-fetch:
 * the core's policyChanged event does. Client apps have no event, so
 * installing re-fetches them here.
 */
import type { CallOutcome, CoreClient } from '../../../../shared/contract.js';
import { fetchRemote, idle } from '../remote.js';
import type { ClientWriteView, ClientsSlice, SliceCreator } from '../types.js';

export type { ClientWriteView, ClientsSlice };

/** Creates the clients slice. */
export function createClientsSlice(client: CoreClient): SliceCreator<ClientsSlice> {
  return (set, get) => ({
    apps: idle(),
    profiles: idle(),
    sessions: idle(),
    fetchApps: () =>
      fetchRemote(
        () => get().apps,
        (apps) => set({ apps }),
        () => client.call('clients.list'),
      ),
    async fetchProfiles() {
      await fetchRemote(
        () => get().profiles,
        (profiles) => set({ profiles }),
        () => client.call('profiles.list'),
      );
      // The profile whose rules are shown is gone: show everyone's instead.
      const { profiles, policyProfile } = get();
      if (
        profiles.data &&
        !profiles.error &&
        policyProfile !== '*' &&
        !profiles.data.some((p) => p.id === policyProfile)
      )
        get().setPolicyProfile('*');
    },
    fetchSessions: () =>
      fetchRemote(
        () => get().sessions,
        (sessions) => set({ sessions }),
        () => client.call('sessions.list'),
      ),
    createToken: (id, name) => client.call('profiles.createToken', { id, name }),
    rotateToken: (id) => client.call('profiles.rotateToken', { id }),
    revokeProfile: (id) => client.call('profiles.revoke', { id }),
    setExposure: (id, exposure) => client.call('profiles.setExposure', { id, exposure }),
    async setClientInstalled(app, installed) {
      const outcome: CallOutcome<ClientWriteView> = installed
        ? await client.call('clients.install', { client: app })
        : await client.call('clients.uninstall', { client: app });
      get().invalidate('apps'); // its profile and token come with policyChanged
      return outcome;
    },
  });
}
