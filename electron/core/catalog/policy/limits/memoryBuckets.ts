/**
 * Token buckets in this process's memory, with rate-limiter-flexible's
 * RateLimiterMemory (and its BurstyRateLimiter for a burst reserve). The
 * library expires each bucket when its window ends; on top of that, at most
 * `maxKeys` buckets are held: past it the least recently used is dropped
 * (lru-cache), so a flood of new callers cannot grow memory without bound.
 */
import { LRUCache } from 'lru-cache';
import { BurstyRateLimiter, RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { BucketSize, Buckets, Taken } from './buckets.js';

/** Default cap of buckets per rule. */
export const DEFAULT_MAX_KEYS = 10_000;

/** How many windows a burst reserve takes to refill. */
export const BURST_WINDOWS = 10;

/** What both limiters answer to. */
export interface Limiter {
  consume(key: string): Promise<RateLimiterRes>;
}

/** In-memory buckets of one size; see the module comment. */
export function memoryBuckets(size: BucketSize, maxKeys = DEFAULT_MAX_KEYS): Buckets {
  const rate = new RateLimiterMemory({ keyPrefix: 'rate', points: size.points, duration: size.perSeconds });
  const burst =
    size.burst === undefined
      ? undefined
      : new RateLimiterMemory({ keyPrefix: 'burst', points: size.burst, duration: size.perSeconds * BURST_WINDOWS });
  const limiter: Limiter = burst ? new BurstyRateLimiter(rate, burst) : rate;
  const held = new LRUCache<string, true>({
    max: maxKeys,
    dispose: (_value, key, reason) => {
      if (reason !== 'evict') return;
      void rate.delete(key);
      void burst?.delete(key);
    },
  });
  return limiterBuckets(limiter, held);
}

/**
 * Buckets over a limiter (in memory or in Redis): a take is one `consume`, a refusal says when to try
 * again; `held` counts the keys seen (and bounds memory where it is the store's own cache).
 */
export function limiterBuckets(limiter: Limiter, held: LRUCache<string, true>): Buckets {
  return {
    async take(key: string): Promise<Taken> {
      held.set(key, true);
      try {
        await limiter.consume(key);
        return { ok: true };
      } catch (refusal) {
        if (refusal instanceof RateLimiterRes) return { ok: false, retryAfterMs: Math.max(1, refusal.msBeforeNext) };
        throw refusal;
      }
    },
    get size() {
      return held.size;
    },
  };
}
