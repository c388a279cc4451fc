/**
 * Unpacking a checked bundle into its folder: each entry streamed from the
 * zip to disk (never held in memory), into a temporary folder beside the
 * target named `<id>.installing-<pid>-<random>` (installLeftovers.ts), renamed
 * once complete. A refused entry, a passed limit, a write error or an abort
 * removes the temporary folder; nothing half-unpacked is ever the target.
 */
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { basename, dirname, resolve, sep } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { ErrorCode, SwitchboardError } from '../../../../shared/errors.js';
import { walkBundle, type BundleEntry, type BundleSource } from './bundleArchive.js';
import { badEntry, BUNDLE_LIMITS, type BundleLimits } from './bundleLimits.js';
import { installingPath } from './installLeftovers.js';

/** A bundle whose manifest was read and whose entries passed their checks. */
export interface BundleArchive {
  source: BundleSource;
  /** How errors name the bundle (its file name). */
  label: string;
}

/** Owner may always read and write; setuid/setgid/sticky bits are dropped. */
const fileMode = (mode: number | undefined): number => ((mode ?? 0o644) & 0o777) | 0o600;

async function writeEntry(entry: BundleEntry, root: string, label: string, signal?: AbortSignal): Promise<void> {
  signal?.throwIfAborted();
  const path = resolve(root, entry.name);
  // The names were checked already (bundleLimits.ts); this is the last word on where a file lands.
  if (!path.startsWith(root + sep)) throw badEntry(label, entry.name, 'points outside the bundle');
  try {
    if (entry.kind === 'directory') {
      await mkdir(path, { recursive: true });
      return;
    }
    await mkdir(dirname(path), { recursive: true });
    const out = createWriteStream(path, { flags: 'wx', mode: fileMode(entry.mode) });
    await pipeline(await entry.open(), out, ...(signal ? [{ signal }] : []));
  } catch (error) {
    if (error instanceof SwitchboardError || signal?.aborted) throw error;
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw badEntry(label, entry.name, `cannot be written (${code})`);
  }
}

/** Unpacks `archive` into `directory` (replacing it) through a temporary folder beside it. */
export async function unpackInto(
  archive: BundleArchive,
  directory: string,
  options: { signal?: AbortSignal; limits?: BundleLimits } = {},
): Promise<void> {
  const temp = installingPath(dirname(directory), basename(directory));
  const { signal } = options;
  try {
    await mkdir(temp, { recursive: true, mode: 0o700 });
    await walkBundle(archive.source, archive.label, options.limits ?? BUNDLE_LIMITS, (entry) =>
      writeEntry(entry, temp, archive.label, signal),
    );
    signal?.throwIfAborted();
    await rm(directory, { recursive: true, force: true });
    await rename(temp, directory);
  } catch (error) {
    if (signal?.aborted) {
      throw new SwitchboardError(ErrorCode.Cancelled, `${archive.label}: installing was cancelled; not installed`);
    }
    throw error;
  } finally {
    await rm(temp, { recursive: true, force: true });
  }
}
