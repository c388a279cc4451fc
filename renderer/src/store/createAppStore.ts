/**
 * Builds the one store from its slices and wires it to a client: core events
 * invalidate the slices that show what changed; a reconnect re-fetches all.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { EventName } from '../../../shared/contract.js';
import type { BridgeClient } from '../bridge/connection.js';
import { ALL_RESOURCES, type ResourceKey } from './refetchScheduler.js';
import { createAppSlice } from './slices/appSlice.js';
import { createApprovalsSlice } from './slices/approvalsSlice.js';
import { createBackendsSlice } from './slices/backendsSlice.js';
import { createCatalogSlice } from './slices/catalogSlice.js';
import { createClientsSlice } from './slices/clientsSlice.js';
import { createLogSlice } from './slices/logSlice.js';
import { createTasksSlice } from './slices/tasksSlice.js';
import { createPolicySlice } from './slices/policySlice.js';
import { createReviewsSlice } from './slices/reviewsSlice.js';
import { createTrySlice } from './slices/trySlice.js';
import type { AppStore } from './types.js';

/** Which resources each core event makes stale. */
export const EVENT_INVALIDATES: Record<EventName, readonly ResourceKey[]> = {
  // A server's health carries its review state and scan summary; a catalog change rescans it.
  backendsChanged: ['backends', 'reviews', 'review'],
  catalogChanged: ['catalog', 'access', 'policy', 'reviews', 'review'],
  policyChanged: ['policy', 'profiles', 'access'],
  approvalsChanged: ['approvals'],
  pinsChanged: ['pins', 'policy', 'access', 'reviews', 'review'],
  sessionsChanged: ['sessions'],
  logAppended: ['log'],
  configChanged: ['info', 'backends', 'policy', 'access', 'reviews', 'review'],
  // Carries its data (see the subscription below), nothing to re-fetch.
  tryProgress: [],
  tryInputsChanged: ['tryInputs'],
  tasksChanged: ['tasks'],
};

/** Options for the store. */
export interface AppStoreOptions {
  /** How long invalidations gather before re-fetching (ms). */
  coalesceMs?: number;
}

/** The store plus a function that detaches it from the client. */
export interface ConnectedStore {
  store: StoreApi<AppStore>;
  dispose(): void;
}

/** Creates the store over `client` and subscribes it to the client's events and connection state. */
export function createAppStore(client: BridgeClient, options: AppStoreOptions = {}): ConnectedStore {
  const store = createStore<AppStore>()((...args) => ({
    ...createAppSlice(client, options.coalesceMs ?? 30)(...args),
    ...createBackendsSlice(client)(...args),
    ...createCatalogSlice(client)(...args),
    ...createPolicySlice(client)(...args),
    ...createApprovalsSlice(client)(...args),
    ...createClientsSlice(client)(...args),
    ...createLogSlice(client)(...args),
    ...createTasksSlice(client)(...args),
    ...createTrySlice(client)(...args),
    ...createReviewsSlice(client)(...args),
  }));
  const unsubscribers = (Object.keys(EVENT_INVALIDATES) as EventName[]).map((event) =>
    client.on(event, () => store.getState().invalidate(...EVENT_INVALIDATES[event])),
  );
  unsubscribers.push(client.on('tryProgress', ({ calls }) => store.getState().recordProgress(calls)));
  let wasOpen = client.connectionState() === 'open';
  store.getState().setConnection(client.connectionState());
  unsubscribers.push(
    client.onConnectionChange((state) => {
      store.getState().setConnection(state);
      // Events may have been missed while away: re-fetch everything.
      if (state === 'open' && !wasOpen) store.getState().invalidate(...ALL_RESOURCES);
      wasOpen = state === 'open';
    }),
  );
  // The first fetch happens on open (calls made earlier would only wait for it).
  if (wasOpen) store.getState().invalidate(...ALL_RESOURCES);
  return {
    store,
    dispose: () => unsubscribers.forEach((unsubscribe) => unsubscribe()),
  };
}
