/**
 * The cross-process advisory lock every writer of config.json takes: the
 * running core, the UI (through the core), and other `mcp-switchboard`
 * processes (install, import, config restore). proper-lockfile makes a
 * `<file>.lock` directory (mkdir is atomic on local and network file
 * systems), refreshes its mtime while held, and treats a lock whose mtime is
 * older than `stale` as left by a killed process and takes it over.
 */
import { mkdir, readdir, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { lock } from 'proper-lockfile';
import { ErrorCode, SwitchboardError } from '../../../../shared/errors.js';

/** A lock not refreshed for this long belongs to a dead process (ms). */
const STALE_MS = 5_000;
/** How often a held lock is refreshed (ms). */
const UPDATE_MS = 1_000;
/** Waiting for the lock: about 15 s in all before giving up. */
const RETRIES = { retries: 150, factor: 1.2, minTimeout: 10, maxTimeout: 100 };

/**
 * Runs `task` while holding the lock on `file` (which need not exist yet).
 * Throws `config_unreadable` naming the file when the lock cannot be had in
 * time (another writer holds it and keeps it fresh), or `signal` aborts.
 */
export async function withFileLock<T>(file: string, task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
  signal?.throwIfAborted();
  let release: () => Promise<void>;
  try {
    await mkdir(dirname(file), { recursive: true });
    release = await lock(file, {
      realpath: false,
      lockfilePath: `${file}.lock`,
      stale: STALE_MS,
      update: UPDATE_MS,
      retries: RETRIES,
      // Held past `stale` (a stalled event loop): another writer may have taken it over. The write
      // in progress still re-read the file under the lock, so nothing is lost; do not crash (the default).
      onCompromised: () => undefined,
    });
  } catch (error) {
    throw new SwitchboardError(
      ErrorCode.ConfigUnreadable,
      `cannot lock ${file} for writing: ${(error as Error).message}; another process keeps it locked. Try again`,
      { path: file },
    );
  }
  try {
    signal?.throwIfAborted();
    return await task();
  } finally {
    await release().catch(() => undefined);
  }
}

/** Whether `name` is a temp file of the atomic writer for `file` (`.<name>.<hex>.tmp`). */
export function isTempOf(file: string, name: string): boolean {
  const base = basename(file);
  return name.startsWith(`.${base}.`) && name.endsWith('.tmp');
}

/**
 * Removes temp files a killed writer left beside `file`. Done under the lock,
 * so a temp file another process is writing right now is never removed.
 */
export async function removeStaleTemps(file: string): Promise<string[]> {
  return withFileLock(file, async () => {
    const directory = dirname(file);
    const names = await readdir(directory).catch(() => [] as string[]);
    const stale = names.filter((name) => isTempOf(file, name));
    await Promise.all(stale.map((name) => rm(join(directory, name), { force: true })));
    return stale;
  });
}
