/**
 * The Cluster over Redis (ioredis): one connection for commands and one for
 * subscriptions (a subscribed Redis connection takes no other command).
 * Commands fail fast while Redis is away (no offline queue, one attempt, a
 * command timeout); both connections reconnect on their own with a capped
 * backoff, and subscriptions are renewed on reconnect by ioredis. The status
 * is "up" while the command connection is ready.
 */
import type { Redis, RedisOptions } from 'ioredis';
import type { Redlock } from '@sesamecare-oss/redlock';
import type { Cluster, LockOptions, SharedStateStatus } from './cluster.js';
import { LockUnavailableError, redisLock } from './redisLock.js';

/** What a RedisCluster is built from (openCluster.ts resolves the config into this). */
export interface RedisClusterOptions {
  url: string;
  keyPrefix: string;
  connectTimeoutMs: number;
  commandTimeoutMs: number;
  replicaId: string;
  /** The ioredis constructor (loaded lazily by openCluster.ts). */
  Redis: new (url: string, options: RedisOptions) => Redis;
  /** The Redlock constructor (loaded lazily by openCluster.ts too). */
  Redlock: typeof Redlock;
  /** Where connection troubles are told (once per change of status). */
  warn(message: string): void;
}

/** Reconnect delays: 100 ms, growing to at most 2 s. */
function retryDelay(attempt: number): number {
  return Math.min(100 * 2 ** Math.min(attempt, 5), 2_000);
}

/** Both connections' options: fail fast, reconnect forever. */
function connectionOptions(options: RedisClusterOptions): RedisOptions {
  return {
    lazyConnect: true,
    connectTimeout: options.connectTimeoutMs,
    commandTimeout: options.commandTimeoutMs,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: retryDelay,
    connectionName: `switchboard:${options.replicaId}`,
  };
}

export class RedisCluster implements Cluster {
  readonly replicaId: string;
  readonly redis: Redis;
  private readonly subscriber: Redis;
  private readonly statusListeners = new Set<(status: SharedStateStatus) => void>();
  private readonly handlers = new Map<string, Set<(message: string) => void>>();
  private current: SharedStateStatus = 'down';
  private readonly lock: Cluster['exclusive'];

  constructor(private readonly options: RedisClusterOptions) {
    this.replicaId = options.replicaId;
    this.redis = new options.Redis(options.url, connectionOptions(options));
    // The subscriber keeps its own offline queue: SUBSCRIBE sent while away is sent on reconnect.
    this.subscriber = new options.Redis(options.url, { ...connectionOptions(options), enableOfflineQueue: true });
    this.redis.on('ready', () => this.setStatus('up'));
    this.redis.on('end', () => this.setStatus('down'));
    this.redis.on('close', () => this.setStatus('down'));
    this.redis.on('error', (error: Error) => {
      if (this.current === 'up') this.options.warn(`Redis: ${error.message}`);
    });
    this.lock = redisLock(this.redis, options.Redlock);
    this.subscriber.on('error', () => undefined);
    this.subscriber.on('message', (channel: string, message: string) => {
      for (const handler of this.handlers.get(channel) ?? []) handler(message);
    });
  }

  get status(): SharedStateStatus {
    return this.current;
  }

  /**
   * Connects both connections, waiting at most the connect timeout. Redis
   * away at start is not fatal: the replica serves what needs no shared
   * state, and both connections keep trying.
   */
  async connect(): Promise<void> {
    const attempts = [this.redis.connect(), this.subscriber.connect()];
    await Promise.all(attempts).catch((error: unknown) => {
      this.options.warn(`Redis not reachable at start (${(error as Error).message}); retrying in the background`);
    });
  }

  key(...parts: string[]): string {
    return this.options.keyPrefix + parts.join(':');
  }

  onStatus(listener: (status: SharedStateStatus) => void): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  async publish(channel: string, message: string): Promise<void> {
    await this.redis.publish(channel, message);
  }

  subscribe(channel: string, handler: (message: string) => void): () => void {
    let handlers = this.handlers.get(channel);
    if (!handlers) {
      handlers = new Set();
      this.handlers.set(channel, handlers);
      void this.subscriber.subscribe(channel).catch(() => undefined);
    }
    handlers.add(handler);
    return () => {
      handlers.delete(handler);
      if (handlers.size === 0) {
        this.handlers.delete(channel);
        void this.subscriber.unsubscribe(channel).catch(() => undefined);
      }
    };
  }

  exclusive<T>(name: string, options: LockOptions, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    // Redis away: refused at once rather than after the whole wait.
    if (this.current === 'down') return Promise.reject(new LockUnavailableError(name, new Error('Redis is down')));
    return this.lock(name, options, work);
  }

  async close(): Promise<void> {
    this.statusListeners.clear();
    this.handlers.clear();
    this.redis.disconnect();
    this.subscriber.disconnect();
  }

  private setStatus(status: SharedStateStatus): void {
    if (status === this.current) return;
    this.current = status;
    if (status === 'down') this.options.warn('Redis is down: shared state unavailable until it returns');
    else this.options.warn('Redis is up');
    for (const listener of this.statusListeners) listener(status);
  }
}
