/**
 * Quarantine's state shared by replicas in Redis: the server approvals
 * (`reviews:approvals`, a hash: server -> its entry) and the tool pins
 * (`reviews:pins:<server>`, a hash: tool -> its pin; `reviews:pinned`, the
 * servers with pins). Every write is one Lua script that writes and
 * announces on `reviews-changed` together, so a replica never misses a
 * change it could read; each replica reads the changed server's entry or
 * pins again (serverApprovals.ts, pinStore.ts), and everything again when
 * Redis answers after an outage. `reviews:seeded` marks the cluster's
 * first start: only that start seeds the approvals, so a replica with an
 * empty state dir approves nothing of its own. Loaded only with a
 * `cluster` section.
 */
import type { Cluster } from '../../platform/cluster/cluster.js';
import { formatEntry, parseEntry } from './approvalFile.js';
import { formatPin, parsePin, type PinRecord } from './pinFile.js';
import type { SharedPins } from './pinStore.js';
import type { SharedApprovals } from './serverApprovals.js';

/** KEYS: approvals, seeded. ARGV: server, entry, ... Seeds once per cluster; returns every entry (HGETALL). */
const SEED_APPROVALS = `
if redis.call('SETNX', KEYS[2], '1') == 1 then
  for i = 1, #ARGV, 2 do redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
end
return redis.call('HGETALL', KEYS[1])`;

/** KEYS: approvals, seeded, channel. ARGV: server, entry ('' removes it), notice. */
const WRITE_APPROVAL = `
redis.call('SET', KEYS[2], '1')
if ARGV[2] == '' then redis.call('HDEL', KEYS[1], ARGV[1]) else redis.call('HSET', KEYS[1], ARGV[1], ARGV[2]) end
redis.call('PUBLISH', KEYS[3], ARGV[3])
return 1`;

/** KEYS: the server's pins, pinned servers, channel. ARGV: server, notice, tool, pin, ... Returns the server's pins. */
const PIN_FIRST = `
local added = 0
for i = 3, #ARGV, 2 do added = added + redis.call('HSETNX', KEYS[1], ARGV[i], ARGV[i + 1]) end
if added > 0 then
  redis.call('SADD', KEYS[2], ARGV[1])
  redis.call('PUBLISH', KEYS[3], ARGV[2])
end
return redis.call('HGETALL', KEYS[1])`;

/** KEYS: the server's pins, pinned servers, channel. ARGV: server, notice, tool, pin. */
const SET_PIN = `
redis.call('HSET', KEYS[1], ARGV[3], ARGV[4])
redis.call('SADD', KEYS[2], ARGV[1])
redis.call('PUBLISH', KEYS[3], ARGV[2])
return 1`;

/** KEYS: the server's pins, pinned servers, channel. ARGV: server, notice, tools (none: all of them). */
const REMOVE_PINS = `
if #ARGV > 2 then
  for i = 3, #ARGV do redis.call('HDEL', KEYS[1], ARGV[i]) end
else
  redis.call('DEL', KEYS[1])
end
if redis.call('EXISTS', KEYS[1]) == 0 then redis.call('SREM', KEYS[2], ARGV[1]) end
redis.call('PUBLISH', KEYS[3], ARGV[2])
return 1`;

type Notice = { kind: 'approvals' | 'pins'; id: string };

/** A flat [field, value, ...] reply (HGETALL in a script) as pairs. */
function pairs(flat: unknown): [string, string][] {
  const list = flat as string[];
  const result: [string, string][] = [];
  for (let i = 0; i + 1 < list.length; i += 2) result.push([list[i]!, list[i + 1]!]);
  return result;
}

/** Both shares over one cluster (one channel of notices). */
export function redisReviewState(cluster: Cluster): { approvals: SharedApprovals; pins: SharedPins } {
  const approvalsKey = cluster.key('reviews', 'approvals');
  const seededKey = cluster.key('reviews', 'seeded');
  const pinnedKey = cluster.key('reviews', 'pinned');
  const pinsKey = (server: string) => cluster.key('reviews', 'pins', server);
  const channel = cluster.key('reviews-changed');
  const notice = (kind: Notice['kind'], id: string) => JSON.stringify({ kind, id } satisfies Notice);
  const pinsOf = (server: string, flat: [string, string][]) =>
    new Map(flat.map(([tool, text]) => [tool, parsePin(server, tool, text)]));

  /** Listeners of one kind: a notice of that kind, and Redis answering again (undefined). */
  const listen = (kind: Notice['kind'], listener: (id: string | undefined) => void): (() => void) => {
    const unsubscribe = cluster.subscribe(channel, (raw) => {
      let parsed: Partial<Notice>;
      try {
        parsed = JSON.parse(raw) as Partial<Notice>;
      } catch {
        return;
      }
      if (parsed.kind === kind && typeof parsed.id === 'string') listener(parsed.id);
    });
    const unwatch = cluster.onStatus((status) => {
      if (status === 'up') listener(undefined);
    });
    return () => {
      unsubscribe();
      unwatch();
    };
  };

  const approvals: SharedApprovals = {
    async load(seed) {
      const args = [...seed].flatMap(([server, entry]) => [server, formatEntry(entry)]);
      const flat = await cluster.redis.eval(SEED_APPROVALS, 2, approvalsKey, seededKey, ...args);
      return new Map(pairs(flat).map(([server, text]) => [server, parseEntry(text, server)]));
    },
    async read(server) {
      const text = await cluster.redis.hget(approvalsKey, server);
      return text === null ? undefined : parseEntry(text, server);
    },
    async write(server, entry) {
      const text = entry === undefined ? '' : formatEntry(entry);
      await cluster.redis.eval(
        WRITE_APPROVAL,
        3,
        approvalsKey,
        seededKey,
        channel,
        server,
        text,
        notice('approvals', server),
      );
    },
    onChange: (listener) => listen('approvals', listener),
  };

  const pins: SharedPins = {
    async loadAll() {
      const servers = await cluster.redis.smembers(pinnedKey);
      const all = new Map<string, Map<string, PinRecord>>();
      if (servers.length === 0) return all;
      const pipeline = cluster.redis.pipeline();
      for (const server of servers) pipeline.hgetall(pinsKey(server));
      const replies = (await pipeline.exec()) ?? [];
      servers.forEach((server, i) => {
        const [error, hash] = replies[i] ?? [new Error('no reply')];
        if (error) throw error;
        all.set(server, pinsOf(server, Object.entries(hash as Record<string, string>)));
      });
      return all;
    },
    async read(server) {
      return pinsOf(server, Object.entries(await cluster.redis.hgetall(pinsKey(server))));
    },
    async pinFirst(server, records) {
      const args = records.flatMap((record) => [record.tool, formatPin(record)]);
      const flat = await cluster.redis.eval(
        PIN_FIRST,
        3,
        pinsKey(server),
        pinnedKey,
        channel,
        server,
        notice('pins', server),
        ...args,
      );
      return pinsOf(server, pairs(flat));
    },
    async set(server, record) {
      await cluster.redis.eval(
        SET_PIN,
        3,
        pinsKey(server),
        pinnedKey,
        channel,
        server,
        notice('pins', server),
        record.tool,
        formatPin(record),
      );
    },
    async remove(server, tools) {
      if (tools?.length === 0) return;
      await cluster.redis.eval(
        REMOVE_PINS,
        3,
        pinsKey(server),
        pinnedKey,
        channel,
        server,
        notice('pins', server),
        ...(tools ?? []),
      );
    },
    onChange: (listener) => listen('pins', listener),
  };

  return { approvals, pins };
}
