/**
 * Backend servers run one step below the core's CPU priority. `serve` is what
 * every client talks to: while thirty servers load their modules at start it
 * must still answer a `tools/list` from the cached catalog at once. A lower
 * priority costs a server nothing on an idle core (it only loses to
 * normal-priority work when the CPU is contended), and children of children
 * inherit it (an `npx` server's real process too).
 */
import { setPriority } from 'node:os';

/**
 * The nice value of backend servers (POSIX; Windows maps it to "below normal").
 * At 10 a normal-priority process gets about nine times a niced one's CPU share
 * when both want the core (the Linux scheduler's weights: 1024 against 110).
 */
export const BACKEND_NICE = 10;

/** Lowers the CPU priority of a just-spawned server; a failure (a process already gone) is ignored. */
export function lowerPriority(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    setPriority(pid, BACKEND_NICE);
  } catch {
    // ESRCH (exited at once) or EACCES (not ours): it runs at the default priority, nothing else changes.
  }
}
