/**
 * App-wide state: app info, the pipe's connection state, the current screen,
 * and the invalidation entry point every slice's re-fetch goes through.
 */
import type { CoreClient } from '../../../../shared/contract.js';
import type { AppInfo } from '../../../../shared/model/views.js';
import type { ConnectionState } from '../../bridge/connection.js';
import {
  createRefetchScheduler,
  ON_DEMAND_RESOURCES,
  type RefetchScheduler,
  type ResourceKey,
} from '../refetchScheduler.js';
import { fetchRemote, idle, type Remote } from '../remote.js';
import type { AppStore, SliceCreator } from '../types.js';

/** The screens of the app. */
export type ScreenId = 'backends' | 'add' | 'catalog' | 'authorization' | 'clients' | 'log' | 'settings';

/** App-wide state and actions. */
export interface AppSlice {
  info: Remote<AppInfo>;
  connection: ConnectionState;
  screen: ScreenId;
  /** Calls any contract method; the outcome (never a throw) is the caller's to show. */
  call: CoreClient['call'];
  fetchInfo(): Promise<void>;
  setScreen(screen: ScreenId): void;
  setConnection(state: ConnectionState): void;
  /** Marks resources stale; they are re-fetched together shortly after. */
  invalidate(...keys: ResourceKey[]): void;
  /**
   * Says a panel shows `key` (fetched now, then kept fresh); returns the
   * function that says it no longer does. The log, sessions and client apps
   * are fetched only while shown.
   */
  show(key: ResourceKey): () => void;
  /** Resolves when every pending re-fetch is done (tests). */
  settled(): Promise<void>;
}

/** How each resource key is fetched. */
const FETCHERS: Record<ResourceKey, (state: AppStore) => Promise<void>> = {
  info: (s) => s.fetchInfo(),
  backends: (s) => s.fetchBackends(),
  catalog: (s) => s.fetchCatalog(),
  access: (s) => s.fetchCatalogAccess(),
  policy: (s) => s.fetchPolicy(),
  approvals: (s) => s.fetchApprovals(),
  pins: (s) => s.fetchPins(),
  profiles: (s) => s.fetchProfiles(),
  sessions: (s) => s.fetchSessions(),
  apps: (s) => s.fetchApps(),
  log: (s) => s.fetchLog(),
  tryInputs: (s) => s.fetchTryInputs(),
};

/** Creates the app slice over `client`; `coalesceMs` is how long invalidations gather before fetching. */
export function createAppSlice(client: CoreClient, coalesceMs: number): SliceCreator<AppSlice> {
  return (set, get) => {
    const shown = new Map<ResourceKey, number>();
    const wanted = (key: ResourceKey) => !ON_DEMAND_RESOURCES.includes(key) || (shown.get(key) ?? 0) > 0;
    const scheduler: RefetchScheduler = createRefetchScheduler((key) => FETCHERS[key](get()), coalesceMs, wanted);
    return {
      info: idle(),
      connection: 'connecting',
      screen: 'backends',
      call: client.call.bind(client) as CoreClient['call'],
      fetchInfo: () =>
        fetchRemote(
          () => get().info,
          (info) => set({ info }),
          () => client.call('app.info'),
        ),
      setScreen: (screen) => set({ screen }),
      setConnection: (connection) => set({ connection }),
      invalidate: (...keys) => scheduler.invalidate(keys),
      show(key) {
        shown.set(key, (shown.get(key) ?? 0) + 1);
        if (shown.get(key) === 1 && get().connection === 'open') scheduler.invalidate([key]);
        let shownNow = true;
        return () => {
          if (!shownNow) return;
          shownNow = false;
          shown.set(key, (shown.get(key) ?? 1) - 1);
        };
      },
      settled: () => scheduler.idle(),
    };
  };
}
