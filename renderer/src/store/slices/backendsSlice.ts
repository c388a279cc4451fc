/**
 * Backends: the list with health, and the actions on one backend. Actions do
 * not re-fetch: the core's events (backendsChanged on health, catalogChanged
 * with policyChanged on the catalog) invalidate what they change.
 */
import type { CallOutcome, CoreClient } from '../../../../shared/contract.js';
import type { BackendView } from '../../../../shared/model/views.js';
import { fetchRemote, idle, type Remote } from '../remote.js';
import type { SliceCreator } from '../types.js';

/** A one-click action on a backend. */
export type BackendAction = 'restart' | 'refresh' | 'enable' | 'disable' | 'remove' | 'signOut';

/** Backends state and actions. */
export interface BackendsSlice {
  backends: Remote<BackendView[]>;
  fetchBackends(): Promise<void>;
  /** Runs an action; the outcome is returned for inline display, and the list re-fetched. */
  runBackendAction(id: string, action: BackendAction): Promise<CallOutcome<unknown>>;
  /** Checks then saves a new backend (refused with the reason when the check fails). */
  addBackend(id: string, entry: Record<string, unknown>, force?: boolean): Promise<CallOutcome<BackendView>>;
  updateBackend(id: string, entry: Record<string, unknown>): Promise<CallOutcome<BackendView>>;
}

/** Creates the backends slice. */
export function createBackendsSlice(client: CoreClient): SliceCreator<BackendsSlice> {
  return (set, get) => ({
    backends: idle(),
    fetchBackends: () =>
      fetchRemote(
        () => get().backends,
        (backends) => set({ backends }),
        () => client.call('backends.list'),
      ),
    runBackendAction(id, action): Promise<CallOutcome<unknown>> {
      return (() => {
        switch (action) {
          case 'restart':
            return client.call('backends.restart', { id });
          case 'refresh':
            return client.call('backends.refresh', { id });
          case 'enable':
          case 'disable':
            return client.call('backends.setEnabled', { id, enabled: action === 'enable' });
          case 'remove':
            return client.call('backends.remove', { id });
          case 'signOut':
            return client.call('backends.signOut', { id });
        }
      })();
    },
    addBackend: (id, entry, force) => client.call('backends.add', force ? { id, entry, force } : { id, entry }),
    updateBackend: (id, entry) => client.call('backends.update', { id, entry }),
  });
}
