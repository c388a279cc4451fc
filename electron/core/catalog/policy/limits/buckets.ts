/**
 * The store behind rate limits: named token buckets of one size, taken from
 * one at a time. Limits (rateLimits.ts) see only this interface, so the
 * in-memory store of one process (memoryBuckets.ts) can give way to a shared
 * one (rate-limiter-flexible's Redis limiter) when several replicas serve.
 */

/** The size of every bucket of one store. */
export interface BucketSize {
  /** Requests per window. */
  points: number;
  /** The window, in seconds. */
  perSeconds: number;
  /** Extra requests on top of the rate, refilled once per ten windows. */
  burst?: number | undefined;
}

/** What taking one point from a bucket came to. */
export type Taken = { ok: true } | { ok: false; retryAfterMs: number };

/** Buckets of one size, by key. */
export interface Buckets {
  /** Takes one point from `key`'s bucket; refused when it is empty, with when to try again. */
  take(key: string): Promise<Taken>;
  /** Buckets held now (at most the store's cap). */
  readonly size: number;
}

/**
 * Makes the buckets of one rule. `rule` identifies the rule the same way in
 * every process that reads the same policy (a shared store keys by it).
 */
export type BucketsFactory = (size: BucketSize, rule: string) => Buckets;
