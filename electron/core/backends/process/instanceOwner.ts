/**
 * Which Switchboard started a backend process: every stdio backend's
 * processes inherit `SWITCHBOARD_OWNER=<config>:<pid>:<start>`, the config
 * file it serves (a hash of its path), the PID of the Switchboard process and
 * that process's start time (so a PID reused by another program is not taken
 * for it). After a `kill -9` of serve, the backends that do not exit when
 * their stdin closes keep running with this value; the next start of the same
 * config finds them by it (orphanReaper.ts), and tells a dead owner from a
 * live one (another serve of the same config, running) by PID and start time.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { isProcessAlive } from './processTree.js';

/** The variable every stdio backend's processes inherit; its value names the Switchboard that started them. */
export const OWNER_MARKER = 'SWITCHBOARD_OWNER';

/** One Switchboard process: the config it serves, its PID and its start time. */
export interface InstanceOwner {
  config: string;
  pid: number;
  started: string;
}

let claimed: string | undefined;

/** The config file's key in owner values (a hash of its absolute path: no path in the environment). */
export function configKey(configPath: string): string {
  return createHash('sha256').update(resolve(configPath)).digest('hex').slice(0, 16);
}

/** When process `pid` started (clock ticks since boot, from /proc; '0' where there is no /proc). */
export function startTimeOf(pid: number): string | undefined {
  if (process.platform !== 'linux') return '0';
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which is in parentheses and may hold spaces; starttime is field 22.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

/** Marks this process as the owner of the backends it starts from now on, for `configPath`; returns the value. */
export function claimOwnership(configPath: string): string {
  claimed = `${configKey(configPath)}:${process.pid}:${startTimeOf(process.pid) ?? '0'}`;
  return claimed;
}

/** The variables a backend process gets: the owner marker, once claimed (none before: tests' own cores). */
export function ownerEnv(): Record<string, string> {
  return claimed === undefined ? {} : { [OWNER_MARKER]: claimed };
}

/** An owner value read back, or undefined when it is not one. */
export function parseOwner(value: string): InstanceOwner | undefined {
  const match = /^([0-9a-f]{16}):(\d+):(\d+)$/.exec(value);
  return match ? { config: match[1]!, pid: Number(match[2]), started: match[3]! } : undefined;
}

/** Whether the Switchboard named by `owner` still runs (the same PID, started at the same time). */
export function ownerRuns(owner: InstanceOwner): boolean {
  if (owner.pid === process.pid) return true;
  return isProcessAlive(owner.pid) && startTimeOf(owner.pid) === owner.started;
}
