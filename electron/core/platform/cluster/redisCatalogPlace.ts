/**
 * The catalog cache's entries in the cluster's Redis, so a new replica (an
 * empty state dir) publishes every server's catalog at once from what
 * another replica listed, on-demand servers it never started included. One
 * key per backend (`catalog:<id>`, the entry as catalogCache.ts writes it,
 * with its launch-line key), kept {@link CATALOG_TTL_SECONDS} after its last
 * write; all of them read at start with one MGET. Redis away rejects at
 * once (the cluster's connection does not queue): the cache counts that as
 * a miss, never a failed request.
 */
import type { CatalogPlace } from '../../catalog/catalogPlace.js';
import type { Cluster } from './cluster.js';

/** An entry unwritten this long (30 days) is dropped by Redis: its server is likely gone. */
export const CATALOG_TTL_SECONDS = 30 * 24 * 60 * 60;

/** The entries under `<prefix>catalog:<id>`. */
export function redisCatalogPlace(cluster: Cluster): CatalogPlace {
  const keyOf = (backendId: string) => cluster.key('catalog', backendId);
  return {
    name: `Redis (${cluster.key('catalog', '*')})`,
    async read(backendIds) {
      if (backendIds.length === 0) return [];
      const texts = await cluster.redis.mget(...backendIds.map(keyOf));
      return texts.map((text) => text ?? undefined);
    },
    async write(backendId, text) {
      await cluster.redis.set(keyOf(backendId), text, 'EX', CATALOG_TTL_SECONDS);
    },
    async remove(backendId) {
      await cluster.redis.del(keyOf(backendId));
    },
  };
}
