/**
 * Calls waiting for approval (`ask` rules) and changed tool definitions (pins).
 * Actions do not re-fetch: the core's events (approvalsChanged; catalogChanged,
 * which brings policyChanged and pinsChanged) invalidate what they change.
 */
import type { CoreClient } from '../../../../shared/contract.js';
import { fetchRemote, idle } from '../remote.js';
import type { ApprovalsSlice, SliceCreator } from '../types.js';

export type { ApprovalsSlice };

/** Creates the approvals slice. */
export function createApprovalsSlice(client: CoreClient): SliceCreator<ApprovalsSlice> {
  return (set, get) => ({
    approvals: idle(),
    pins: idle(),
    fetchApprovals: () =>
      fetchRemote(
        () => get().approvals,
        (approvals) => set({ approvals }),
        () => client.call('approvals.list'),
      ),
    fetchPins: () =>
      fetchRemote(
        () => get().pins,
        (pins) => set({ pins }),
        () => client.call('pins.list'),
      ),
    resolveApproval: (id, decision) => client.call('approvals.resolve', { id, decision }),
    approvePin: (backendId, tool) => client.call('pins.approve', { backendId, tool }),
  });
}
