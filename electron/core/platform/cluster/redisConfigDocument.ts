/**
 * The shared config document in Redis: one hash (`config`: text, version,
 * and the hash of the file it was last seeded from), and the hashes of the
 * files applied as edits since (`config-applied`, a list, newest first,
 * bounded), written only by Lua scripts and one transaction, so a
 * compare-and-set and its notice on the `config-changed` channel are one
 * atomic step. Every replica subscribes to the channel and re-reads on a
 * notice, and after Redis comes back (a notice may have been missed while
 * it was away). With Redis persistence (AOF, docs/deploy.md) a
 * write acknowledged here survives a Redis restart.
 */
import { createHash } from 'node:crypto';
import type { SharedConfigDocument, SharedText } from '../config/sharedConfigDocument.js';
import type { Cluster } from './cluster.js';

/** KEYS: document, channel. ARGV: expected version, text. Returns the new version, or nil when it moved on. */
const WRITE = `
local current = redis.call('HGET', KEYS[1], 'version') or '0'
if current ~= ARGV[1] then return false end
local next = tonumber(current) + 1
redis.call('HSET', KEYS[1], 'text', ARGV[2], 'version', next)
redis.call('PUBLISH', KEYS[2], next)
return next`;

/**
 * KEYS: document, channel, applied files. ARGV: file text, its hash. Returns 1 when it wrote, 0 when this file
 * was the last seed or an edit applied since.
 */
const SEED = `
if redis.call('HGET', KEYS[1], 'seed') == ARGV[2] then return 0 end
if redis.call('LPOS', KEYS[3], ARGV[2]) then return 0 end
local next = tonumber(redis.call('HGET', KEYS[1], 'version') or '0') + 1
redis.call('HSET', KEYS[1], 'text', ARGV[1], 'version', next, 'seed', ARGV[2])
redis.call('DEL', KEYS[3])
redis.call('PUBLISH', KEYS[2], next)
return 1`;

/** The files applied as edits that are remembered (the newest): each replica's own file, edited now and then. */
const APPLIED_KEPT = 64;

const hashOf = (text: string): string => createHash('sha256').update(text).digest('base64url');

/** The deployment's shared config document. */
export function redisConfigDocument(cluster: Cluster): SharedConfigDocument {
  const documentKey = cluster.key('config');
  const channel = cluster.key('config-changed');
  const appliedKey = cluster.key('config-applied');
  return {
    async read(): Promise<SharedText | undefined> {
      const [text, version] = await cluster.redis.hmget(documentKey, 'text', 'version');
      return text === null || text === undefined ? undefined : { text, version: Number(version ?? 0) };
    },
    async write(text: string, version: number): Promise<number | undefined> {
      const written = (await cluster.redis.eval(WRITE, 2, documentKey, channel, String(version), text)) as
        number | null;
      return written ?? undefined;
    },
    async seed(fileText: string): Promise<boolean> {
      return (await cluster.redis.eval(SEED, 3, documentKey, channel, appliedKey, fileText, hashOf(fileText))) === 1;
    },
    async applied(fileText: string): Promise<void> {
      const hash = hashOf(fileText);
      await cluster.redis
        .multi()
        .lrem(appliedKey, 0, hash)
        .lpush(appliedKey, hash)
        .ltrim(appliedKey, 0, APPLIED_KEPT - 1)
        .exec();
    },
    onChange(listener: () => void): () => void {
      const unsubscribe = cluster.subscribe(channel, () => listener());
      const unwatch = cluster.onStatus((status) => {
        if (status === 'up') listener();
      });
      return () => {
        unsubscribe();
        unwatch();
      };
    },
  };
}
