/**
 * Backends: the list with health, and the actions on one backend. Actions do
 * not re-fetch: the core's events (backendsChanged on health, catalogChanged
 * with policyChanged on the catalog) invalidate what they change.
 */
import type { CallOutcome, CoreClient } from '../../../../shared/contract.js';
import { fetchRemote, idle } from '../remote.js';
import type { BackendAction, BackendsSlice, SliceCreator } from '../types.js';

export type { BackendAction, BackendsSlice };

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
