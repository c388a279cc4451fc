/**
 * Replicas (the `cluster` section; loaded only then): each client's tasks on
 * every replica, for a tasks/list through any of them without scanning the
 * keyspace. One sorted set per owning client (`<keyPrefix>tasks:owner:<client>`):
 * its members are task ids, scored by creation time, so a page is one range
 * read, newest first. A member is added when its task's record is kept and
 * removed when the task is dropped; one whose record expired unseen (its
 * replica died) is removed when a page meets it, and the set itself expires
 * with the longest-lived task in it. A page's cursor names the last task it
 * held (its creation time and id), so it is valid on any replica.
 */
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { Cluster } from '../../platform/cluster/cluster.js';

/** Tasks one tasks/list page holds at most. */
export const TASK_PAGE_SIZE = 100;

/** One entry of the index: a task id and its creation time. */
export interface IndexedTask {
  taskId: string;
  createdAt: number;
}

/** Where a page ends (encoded into the cursor). */
interface After {
  createdAt: number;
  taskId: string;
}

/** The key of `client`'s index. */
export function ownerIndexKey(cluster: Cluster, client: string): string {
  return cluster.key('tasks', 'owner', client);
}

/** The cursor of the page after `last`. */
function cursorAfter(last: IndexedTask): string {
  return Buffer.from(JSON.stringify({ c: last.createdAt, t: last.taskId })).toString('base64url');
}

/** The position a cursor names; -32602 for one we did not hand out. */
function parseCursor(cursor: string): After {
  try {
    const { c, t } = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { c?: unknown; t?: unknown };
    if (typeof c === 'number' && Number.isFinite(c) && typeof t === 'string') return { createdAt: c, taskId: t };
  } catch {
    // below
  }
  throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Invalid cursor');
}

/** Pairs of ZRANGE ... WITHSCORES as entries. */
function entries(flat: string[]): IndexedTask[] {
  const out: IndexedTask[] = [];
  for (let i = 0; i + 1 < flat.length; i += 2) out.push({ taskId: flat[i]!, createdAt: Number(flat[i + 1]) });
  return out;
}

/**
 * One page of `client`'s index, newest first, after `cursor` (none: from
 * the newest): at most `limit` entries, and the cursor of the next page
 * when there is more. One round trip.
 */
export async function readOwnerPage(
  cluster: Cluster,
  client: string,
  cursor: string | undefined,
  limit = TASK_PAGE_SIZE,
): Promise<{ entries: IndexedTask[]; nextCursor?: string }> {
  const key = ownerIndexKey(cluster, client);
  const after = cursor === undefined ? undefined : parseCursor(cursor);
  let found: IndexedTask[];
  if (!after) {
    found = entries(await cluster.redis.zrevrangebyscore(key, '+inf', '-inf', 'WITHSCORES', 'LIMIT', 0, limit + 1));
  } else {
    // Tasks created in the same millisecond as the cursor's come first (ids in reverse order, as Redis ranks ties).
    const at = String(after.createdAt);
    const replies = await cluster.redis
      .pipeline()
      .zrevrangebyscore(key, at, at, 'WITHSCORES')
      .zrevrangebyscore(key, `(${at}`, '-inf', 'WITHSCORES', 'LIMIT', 0, limit + 1)
      .exec();
    const [ties, older] = (replies ?? []).map(([error, value]) => {
      if (error) throw error;
      return entries(value as string[]);
    });
    found = [...(ties ?? []).filter((entry) => entry.taskId < after.taskId), ...(older ?? [])];
  }
  const page = found.slice(0, limit);
  return found.length > limit ? { entries: page, nextCursor: cursorAfter(page[page.length - 1]!) } : { entries: page };
}

/** Removes entries whose records are gone (expired unseen); best effort. */
export function forgetIndexed(cluster: Cluster, client: string, taskIds: string[]): void {
  if (taskIds.length === 0) return;
  void cluster.redis.zrem(ownerIndexKey(cluster, client), ...taskIds).catch(() => undefined);
}
