/**
 * Reaping a child's whole process tree. `npx some-server` runs the real server
 * as a grandchild; killing only the direct child orphans it. We list the tree
 * first (children are re-parented once their parent dies, so the listing must
 * come before any signal), then signal every member.
 */
import { readFileSync } from 'node:fs';
import pidtree from 'pidtree';

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // Already gone (ESRCH) or not ours: nothing left to do for this one.
  }
}

/** True while a process with this PID exists (a zombie counts as gone on Linux). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  if (process.platform !== 'linux') return true;
  try {
    // /proc/<pid>/stat: "pid (comm) S ..."; state Z is a zombie, X is dead.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

/**
 * Runs `read` once for all callers that ask before it begins, and begins it
 * `delayMs` after the first of them: each caller gets a reading made after it
 * asked (never one already under way), and thirty servers stopped together
 * share one reading instead of making thirty (at quit, each stdio server
 * lists its tree three times: one `ps` per listing was most of the quit's CPU).
 */
export function batched<T>(read: () => Promise<T>, delayMs: number): () => Promise<T> {
  let next: Promise<T> | undefined;
  return () => {
    next ??= new Promise((resolve) => setTimeout(resolve, delayMs)).then(() => {
      next = undefined;
      return read();
    });
    return next;
  };
}

/** How long a process listing waits for others to share it. */
export const LISTING_BATCH_MS = 10;

/** Every process's parent, one `ps` (pidtree) for the callers of one batch. */
const processTable = batched(() => pidtree(-1, { advanced: true }), LISTING_BATCH_MS);

/** Lists the PIDs of a process and all its descendants; empty if it is gone. */
export async function processTree(pid: number): Promise<number[]> {
  let table: { ppid: number; pid: number }[];
  try {
    table = await processTable();
  } catch {
    return isProcessAlive(pid) ? [pid] : [];
  }
  const children = new Map<number, number[]>();
  for (const entry of table) {
    const siblings = children.get(entry.ppid);
    if (siblings) siblings.push(entry.pid);
    else children.set(entry.ppid, [entry.pid]);
  }
  if (!table.some((entry) => entry.pid === pid)) return isProcessAlive(pid) ? [pid] : [];
  // A set: each PID once, even were the listing to hold a cycle.
  const tree = new Set([pid]);
  for (const member of tree) for (const child of children.get(member) ?? []) tree.add(child);
  return [...tree];
}

/**
 * Sends SIGTERM to the tree, waits up to `graceMs` for it to exit, then SIGKILLs
 * what is left. `pids` may be given when the tree was listed earlier.
 */
export async function reapTree(pids: number[], graceMs = 2000): Promise<void> {
  if (pids.length === 0) return;
  for (const pid of pids) signal(pid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline) {
    if (!pids.some(isProcessAlive)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  for (const pid of pids) if (isProcessAlive(pid)) signal(pid, 'SIGKILL');
}
