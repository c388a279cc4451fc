/**
 * The seam between Switchboard and the state its replicas share. A replica
 * (one `serve` process among several behind a load balancer) reaches Redis
 * only through this interface: prefixed keys, commands that fail fast when
 * Redis is down, publish/subscribe for change notices, and whether Redis
 * answers now (health and `/readyz` say so). Laptop mode has no Cluster at
 * all: every owner of shared state keeps its in-memory form then.
 */
import type { Redis } from 'ioredis';

/** Whether Redis answers now. */
export type SharedStateStatus = 'up' | 'down';

/** How a lock across replicas is held (Cluster.exclusive). */
export interface LockOptions {
  /** The lock's lifetime: it ends at the latest then, whatever happens to its holder. */
  ttlMs: number;
  /** How long to wait for it while another replica holds it. */
  waitMs: number;
  /** Ends the work (the replica is stopping). */
  signal?: AbortSignal | undefined;
}

/** What this replica shares with the others. */
export interface Cluster {
  /** This replica's name (logs, health, task ownership). */
  readonly replicaId: string;
  /** Whether Redis answers now. */
  readonly status: SharedStateStatus;
  /**
   * The command connection (ioredis). Commands fail at once while Redis is
   * down (no offline queue) and after `commandTimeoutMs`: a caller handles
   * that failure as "shared state unavailable", never waits on it. Keys must
   * come from `key()`.
   */
  readonly redis: Redis;
  /** A key (or channel) of this deployment: the configured prefix, then the parts joined by `:`. */
  key(...parts: string[]): string;
  /** Calls `listener` whenever `status` changes. Returns the unsubscribe. */
  onStatus(listener: (status: SharedStateStatus) => void): () => void;
  /** Publishes `message` on `channel` (a name from `key()`); a failure rejects. */
  publish(channel: string, message: string): Promise<void>;
  /** Calls `handler` with each message on `channel` (from every replica, this one included). Returns the unsubscribe. */
  subscribe(channel: string, handler: (message: string) => void): () => void;
  /**
   * Runs `work` while holding the lock `name` (from `key()`) across the
   * replicas: waits at most `waitMs` for it, then rejects (at once while
   * Redis is away); `work`'s signal aborts shortly before the lock's
   * `ttlMs` ends, or with `signal`.
   */
  exclusive<T>(name: string, options: LockOptions, work: (signal: AbortSignal) => Promise<T>): Promise<T>;
  /** Closes both connections (at the end of `serve`). */
  close(): Promise<void>;
}
