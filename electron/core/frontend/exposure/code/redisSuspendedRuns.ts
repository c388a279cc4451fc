/**
 * Code mode's suspended runs shared by replicas, in Redis: a 2026-07-28
 * client's retry of run_code (its answers to a question a program's call
 * asked) may land on any replica behind the balancer, and that replica
 * needs the first attempt's journal to replay the calls already made. Each
 * run is one key (`code-runs:<hash of the token>`: the token itself, a
 * bearer of the run, is never a key), expiring with its TTL and taken once
 * (GETDEL). Bounded: a run whose journal is over MAX_SHARED_CHARS of JSON
 * stays in this replica's memory (its retry works here, and elsewhere says
 * the state is unknown), as does one kept while Redis is away; a take
 * while Redis is away fails, saying so, and the client may retry.
 */
import { createHash } from 'node:crypto';
import type { Cluster } from '../../../platform/cluster/cluster.js';
import { LocalSuspendedRuns, type SuspendedRun, type SuspendedRuns } from './codeRun.js';

/** The largest journal shared (characters of JSON): results a program already got, kept for its retry. */
export const MAX_SHARED_CHARS = 4 * 1024 * 1024;

export class RedisSuspendedRuns implements SuspendedRuns {
  private readonly local = new LocalSuspendedRuns();
  constructor(private readonly cluster: Pick<Cluster, 'redis' | 'key'>) {}

  async keep(token: string, run: SuspendedRun, ttlMs: number): Promise<void> {
    const json = JSON.stringify(run);
    if (json.length > MAX_SHARED_CHARS) return this.local.keep(token, run, ttlMs);
    try {
      await this.cluster.redis.set(this.keyOf(token), json, 'PX', Math.max(1, ttlMs));
    } catch {
      await this.local.keep(token, run, ttlMs);
    }
  }

  async take(token: string): Promise<SuspendedRun | undefined> {
    const here = await this.local.take(token);
    if (here) return here;
    let json: string | null;
    try {
      json = await this.cluster.redis.getdel(this.keyOf(token));
    } catch (error) {
      throw new Error(
        `shared state (Redis) unavailable: the program's run cannot be resumed (${(error as Error).message}); retry`,
      );
    }
    return json === null ? undefined : (JSON.parse(json) as SuspendedRun);
  }

  private keyOf(token: string): string {
    return this.cluster.key('code-runs', createHash('sha256').update(token).digest('base64url'));
  }
}
