/**
 * Opens the shared state of a replica from the config's `cluster` section:
 * expands `${VAR}` in the Redis URL (a password comes from the environment,
 * e.g. a Kubernetes Secret), loads ioredis and Redlock (dynamic imports:
 * laptop mode, without the section, never loads them) and connects, never
 * failing the start because Redis is away.
 */
import { hostname } from 'node:os';
import type { ClusterConfig } from '../config/clusterConfig.js';
import { expandMap } from '../config/expand.js';
import type { Cluster } from './cluster.js';

/** What opening takes besides the section. */
export interface ClusterOptions {
  environment: NodeJS.ProcessEnv;
  warn(message: string): void;
  /** Told the URL's password, if it has one, so the redaction keeps it out of every log. */
  secret(value: string): void;
}

/** This replica's default name: the host (a pod's name on Kubernetes) and the process id. */
function defaultReplicaId(): string {
  return `${hostname()
    .replace(/[^A-Za-z0-9_.-]/g, '-')
    .slice(0, 48)}-${process.pid}`;
}

/** Connects to the section's Redis. Throws `config_invalid` when the URL's variable is not set. */
export async function openCluster(config: ClusterConfig, options: ClusterOptions): Promise<Cluster> {
  const { url = '' } = expandMap({ url: config.redis.url }, options.environment, 'cluster.redis');
  const password = URL.canParse(url) ? decodeURIComponent(new URL(url).password) : '';
  if (password) options.secret(password);
  const [{ Redis }, { Redlock }, { RedisCluster }] = await Promise.all([
    import('ioredis'),
    import('@sesamecare-oss/redlock'),
    import('./redisCluster.js'),
  ]);
  const cluster = new RedisCluster({
    url,
    keyPrefix: config.redis.keyPrefix,
    connectTimeoutMs: config.redis.connectTimeoutMs,
    commandTimeoutMs: config.redis.commandTimeoutMs,
    replicaId: config.replicaId ?? defaultReplicaId(),
    Redis,
    Redlock,
    warn: options.warn,
  });
  await cluster.connect();
  return cluster;
}
