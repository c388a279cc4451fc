/**
 * The single-use tokens that ask a 2026-07-28 client for approval
 * (approvals.ts), kept in Redis so that the client's retry, which carries
 * the answer, may reach any replica (a load balancer spreads 2026 requests).
 * One key per token, expiring with the approval timeout; taking it is
 * GETDEL, so it is used at most once across all replicas. Loaded only with
 * a `cluster` section.
 */
import type { Cluster } from '../../platform/cluster/cluster.js';
import type { SharedAskTokens } from './approvals.js';

/** Ask tokens in Redis; see the module comment. */
export class RedisAskTokens implements SharedAskTokens {
  constructor(private readonly cluster: Cluster) {}

  async put(token: string, key: string, ttlMs: number): Promise<void> {
    await this.cluster.redis.set(this.keyOf(token), key, 'PX', Math.max(1, ttlMs));
  }

  async take(token: string): Promise<string | undefined> {
    try {
      return (await this.cluster.redis.getdel(this.keyOf(token))) ?? undefined;
    } catch (error) {
      throw new Error(
        `shared state (Redis) unavailable: the approval answer cannot be checked (${(error as Error).message}); retry`,
      );
    }
  }

  private keyOf(token: string): string {
    return this.cluster.key('approvals', 'ask', token);
  }
}
