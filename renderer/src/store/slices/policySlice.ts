/**
 * Authorization rules for one profile at a time (`*` is everyone). A fetch
 * that answers for a profile no longer selected is dropped (the selection
 * re-fetches). Actions do not re-fetch: the core's policyChanged and
 * catalogChanged events do.
 */
import type { CoreClient } from '../../../../shared/contract.js';
import { fetchRemote, idle } from '../remote.js';
import type { PolicySlice, SliceCreator } from '../types.js';

export type { PolicySlice };

/** Creates the policy slice. */
export function createPolicySlice(client: CoreClient): SliceCreator<PolicySlice> {
  return (set, get) => ({
    policyProfile: '*',
    policy: idle(),
    fetchPolicy() {
      const profile = get().policyProfile;
      return fetchRemote(
        () => get().policy,
        (policy) => set({ policy }),
        () => client.call('policy.get', { profile }),
        () => get().policyProfile === profile,
      );
    },
    setPolicyProfile(policyProfile) {
      set({ policyProfile, policy: idle() });
      get().invalidate('policy');
    },
    setRule: (backendId, kind, original, rule) =>
      client.call('policy.setRule', { backendId, kind, original, rule, profile: get().policyProfile }),
    setBackendPolicy: (change) => client.call('policy.setBackend', change),
    setRules: (profile, rules) => client.call('policy.setRules', { profile, rules }),
    policyFilter: '',
    setPolicyFilter: (policyFilter) => set({ policyFilter }),
  });
}
