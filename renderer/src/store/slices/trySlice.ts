/**
 * "Try it" calls in flight: the latest progress of each (pushed by
 * `tryProgress` events) and the servers' elicitation requests waiting for an
 * answer (re-fetched on `tryInputsChanged`), plus the resource a clicked
 * resource link asked the catalog to open.
 */
import type { CoreClient } from '../../../../shared/contract.js';
import { fetchRemote, idle } from '../remote.js';
import type { LinkedResource, SliceCreator, TrySlice } from '../types.js';

export type { LinkedResource, TrySlice };

/** Creates the try-it slice. */
export function createTrySlice(client: CoreClient): SliceCreator<TrySlice> {
  return (set, get) => ({
    tryProgress: {},
    tryInputs: idle(),
    linkedResource: undefined,
    fetchTryInputs: () =>
      fetchRemote(
        () => get().tryInputs,
        (tryInputs) => set({ tryInputs }),
        () => client.call('catalog.inputs'),
      ),
    recordProgress: (updates) =>
      set({ tryProgress: { ...get().tryProgress, ...Object.fromEntries(updates.map((u) => [u.callId, u])) } }),
    clearProgress: (callId) => {
      const { [callId]: _done, ...rest } = get().tryProgress;
      set({ tryProgress: rest });
    },
    setLinkedResource: (linkedResource) => set({ linkedResource }),
  });
}
