/**
 * App-wide state: app info, the pipe's connection state, the current screen,
 * and the invalidation entry point every slice's re-fetch goes through.
 */
import type { CoreClient } from '../../../../shared/contract.js';
import {
  createRefetchScheduler,
  ON_DEMAND_RESOURCES,
  type RefetchScheduler,
  type ResourceKey,
} from '../refetchScheduler.js';
import { fetchRemote, idle } from '../remote.js';
import type { AppSlice, AppStore, ScreenId, SliceCreator } from '../types.js';

export type { ScreenId, AppSlice };

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
  tasks: (s) => s.fetchTasks(),
  tryInputs: (s) => s.fetchTryInputs(),
  reviews: (s) => s.fetchReviews(),
  review: (s) => s.fetchReview(),
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
      added: undefined,
      setScreen: (screen) => set({ screen, added: undefined }),
      showAdded: (id) => set({ screen: 'backends', added: id }),
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
