import { readdirSync, readFileSync } from 'node:fs';
// Process-tree helpers for integration tests: find descendants, check liveness, poll until true.
import pidtree from 'pidtree';
import { isProcessAlive } from '../../electron/core/backends/index.js';

/** PIDs of every descendant of `pid` (children, grandchildren, ...); [] if none or `pid` is gone. */
export async function descendantPids(pid: number): Promise<number[]> {
  try {
    const pids = await pidtree(pid);
    // pidtree lists processes by running `ps`, which is itself our descendant for a moment.
    return pids.filter((child) => !isPsProcess(child) && isProcessAlive(child));
  } catch (err) {
    // pidtree rejects with "No matching pid found" when `pid` does not exist.
    if (err instanceof Error && /no matching pid/i.test(err.message)) return [];
    throw err;
  }
}

/** Whether `pid` is a live process (zombies count as dead): the core's own check. */
export { isProcessAlive as isAlive };

export interface WaitUntilOptions {
  /** Give up after this many milliseconds (default 5000). */
  timeoutMs?: number;
  /** Poll every this many milliseconds (default 50). */
  intervalMs?: number;
  /** Included in the timeout error to say what was awaited. */
  description?: string;
}

/**
 * Polls `predicate` until it returns true. Rejects with a descriptive error after `timeoutMs`;
 * an exception thrown by the predicate is remembered and reported on timeout (it does not stop polling).
 */
export async function waitUntil(
  predicate: () => boolean | Promise<boolean>,
  { timeoutMs = 5000, intervalMs = 50, description }: WaitUntilOptions = {},
): Promise<void> {
  const started = Date.now();
  let lastError: unknown;
  for (;;) {
    try {
      if (await predicate()) return;
      lastError = undefined;
    } catch (err) {
      lastError = err;
    }
    const elapsed = Date.now() - started;
    if (elapsed >= timeoutMs) {
      const what = description ?? predicate.toString().replace(/\s+/g, ' ').slice(0, 200);
      const cause =
        lastError === undefined
          ? ''
          : `; last error: ${lastError instanceof Error ? lastError.message : String(lastError)}`;
      throw new Error(`waitUntil timed out after ${timeoutMs}ms waiting for: ${what}${cause}`);
    }
    await new Promise((resolve) => setTimeout(resolve, Math.min(intervalMs, timeoutMs - elapsed)));
  }
}

function isPsProcess(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'ps';
  } catch {
    return true; // gone already: a short-lived process such as that `ps`
  }
}

/** PIDs of live processes (ours) whose environment has `name=value` (Linux /proc; [] elsewhere). */
export function processesWithEnv(name: string, value: string): number[] {
  if (process.platform !== 'linux') return [];
  const needle = Buffer.from(`${name}=${value}\0`);
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/environ`).includes(needle) && isProcessAlive(Number(entry))) {
        found.push(Number(entry));
      }
    } catch {
      // gone, or not ours
    }
  }
  return found;
}
