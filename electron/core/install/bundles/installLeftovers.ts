/**
 * Folders and files an install writes before it is complete (an unpacking
 * bundle, a downloaded or uploaded .mcpb) carry the writing process's pid in
 * their name, `<name>.installing-<pid>-<random>`. A failed or cancelled
 * install removes its own; one killed outright (SIGKILL, a crash, power) cannot,
 * so the next install and the next start remove those whose process is gone,
 * and never one a live process (another CLI, a running serve) is still writing.
 */
import { randomBytes } from 'node:crypto';
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';

const LEFTOVER = /\.installing-(\d+)-[0-9a-f]{8}$/;

/** A path in `directory` for `name` while this process writes it. */
export function installingPath(directory: string, name: string): string {
  return join(directory, `${name}.installing-${process.pid}-${randomBytes(4).toString('hex')}`);
}

/** Whether process `pid` runs (EPERM: it runs, as another user). */
function running(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes what killed installs left in `directory`; returns the names removed. */
export async function removeInstallLeftovers(directory: string): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(directory);
  } catch {
    return []; // no such folder yet: nothing was ever installed there
  }
  const removed: string[] = [];
  for (const name of names) {
    const pid = LEFTOVER.exec(name)?.[1];
    if (pid === undefined || running(Number(pid))) continue;
    await rm(join(directory, name), { recursive: true, force: true });
    removed.push(name);
  }
  return removed;
}

/** The folders of `stateDir` installs write into (bundles/, downloads/). */
export function installFolders(stateDir: string): string[] {
  return [join(stateDir, 'bundles'), join(stateDir, 'downloads')];
}

/** Removes killed installs' leftovers from every install folder of `stateDir`; returns the paths removed. */
export async function sweepInstallLeftovers(stateDir: string): Promise<string[]> {
  const removed: string[] = [];
  for (const folder of installFolders(stateDir)) {
    for (const name of await removeInstallLeftovers(folder)) removed.push(join(folder, name));
  }
  return removed;
}
