/**
 * CPU time used so far by a starting server's processes, and whether one of
 * them is runnable now, from Linux's /proc (proc(5): `/proc/<pid>/stat`, its
 * state, process group, and utime and stime in clock ticks). A stdio server runs in its own process group (setsid, see
 * stdioTransport.ts), so its group is the whole tree, `npx`'s real server
 * included, even once a grandchild is re-parented. Elsewhere there is no
 * /proc and nothing is known (undefined).
 */
import { readdirSync, readFileSync } from 'node:fs';

/** USER_HZ: the kernel reports times in 1/100 s on every Linux architecture Node runs on. */
const TICKS_PER_SECOND = 100;

/** Whether this platform lets us read other processes' CPU time. */
export const CPU_TIMES_AVAILABLE = process.platform === 'linux';

/** What one process group is doing. */
export interface GroupCpu {
  /** utime + stime of its live processes (ms). */
  cpuMs: number;
  /** One of them is running or waiting for a CPU (state R): busy, even if starved by a busier machine. */
  runnable: boolean;
}

interface Stat extends GroupCpu {
  group: number;
}

/** State, pgrp and utime + stime (ms) of one process, or undefined when it is gone. */
function statOf(pid: string): Stat | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // "pid (comm) state ppid pgrp ...": comm may hold spaces and parentheses, so split after the last ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  // After comm: [0] state, [1] ppid, [2] pgrp, ..., [11] utime, [12] stime.
  return {
    runnable: fields[0] === 'R',
    group: Number(fields[2]),
    cpuMs: ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND,
  };
}

/**
 * CPU ms used so far by each leader's process group (leaders are the servers'
 * PIDs), and whether one of its processes is runnable: one pass over the
 * process table, whatever the number of leaders.
 * A group with no process left is absent.
 */
export function groupCpu(leaders: Iterable<number>): Map<number, GroupCpu> {
  const result = new Map<number, GroupCpu>();
  const wanted = new Set(leaders);
  if (!CPU_TIMES_AVAILABLE || wanted.size === 0) return result;
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return result;
  }
  for (const entry of entries) {
    const first = entry.charCodeAt(0);
    if (first < 48 || first > 57) continue; // not a PID directory
    const stat = statOf(entry);
    if (!stat || !wanted.has(stat.group)) continue;
    const sum = result.get(stat.group);
    if (sum) {
      sum.cpuMs += stat.cpuMs;
      sum.runnable ||= stat.runnable;
    } else result.set(stat.group, { cpuMs: stat.cpuMs, runnable: stat.runnable });
  }
  return result;
}
