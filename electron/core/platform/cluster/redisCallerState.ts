/**
 * Per-caller upstream credentials shared by replicas, in Redis: each
 * backend's callers' sealed tokens in one hash (`callers:<backend>`, field:
 * the caller key), the backends' sealed client registrations in another
 * (`caller-clients`), sign-in links and flows as keys that expire with them
 * (`signin:<kind>:<hash of the id>`: the id itself, a bearer of the
 * sign-in, is never a key) and taken once (GETDEL), and a notice on
 * `caller-signed-in` when a caller signed in, and a lock per backend and
 * caller (`refresh:<backend>:<hash of the caller>`) held while one replica
 * refreshes that caller's tokens. Records arrive sealed
 * (JWE under the operator's key): Redis never holds a token in clear. With
 * Redis persistence (AOF, docs/deploy.md) a stored token survives a Redis
 * restart. Every command fails fast while Redis is away: the sign-in or call
 * that needed it fails with that error, and nothing half-written is kept.
 */
import { createHash } from 'node:crypto';
import type { CallerRecords, PendingKind, SharedCallerState } from '../auth/callerRecords.js';
import type { Cluster } from './cluster.js';

const hashed = (id: string): string => createHash('sha256').update(id).digest('base64url');

/**
 * A refresh's lock lives this long at most: its requests (each bounded by
 * authHttp.ts) end before, aborted if need be. A replica waits this long for
 * another's refresh (which usually takes a round trip to the token endpoint).
 */
const REFRESH_LOCK = { ttlMs: 20_000, waitMs: 10_000 };

/** The records in the cluster's Redis. */
function redisCallerRecords(cluster: Cluster): CallerRecords {
  const { redis } = cluster;
  const callersOf = (backend: string) => cluster.key('callers', backend);
  const clients = cluster.key('caller-clients');
  return {
    async token(backend, caller) {
      return (await redis.hget(callersOf(backend), caller)) ?? undefined;
    },
    async saveToken(backend, caller, sealed) {
      await redis.hset(callersOf(backend), caller, sealed);
    },
    async deleteToken(backend, caller) {
      await redis.hdel(callersOf(backend), caller);
    },
    async callers(backend) {
      return redis.hkeys(callersOf(backend));
    },
    async client(backend) {
      return (await redis.hget(clients, backend)) ?? undefined;
    },
    async saveClient(backend, sealed) {
      await redis.hset(clients, backend, sealed);
    },
    async deleteClient(backend) {
      await redis.hdel(clients, backend);
    },
    async forgetBackend(backend) {
      await redis.multi().del(callersOf(backend)).hdel(clients, backend).exec();
    },
    async replace(backend, caller, expected, sealed) {
      const [key, field] = caller === undefined ? [clients, backend] : [callersOf(backend), caller];
      return (await redis.eval(REPLACE, 1, key, field, expected, sealed)) === 1;
    },
  };
}

/** Sets the hash field (KEYS[1], ARGV[1]) to ARGV[3] only if it holds ARGV[2]; 1 when set. */
const REPLACE = `
if redis.call('HGET', KEYS[1], ARGV[1]) ~= ARGV[2] then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
return 1`;

/** The credential state the cluster's replicas share. */
export function redisCallerState(cluster: Cluster): SharedCallerState {
  const { redis } = cluster;
  const pendingKey = (kind: PendingKind, id: string) => cluster.key('signin', kind, hashed(id));
  const channel = cluster.key('caller-signed-in');
  return {
    records: redisCallerRecords(cluster),
    pending: {
      async put(kind, id, value, ttlMs) {
        await redis.set(pendingKey(kind, id), value, 'PX', ttlMs);
      },
      async take(kind, id) {
        return (await redis.getdel(pendingKey(kind, id))) ?? undefined;
      },
      async has(kind, id) {
        return (await redis.exists(pendingKey(kind, id))) === 1;
      },
    },
    async announce(backend, caller) {
      await cluster.publish(channel, JSON.stringify({ replica: cluster.replicaId, backend, caller }));
    },
    exclusiveRefresh(backend, caller, signal, refresh) {
      const name = cluster.key('refresh', backend, hashed(caller));
      return cluster.exclusive(name, { ...REFRESH_LOCK, signal }, refresh);
    },
    onSignedIn(listener) {
      return cluster.subscribe(channel, (message) => {
        const notice = JSON.parse(message) as { replica: string; backend: string; caller: string };
        if (notice.replica !== cluster.replicaId) listener(notice.backend, notice.caller);
      });
    },
  };
}
