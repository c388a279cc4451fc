// A child process's CPU time from Linux /proc, for the benchmarks' "CPU per call": less noisy than
// throughput on a shared machine, since time spent waiting for a core is not counted.
import { readFileSync } from 'node:fs';

/** A process's CPU time so far, µs. */
export interface CpuTime {
  user: number;
  system: number;
}

/** USER_HZ: /proc/<pid>/stat counts clock ticks of 10 ms. */
const TICK_US = 10_000;

/** The CPU time `pid` has used so far (Linux: /proc/<pid>/stat; zero where there is none). */
export function cpuTime(pid: number): CpuTime {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return { user: 0, system: 0 };
  }
  // The fields after the command name, which may itself hold spaces and parentheses.
  const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
  return { user: Number(fields[11]) * TICK_US, system: Number(fields[12]) * TICK_US };
}

/** µs of CPU (user + system) `pid` used since `was`. */
export function cpuSince(pid: number, was: CpuTime): number {
  const now = cpuTime(pid);
  return now.user - was.user + (now.system - was.system);
}
