/**
 * The UI's sessions shared by replicas through Redis (the `cluster`
 * section; loaded only then), so a load balancer may send a browser's next
 * request to any replica. One key per session, named by the digest of the
 * cookie (`ui-session:<digest>`: the cookie itself, a bearer of the session,
 * is never stored), holding the viewer and the expiry, and dropped by Redis
 * at that expiry. A sign-out deletes the key and publishes the digest on
 * `ui-session-ended`, so every replica forgets its copy and closes that
 * session's sockets at once. Every command fails fast while Redis is away.
 */
import type { Cluster } from '../core/platform/index.js';
import type { SharedUiSessions, UiSession } from './uiSessions.js';

/** The sessions in the cluster's Redis; see the module comment. */
export function redisUiSessions(cluster: Cluster): SharedUiSessions {
  const keyOf = (digest: string) => cluster.key('ui-session', digest);
  const channel = cluster.key('ui-session-ended');
  return {
    async put(digest, session) {
      const ttlMs = Math.max(1, session.expires - Date.now());
      await cluster.redis.set(keyOf(digest), JSON.stringify(session), 'PX', ttlMs);
    },
    async get(digest) {
      const text = await cluster.redis.get(keyOf(digest));
      if (text === null) return undefined;
      const session = JSON.parse(text) as UiSession;
      return session.expires > Date.now() ? session : undefined;
    },
    async end(digest) {
      await cluster.redis.multi().del(keyOf(digest)).publish(channel, digest).exec();
    },
    onEnded(listener) {
      return cluster.subscribe(channel, listener);
    },
  };
}
