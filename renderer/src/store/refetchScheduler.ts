/**
 * Coalesces invalidations: a burst of events for the same resource becomes
 * one re-fetch, and an invalidation that arrives while that resource is being
 * fetched causes exactly one more fetch afterwards (so nothing stale sticks).
 * Resources nobody shows are skipped (whoever starts showing one invalidates it).
 */

/** Something the store can re-fetch. */
export type ResourceKey =
  | 'info'
  | 'backends'
  | 'catalog'
  | 'access'
  | 'policy'
  | 'approvals'
  | 'pins'
  | 'profiles'
  | 'sessions'
  | 'apps'
  | 'log'
  | 'tasks'
  | 'tryInputs'
  | 'reviews'
  | 'review';

/** Every resource key, for "re-fetch everything". */
export const ALL_RESOURCES: readonly ResourceKey[] = [
  'info',
  'backends',
  'catalog',
  'access',
  'policy',
  'approvals',
  'pins',
  'profiles',
  'sessions',
  'apps',
  'log',
  'tasks',
  'tryInputs',
  'reviews',
  'review',
];

/** Marks resources stale; they are fetched after `delayMs`, at most one fetch per key at a time. */
export interface RefetchScheduler {
  invalidate(keys: readonly ResourceKey[]): void;
  /** Resolves once nothing is pending or running (for tests). */
  idle(): Promise<void>;
}

/** Resources fetched only while some panel shows them (the others are always kept fresh). */
export const ON_DEMAND_RESOURCES: readonly ResourceKey[] = ['log', 'tasks', 'sessions', 'apps', 'review'];

/**
 * Builds a scheduler that calls `fetch(key)` for stale keys; a stale key for
 * which `wanted(key)` is false is dropped instead of fetched.
 */
export function createRefetchScheduler(
  fetch: (key: ResourceKey) => Promise<void>,
  delayMs = 30,
  wanted: (key: ResourceKey) => boolean = () => true,
): RefetchScheduler {
  const dirty = new Set<ResourceKey>();
  const running = new Map<ResourceKey, Promise<void>>();
  let timer: ReturnType<typeof setTimeout> | undefined;

  const start = (key: ResourceKey): void => {
    const run = fetch(key)
      .catch(() => undefined)
      .finally(() => {
        running.delete(key);
        if (dirty.has(key)) schedule();
      });
    running.set(key, run);
  };

  const flush = (): void => {
    timer = undefined;
    for (const key of [...dirty]) {
      if (running.has(key)) continue; // fetched again when the running one ends
      dirty.delete(key);
      if (wanted(key)) start(key);
    }
  };

  function schedule(): void {
    timer ??= setTimeout(flush, delayMs);
  }

  return {
    invalidate(keys) {
      for (const key of keys) dirty.add(key);
      if (keys.length > 0) schedule();
    },
    async idle() {
      while (timer !== undefined || running.size > 0 || dirty.size > 0) {
        if (timer === undefined && running.size === 0) schedule();
        await new Promise((resolve) => setTimeout(resolve, delayMs + 1));
        await Promise.all([...running.values()]);
      }
    },
  };
}
