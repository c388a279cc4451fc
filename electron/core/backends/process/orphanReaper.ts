/**
 * Ending what an earlier Switchboard of the same config left running. A
 * backend that does not exit when its stdin closes (a wrapper script,
 * `docker run`, a server with children of its own) outlives a serve killed
 * with SIGKILL, re-parented to init. At start, every process whose
 * environment carries an owner marker (instanceOwner.ts) of this config whose
 * owner is gone is ended with its whole tree: SIGTERM, then SIGKILL after a
 * grace period. Processes of a Switchboard still running (of this config or
 * another) and of other configs are never touched. Linux only (/proc).
 */
import { readdir, readFile } from 'node:fs/promises';
import { configKey, OWNER_MARKER, ownerRuns, parseOwner } from './instanceOwner.js';
import { isProcessAlive, processTree, reapTree } from './processTree.js';

/** What was ended: each dead owner's PID with the processes it had left. */
export interface ReapedOrphans {
  ownerPid: number;
  pids: number[];
}

/** The owner marker value in process `pid`'s environment, if any. */
async function ownerValueOf(pid: string): Promise<string | undefined> {
  try {
    const environ = await readFile(`/proc/${pid}/environ`);
    const prefix = `${OWNER_MARKER}=`;
    for (const variable of environ.toString('utf8').split('\0')) {
      if (variable.startsWith(prefix)) return variable.slice(prefix.length);
    }
  } catch {
    // Gone, or not ours (EACCES).
  }
  return undefined;
}

/** Live processes left by dead Switchboards of `configPath`, by owner PID. */
export async function findOrphans(configPath: string): Promise<Map<number, number[]>> {
  const found = new Map<number, number[]>();
  if (process.platform !== 'linux') return found;
  const key = configKey(configPath);
  const entries = (await readdir('/proc').catch(() => [] as string[])).filter(
    (entry) => /^\d+$/.test(entry) && Number(entry) !== process.pid,
  );
  await Promise.all(
    entries.map(async (entry) => {
      const value = await ownerValueOf(entry);
      const owner = value === undefined ? undefined : parseOwner(value);
      if (!owner || owner.config !== key || ownerRuns(owner) || !isProcessAlive(Number(entry))) return;
      const pids = found.get(owner.pid) ?? [];
      pids.push(Number(entry));
      found.set(owner.pid, pids);
    }),
  );
  return found;
}

/** Ends every orphan of `configPath` with its descendants (see the module comment); says what it ended. */
export async function reapOrphans(configPath: string, graceMs = 2000): Promise<ReapedOrphans[]> {
  const reaped: ReapedOrphans[] = [];
  for (const [ownerPid, marked] of await findOrphans(configPath)) {
    // Descendants too: a child that cleared its environment still belongs to the tree.
    const trees = await Promise.all(marked.map((pid) => processTree(pid)));
    const pids = [...new Set([...marked, ...trees.flat()])].sort((a, b) => a - b);
    reaped.push({ ownerPid, pids });
  }
  await reapTree(
    reaped.flatMap((r) => r.pids),
    graceMs,
  );
  return reaped;
}
