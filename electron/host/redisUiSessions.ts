/**
 * The UI's sessions shared by replicas through Redis (the `cluster`
 * section; loaded only then), so a load balancer may send a browser's next
 * request to any replica. One key per session, named by the digest of the
 * cookie (`ui-session:<digest>`: the cookie itself, a bearer of the session,
 * is never stored), holding the viewer and the expiry, and dropped by Redis
 * at that expiry. A sign-out deletes the key and publishes the digest on
 * `ui-session-ended`, so every replica forgets its copy and closes that
 * session's sockets at once. Every command fails fast while Redis is away.
 *
 * The bound (`gateway.ui.maxSessions`) is the cluster's: every session is
 * also in one sorted set (`ui-sessions`, scored by expiry), and the script
 * that keeps a new one drops the expired entries, then ends the oldest
 * beyond the bound exactly as a sign-out does (key deleted, digest
 * published), in one atomic step whichever replica runs it.
 */
import type { Cluster } from '../core/platform/index.js';
import type { SharedUiSessions, UiSession } from './uiSessions.js';

/**
 * Keeps a session (KEYS[1], ARGV[1] for ARGV[2] ms) and its entry in the
 * index (KEYS[2], scored by its expiry ARGV[3], member its digest ARGV[4]);
 * drops the index's entries expired at ARGV[5]; ends the oldest beyond
 * ARGV[6] sessions (their keys are ARGV[7] .. digest; each published on
 * ARGV[8]). Returns how many it ended.
 */
const PUT = `
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[5])
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[4])
if redis.call('PTTL', KEYS[2]) < tonumber(ARGV[2]) then redis.call('PEXPIRE', KEYS[2], ARGV[2]) end
local over = redis.call('ZCARD', KEYS[2]) - tonumber(ARGV[6])
if over <= 0 then return 0 end
local oldest = redis.call('ZRANGE', KEYS[2], 0, over - 1)
for _, digest in ipairs(oldest) do
  redis.call('DEL', ARGV[7] .. digest)
  redis.call('PUBLISH', ARGV[8], digest)
end
redis.call('ZREMRANGEBYRANK', KEYS[2], 0, over - 1)
return over`;

/** The sessions in the cluster's Redis; see the module comment. */
export function redisUiSessions(cluster: Cluster): SharedUiSessions {
  const keyOf = (digest: string) => cluster.key('ui-session', digest);
  const channel = cluster.key('ui-session-ended');
  const index = cluster.key('ui-sessions');
  return {
    async put(digest, session, maxSessions) {
      const now = Date.now();
      const ttlMs = Math.max(1, session.expires - now);
      await cluster.redis.eval(
        PUT,
        2,
        keyOf(digest),
        index,
        JSON.stringify(session),
        String(ttlMs),
        String(session.expires),
        digest,
        String(now),
        String(maxSessions),
        keyOf(''),
        channel,
      );
    },
    async get(digest) {
      const text = await cluster.redis.get(keyOf(digest));
      if (text === null) return undefined;
      const session = JSON.parse(text) as UiSession;
      return session.expires > Date.now() ? session : undefined;
    },
    async end(digest) {
      await cluster.redis.multi().del(keyOf(digest)).zrem(index, digest).publish(channel, digest).exec();
    },
    onEnded(listener) {
      return cluster.subscribe(channel, listener);
    },
  };
}
