/**
 * Token buckets shared by every replica, in Redis, with rate-limiter-flexible's
 * RateLimiterRedis (one Lua script per take, over the cluster's ioredis
 * connection) and its BurstyRateLimiter for a burst reserve: a limit holds
 * across replicas. While Redis is down (the connection is not ready, or a
 * command fails) each take falls to the library's insurance limiter, an
 * in-memory one of the same size: calls are still limited, per replica,
 * until Redis returns. Keys are the deployment's prefix, the rule's identity
 * and the bucket's key; Redis expires each with its window.
 */
import { LRUCache } from 'lru-cache';
import { BurstyRateLimiter, RateLimiterMemory, RateLimiterRedis } from 'rate-limiter-flexible';
import type { Cluster } from '../../../platform/cluster/cluster.js';
import type { BucketSize, Buckets, BucketsFactory } from './buckets.js';
import { BURST_WINDOWS, DEFAULT_MAX_KEYS, limiterBuckets, type Limiter } from './memoryBuckets.js';

/** A Redis limiter of `points` per `duration` seconds, insured in memory. */
function insured(cluster: Cluster, keyPrefix: string, points: number, duration: number): RateLimiterRedis {
  return new RateLimiterRedis({
    storeClient: cluster.redis,
    keyPrefix,
    points,
    duration,
    // Not ready: straight to the insurance, never a wait on a connection that is away.
    rejectIfRedisNotReady: true,
    insuranceLimiter: new RateLimiterMemory({ keyPrefix, points, duration }),
  });
}

/** Buckets of one rule in the cluster's Redis; `rule` names the rule the same way on every replica. */
export function redisBuckets(cluster: Cluster, size: BucketSize, rule: string, maxKeys = DEFAULT_MAX_KEYS): Buckets {
  const rate = insured(cluster, cluster.key('limits', rule, 'rate'), size.points, size.perSeconds);
  const burst =
    size.burst === undefined
      ? undefined
      : insured(cluster, cluster.key('limits', rule, 'burst'), size.burst, size.perSeconds * BURST_WINDOWS);
  const limiter: Limiter = burst ? new BurstyRateLimiter(rate, burst) : rate;
  // Redis expires its keys itself; this only bounds the insurance's memory and counts the keys seen.
  const held = new LRUCache<string, true>({ max: maxKeys });
  return limiterBuckets(limiter, held);
}

/** The factory of shared buckets for RateLimits. */
export function redisBucketsFactory(cluster: Cluster): BucketsFactory {
  return (size, rule) => redisBuckets(cluster, size, rule);
}
