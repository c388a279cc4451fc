/**
 * Backups of config.json: before each write, the previous file is copied to
 * `<state dir>/backups/config/<8 hex of the config's path>/` (the state dir,
 * not the config dir, so a synced config folder never picks them up), mode
 * 0600, and only the newest {@link KEPT_BACKUPS} are kept. Written under the
 * config's lock (see configLock.ts), so two writers never race on a name.
 */
import { createHash } from 'node:crypto';
import { chmod, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { ErrorCode, SwitchboardError } from '../../../../shared/errors.js';

/** How many backups of one config file are kept. */
export const KEPT_BACKUPS = 20;

/** One kept backup, numbered from 1 (the newest). */
export interface ConfigBackup {
  index: number;
  path: string;
  /** When the file it holds was replaced (ISO time). */
  savedAt: string;
  size: number;
}

/** The directory holding the backups of `configPath`. */
export function backupDirectory(stateDir: string, configPath: string): string {
  const key = createHash('sha256').update(resolve(configPath)).digest('hex').slice(0, 8);
  return join(stateDir, 'backups', 'config', key);
}

/** `2026-12-01T09-30-00-123Z`: sortable, and valid in file names everywhere. */
function stamp(date: Date): string {
  return date.toISOString().replace(/[:.]/g, '-');
}

/** The ISO time back from a backup's file name. */
function timeOf(name: string): string {
  const match = /^(\d{4}-\d\d-\d\dT\d\d)-(\d\d)-(\d\d)-(\d{3})Z/.exec(name);
  return match ? `${match[1]}:${match[2]}:${match[3]}.${match[4]}Z` : '';
}

async function names(directory: string, configPath: string): Promise<string[]> {
  const suffix = `-${basename(configPath)}`;
  const all = await readdir(directory).catch(() => [] as string[]);
  return all.filter((name) => name.endsWith(suffix) && timeOf(name) !== '').sort();
}

/** Keeps `text` (the file about to be replaced) as the newest backup, and prunes the oldest past the limit. */
export async function keepBackup(stateDir: string, configPath: string, text: string): Promise<string> {
  const directory = backupDirectory(stateDir, configPath);
  await mkdir(directory, { recursive: true, mode: 0o700 });
  const prefix = stamp(new Date());
  const existing = new Set(await names(directory, configPath));
  let n = 1;
  const nameFor = (k: number) => `${prefix}-${String(k).padStart(3, '0')}-${basename(configPath)}`;
  while (existing.has(nameFor(n))) n++;
  const target = join(directory, nameFor(n));
  // The config may name secrets and hold header values: readable by the user only.
  await writeFile(target, text, { mode: 0o600 });
  await chmod(target, 0o600);
  const all = await names(directory, configPath);
  await Promise.all(all.slice(0, Math.max(0, all.length - KEPT_BACKUPS)).map((name) => rm(join(directory, name))));
  return target;
}

/** The kept backups of `configPath`, newest first. */
export async function listBackups(stateDir: string, configPath: string): Promise<ConfigBackup[]> {
  const directory = backupDirectory(stateDir, configPath);
  const found = (await names(directory, configPath)).reverse();
  return Promise.all(
    found.map(async (name, i) => {
      const path = join(directory, name);
      return { index: i + 1, path, savedAt: timeOf(name), size: (await stat(path)).size };
    }),
  );
}

/** The text of backup `index` (1: the newest); `unknown_backup`-style error when there is none. */
export async function readBackup(
  stateDir: string,
  configPath: string,
  index: number,
): Promise<ConfigBackup & { text: string }> {
  const backups = await listBackups(stateDir, configPath);
  const backup = backups.find((candidate) => candidate.index === index);
  if (!backup) {
    throw new SwitchboardError(
      ErrorCode.InvalidParams,
      backups.length === 0
        ? `there are no backups of ${configPath} yet`
        : `no backup ${index} of ${configPath}: there are ${backups.length} (1 is the newest)`,
      { path: configPath, index },
    );
  }
  return { ...backup, text: await readFile(backup.path, 'utf8') };
}
