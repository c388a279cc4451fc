/**
 * A lock across replicas over the cluster's Redis, for work that must run
 * once at a time deployment-wide (spending a single-use refresh token).
 * Redlock (@sesamecare-oss/redlock, loaded lazily by openCluster.ts) takes
 * and releases it; this file only bounds it: a lock lives `ttlMs` (a replica
 * that dies holding it blocks no one longer), a waiter gives up after
 * `waitMs`, and the work's signal aborts shortly before the lock's time is
 * up, so the work never runs unguarded.
 */
import type { Redis } from 'ioredis';
import type { Redlock } from '@sesamecare-oss/redlock';
import type { Cluster } from './cluster.js';

/** The lock could not be had within its wait (held elsewhere, or Redis away). */
export class LockUnavailableError extends Error {
  constructor(name: string, cause: unknown) {
    super(`the lock ${name} could not be had: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'LockUnavailableError';
  }
}

/** Time kept between the work's end and the lock's (clock drift, the release's round trip). */
const MARGIN_MS = 500;
/** Between two attempts while the lock is held elsewhere. */
const RETRY_DELAY_MS = 50;

/** The lock over `redis` (the cluster's command connection). */
export function redisLock(redis: Redis, RedlockClass: typeof Redlock): Cluster['exclusive'] {
  // The lock's script selects the connection's database itself.
  const redlock = new RedlockClass([redis], { db: redis.options.db ?? 0, retryJitter: RETRY_DELAY_MS / 2 });
  // Each refused attempt is also emitted; the outcome is what counts.
  redlock.on('error', () => undefined);
  return async (name, options, work) => {
    options.signal?.throwIfAborted();
    const lock = await redlock
      .acquire([name], options.ttlMs, {
        retryCount: Math.max(0, Math.ceil(options.waitMs / RETRY_DELAY_MS)),
        retryDelay: RETRY_DELAY_MS,
      })
      .catch((error: unknown) => {
        throw new LockUnavailableError(name, error);
      });
    const held = AbortSignal.timeout(Math.max(0, lock.expiration - Date.now() - MARGIN_MS));
    try {
      options.signal?.throwIfAborted();
      return await work(options.signal ? AbortSignal.any([options.signal, held]) : held);
    } finally {
      // A failed release is harmless: the lock ends at its time.
      await lock.release().catch(() => undefined);
    }
  };
}
