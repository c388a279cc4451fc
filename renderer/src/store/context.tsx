/**
 * React access to the one store: a provider and a selector hook.
 */
import { createContext, useContext, useEffect, type ReactNode } from 'react';
import { useStore } from 'zustand';
import type { StoreApi } from 'zustand/vanilla';
import type { ResourceKey } from './refetchScheduler.js';
import type { AppStore } from './types.js';

const StoreContext = createContext<StoreApi<AppStore> | undefined>(undefined);

/** Makes `store` available to `useAppStore` below it. */
export function StoreProvider({ store, children }: { store: StoreApi<AppStore>; children: ReactNode }) {
  return <StoreContext.Provider value={store}>{children}</StoreContext.Provider>;
}

/** Selects from the store; re-renders when the selected value changes. */
export function useAppStore<T>(selector: (state: AppStore) => T): T {
  const store = useContext(StoreContext);
  if (!store) throw new Error('useAppStore outside StoreProvider');
  return useStore(store, selector);
}

/** Keeps `key` fetched while the calling component is mounted (see AppSlice.show). */
export function useShown(key: ResourceKey): void {
  const show = useAppStore((s) => s.show);
  useEffect(() => show(key), [show, key]);
}
