/**
 * The `cluster` section of the config: several `serve` replicas behind a load
 * balancer sharing one Redis (or Valkey) for what must be shared (rate-limit
 * counters, per-person upstream tokens, tasks, pending approvals, change
 * notices). Absent, Switchboard is one process holding everything in memory,
 * as on a laptop, and nothing of Redis is loaded (platform/cluster/ is
 * imported only when the section is set). Only the schema lives here.
 *
 * ```json
 * "cluster": { "redis": { "url": "${SWITCHBOARD_REDIS_URL}" } }
 * ```
 */
import { z } from 'zod';

const RedisSchema = z.strictObject({
  /**
   * `redis://[user:password@]host:port[/db]` or `rediss://` (TLS). A password belongs in a
   * `${VAR}` (e.g. the whole URL from a Kubernetes Secret), never in the file itself.
   */
  url: z
    .string()
    .min(1, 'must name the Redis server')
    .refine((url) => /\$\{[A-Za-z_][A-Za-z0-9_]*\}/.test(url) || /^rediss?:\/\/[^:@/]*@?[^@]*$/.test(url), {
      error: 'must be a redis:// or rediss:// URL without a password, or a ${VAR} holding one',
    }),
  /** Prefix of every key and channel: replicas of one deployment share it, two deployments must not. */
  keyPrefix: z
    .string()
    .regex(/^[A-Za-z0-9:_.-]{1,64}$/, 'must be 1-64 letters, digits or :_.-')
    .default('switchboard:'),
  /** How long a connection attempt may take. */
  connectTimeoutMs: z.number().int().min(100).max(60_000).default(2_000),
  /** How long one command may take before it counts as failed (Redis is then treated as down). */
  commandTimeoutMs: z.number().int().min(50).max(60_000).default(1_000),
});

/** The `cluster` section. */
export const ClusterSchema = z.strictObject({
  redis: RedisSchema,
  /** This replica's name in logs and health (default: the host name and process id). */
  replicaId: z
    .string()
    .regex(/^[A-Za-z0-9_.-]{1,64}$/, 'must be 1-64 letters, digits or _.-')
    .optional(),
});

/** The validated section. */
export type ClusterConfig = z.infer<typeof ClusterSchema>;
