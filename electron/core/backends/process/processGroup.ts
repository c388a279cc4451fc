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
import { batched, isProcessAlive, LISTING_BATCH_MS, processTree } from './processTree.js';

/** The variable each stdio backend's processes inherit; its value names one instance. */
export const INSTANCE_MARKER = 'SWITCHBOARD_BACKEND_INSTANCE';

function signal(target: number, name: NodeJS.Signals): void {
  try {
    process.kill(target, name);
  } catch {
    // Gone already (ESRCH), or not ours.
  }
}

/** Each marker value found in a process's environment, with the PIDs carrying it (Linux). */
async function markedTable(): Promise<Map<string, number[]>> {
  const table = new Map<string, number[]>();
  let entries: string[];
  try {
    entries = await readdir('/proc');
  } catch {
    return table;
  }
  const prefix = Buffer.from(`\0${INSTANCE_MARKER}=`);
  await Promise.all(
    entries
      .filter((entry) => /^\d+$/.test(entry) && Number(entry) !== process.pid)
      .map(async (entry) => {
        try {
          // A leading NUL so that the first variable is found like the others.
          const environ = Buffer.concat([Buffer.from([0]), await readFile(`/proc/${entry}/environ`)]);
          const at = environ.indexOf(prefix);
          if (at < 0) return;
          const start = at + prefix.length;
          const end = environ.indexOf(0, start);
          const value = environ.toString('utf8', start, end < 0 ? environ.length : end);
          const carriers = table.get(value);
          if (carriers) carriers.push(Number(entry));
          else table.set(value, [Number(entry)]);
        } catch {
          // Not ours (EACCES) or gone.
        }
      }),
  );
  return table;
}

/** One scan of every environment for the callers of one batch (processTree.ts's `batched`). */
const markedProcessTable = batched(markedTable, LISTING_BATCH_MS);

/** PIDs of live processes whose environment has `INSTANCE_MARKER=value` (Linux; [] elsewhere). */
export async function markedProcesses(value: string): Promise<number[]> {
  if (process.platform !== 'linux') return [];
  return ((await markedProcessTable()).get(value) ?? []).filter(isProcessAlive);
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
