/**
 * Calls waiting for approval (`ask` rules) and changed tool definitions (pins).
 * Actions do not re-fetch: the core's events (approvalsChanged; catalogChanged,
 * which brings policyChanged and pinsChanged) invalidate what they change.
 */
import type { CallOutcome, CoreClient } from '../../../../shared/contract.js';
import type { ApprovalView, PinChangeView } from '../../../../shared/model/views.js';
import { fetchRemote, idle, type Remote } from '../remote.js';
import type { SliceCreator } from '../types.js';

/** Approvals and pin-change state and actions. */
export interface ApprovalsSlice {
  approvals: Remote<ApprovalView[]>;
  pins: Remote<PinChangeView[]>;
  fetchApprovals(): Promise<void>;
  fetchPins(): Promise<void>;
  resolveApproval(id: string, decision: 'once' | 'always' | 'deny'): Promise<CallOutcome<void>>;
  approvePin(backendId: string, tool: string): Promise<CallOutcome<void>>;
}

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
