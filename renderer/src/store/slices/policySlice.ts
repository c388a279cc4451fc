/**
 * Authorization rules for one profile at a time (`*` is everyone). A fetch
 * that answers for a profile no longer selected is dropped (the selection
 * re-fetches). Actions do not re-fetch: the core's policyChanged and
 * catalogChanged events do.
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
  /** Sets rules for `profile` (`*`: everyone) in one write (bulk actions, and the Catalog's switch). */
  setRules(profile: string, rules: ParamsOf<'policy.setRules'>['rules']): Promise<CallOutcome<void>>;
  /** The Authorization screen's filter text (the Servers screen opens it on one server). */
  policyFilter: string;
  setPolicyFilter(filter: string): void;
}

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
