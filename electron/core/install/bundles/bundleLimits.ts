/**
 * What a bundle may unpack to, and the checks every zip entry passes before
 * a byte of it is inflated. A .mcpb is someone else's zip: a few hundred KB
 * can inflate to gigabytes (a zip bomb), an entry can name `../../.bashrc` or
 * `/etc/x` (zip slip), or be a symbolic link pointing anywhere. The declared
 * sizes in the central directory are checked first; the bytes actually
 * inflated are counted again while unpacking, since a zip can lie about them.
 */
import { ErrorCode, SwitchboardError } from '../../../../shared/errors.js';

/** The bounds of one bundle's contents. */
export interface BundleLimits {
  /** Entries (files and folders) in the zip. */
  maxEntries: number;
  /** Bytes one entry may inflate to. */
  maxEntryBytes: number;
  /** Bytes all entries together may inflate to. */
  maxTotalBytes: number;
  /** Bytes manifest.json may have (it is read into memory). */
  maxManifestBytes: number;
}

const MiB = 1024 * 1024;

/**
 * Real bundles hold a server and its dependencies: a Node server with its
 * node_modules is a few MB and a few thousand files, a Python one with
 * vendored wheels a few hundred MB at most.
 */
export const BUNDLE_LIMITS: BundleLimits = {
  maxEntries: 20_000,
  maxEntryBytes: 256 * MiB,
  maxTotalBytes: 512 * MiB,
  maxManifestBytes: 1 * MiB,
};

/** What a zip entry is, from its name and its Unix mode bits. */
export type EntryKind = 'file' | 'directory' | 'symlink' | 'special';

const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;
const S_IFLNK = 0o120000;
/** `versionMadeBy`'s high byte for Unix (the only system whose mode bits we read). */
const MADE_BY_UNIX = 3;

/** The Unix mode of an entry made on Unix, else undefined. */
export function unixMode(versionMadeBy: number, externalFileAttributes: number): number | undefined {
  if (versionMadeBy >> 8 !== MADE_BY_UNIX) return undefined;
  const mode = externalFileAttributes >>> 16;
  return mode === 0 ? undefined : mode;
}

/** The entry's kind: a name ending in `/` is a folder; Unix mode bits tell links and devices apart. */
export function entryKind(name: string, mode: number | undefined): EntryKind {
  const type = (mode ?? 0) & S_IFMT;
  if (type === S_IFLNK) return 'symlink';
  if (type !== 0 && type !== S_IFREG && type !== S_IFDIR) return 'special';
  return name.endsWith('/') || type === S_IFDIR ? 'directory' : 'file';
}

/** A bundle refused for an entry it holds, naming the entry. */
export function badEntry(label: string, name: string, why: string): SwitchboardError {
  return new SwitchboardError(ErrorCode.BundleInvalid, `${label}: entry "${name}" ${why}; not installed`, {
    field: '(file)',
    entry: name,
  });
}

/** A bundle refused for a limit it passes. */
export function tooLarge(label: string, limit: keyof BundleLimits, why: string): SwitchboardError {
  return new SwitchboardError(ErrorCode.BundleTooLarge, `${label}: ${why}; not installed`, { field: '(file)', limit });
}

/** Why an entry name cannot be unpacked safely (absolute, `..`, empty), or undefined when it can. */
export function unsafeName(name: string): string | undefined {
  if (name === '' || name === '/') return 'has no name';
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name)) return 'is an absolute path';
  if (name.split('/').includes('..')) return 'points outside the bundle (`..`)';
  if (name.includes('\0')) return 'has a NUL character in its name';
  return undefined;
}

/** Refuses an entry whose name or kind is unsafe (see the module comment). */
export function checkEntryName(label: string, name: string, kind: EntryKind): void {
  const why = unsafeName(name);
  if (why) throw badEntry(label, name, why);
  if (kind === 'symlink') throw badEntry(label, name, 'is a symbolic link; a bundle may hold only files and folders');
  if (kind === 'special')
    throw badEntry(label, name, 'is a device, pipe or socket; a bundle may hold only files and folders');
}

const mb = (bytes: number): string => `${Math.round((bytes / MiB) * 10) / 10} MB`;

/** Keeps count of entries and declared or inflated bytes, refusing what passes a limit. */
export class UnpackBudget {
  private entries = 0;
  private total = 0;

  constructor(
    private readonly label: string,
    private readonly limits: BundleLimits,
  ) {}

  /** The zip's own entry count, before any entry is read. */
  checkCount(count: number): void {
    if (count > this.limits.maxEntries) {
      throw tooLarge(
        this.label,
        'maxEntries',
        `${count} entries, more than the ${this.limits.maxEntries} a bundle may hold`,
      );
    }
  }

  /** One more entry. */
  countEntry(): void {
    this.entries += 1;
    this.checkCount(this.entries);
  }

  /** `bytes` more of entry `name`, which holds `entryBytes` so far (declared or inflated). */
  add(name: string, bytes: number, entryBytes: number): void {
    this.total += bytes;
    if (entryBytes > this.limits.maxEntryBytes) {
      throw tooLarge(
        this.label,
        'maxEntryBytes',
        `entry "${name}" unpacks to more than ${mb(this.limits.maxEntryBytes)}, the most one entry may have`,
      );
    }
    if (this.total > this.limits.maxTotalBytes) {
      throw tooLarge(
        this.label,
        'maxTotalBytes',
        `its files unpack to more than ${mb(this.limits.maxTotalBytes)}, the most a bundle may have`,
      );
    }
  }
}
