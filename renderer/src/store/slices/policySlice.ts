/**
 * Authorization rules for one profile at a time (`*` is everyone).
 */
import type { CallOutcome, CoreClient, ParamsOf } from '../../../../shared/contract.js';
import type { PolicyKind, PolicyView, RuleView } from '../../../../shared/model/views.js';
import { fetchRemote, idle, type Remote } from '../remote.js';
import type { SliceCreator } from '../types.js';

/** Policy state and actions. */
export interface PolicySlice {
  policyProfile: string;
  policy: Remote<PolicyView>;
  fetchPolicy(): Promise<void>;
  setPolicyProfile(profile: string): void;
  setRule(backendId: string, kind: PolicyKind, original: string, rule: RuleView | null): Promise<CallOutcome<void>>;
  setBackendPolicy(change: ParamsOf<'policy.setBackend'>): Promise<CallOutcome<void>>;
}

/** Creates the policy slice. */
export function createPolicySlice(client: CoreClient): SliceCreator<PolicySlice> {
  return (set, get) => ({
    policyProfile: '*',
    policy: idle(),
    fetchPolicy: () =>
      fetchRemote(
        () => get().policy,
        (policy) => set({ policy }),
        () => client.call('policy.get', { profile: get().policyProfile }),
      ),
    setPolicyProfile(policyProfile) {
      set({ policyProfile, policy: idle() });
      get().invalidate('policy');
    },
    async setRule(backendId, kind, original, rule) {
      const profile = get().policyProfile;
      const outcome = await client.call('policy.setRule', { backendId, kind, original, rule, profile });
      get().invalidate('policy', 'catalog');
      return outcome;
    },
    async setBackendPolicy(change) {
      const outcome = await client.call('policy.setBackend', change);
      get().invalidate('policy', 'catalog', 'backends');
      return outcome;
    },
  });
}
