/**
 * Reaping everything a stdio backend started, even after it crashed. Each
 * backend runs in its own process group (spawned detached: setsid on POSIX),
 * and every process of it inherits a marker variable naming its instance.
 * Once the backend dies its children are re-parented, so its tree can no
 * longer be walked from its PID; what is reaped then is:
 * - its process group (children that did not leave it),
 * - on Linux, every process whose environment carries the marker (children
 *   that called setsid left the group but kept the variable),
 * - the tree recorded while it was alive (elsewhere, where /proc is absent).
 */
import { readdir, readFile } from 'node:fs/promises';
import { isProcessAlive, processTree } from './processTree.js';

/** The variable each stdio backend's processes inherit; its value names one instance. */
export const INSTANCE_MARKER = 'SWITCHBOARD_BACKEND_INSTANCE';

function signal(target: number, name: NodeJS.Signals): void {
  try {
    process.kill(target, name);
  } catch {
    // Gone already (ESRCH), or not ours.
  }
}

/** PIDs of live processes whose environment has `INSTANCE_MARKER=value` (Linux; [] elsewhere). */
export async function markedProcesses(value: string): Promise<number[]> {
  if (process.platform !== 'linux') return [];
  const needle = Buffer.from(`${INSTANCE_MARKER}=${value}\0`);
  let entries: string[];
  try {
    entries = await readdir('/proc');
  } catch {
    return [];
  }
  const found: number[] = [];
  await Promise.all(
    entries
      .filter((entry) => /^\d+$/.test(entry) && Number(entry) !== process.pid)
      .map(async (entry) => {
        try {
          const environ = await readFile(`/proc/${entry}/environ`);
          if (environ.includes(needle)) found.push(Number(entry));
        } catch {
          // Not ours (EACCES) or gone.
        }
      }),
  );
  return found.filter(isProcessAlive);
}

/** What is known of one backend's processes. */
export interface BackendProcesses {
  /** The backend's PID, which is also its process group's ID (POSIX). */
  pid: number;
  /** Whether it leads its own process group (spawned detached on POSIX). */
  ownGroup: boolean;
  /** Its `INSTANCE_MARKER` value. */
  marker: string;
  /** Its tree as last recorded while it was alive. */
  recorded: number[];
}

/** Everything of the backend still alive: its tree now, marked processes and the recorded tree. */
export async function backendPids(backend: BackendProcesses): Promise<number[]> {
  const [tree, marked] = await Promise.all([processTree(backend.pid), markedProcesses(backend.marker)]);
  return [...new Set([...tree, ...marked, ...backend.recorded])].filter(isProcessAlive);
}

/**
 * SIGTERM to the group and to every process found, up to `graceMs` to exit,
 * then SIGKILL for what is left (the group is signalled again: members may
 * have been started meanwhile).
 */
export async function reapBackend(backend: BackendProcesses, graceMs = 2000): Promise<void> {
  const pids = await backendPids(backend);
  const group = backend.ownGroup ? -backend.pid : undefined;
  if (group !== undefined) signal(group, 'SIGTERM');
  for (const pid of pids) signal(pid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline && pids.some(isProcessAlive)) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  if (group !== undefined) signal(group, 'SIGKILL');
  for (const pid of pids) if (isProcessAlive(pid)) signal(pid, 'SIGKILL');
  // Children started between the listing and the signals: one more sweep by marker.
  for (const pid of await markedProcesses(backend.marker)) signal(pid, 'SIGKILL');
}
