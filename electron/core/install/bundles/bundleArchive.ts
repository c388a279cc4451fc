/**
 * Reading a bundle's zip one entry at a time (yauzl: the central directory
 * first, each entry's bytes streamed only when asked for), so nothing but the
 * manifest is ever held in memory. Every entry passes the checks of
 * bundleLimits.ts (name, kind, declared size, count) before its visitor runs;
 * the bytes an entry really inflates to are counted as they stream, and an
 * entry that inflates to more or fewer bytes than it declares is refused.
 */
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import type * as Yauzl from 'yauzl';
import { ErrorCode, SwitchboardError } from '../../../../shared/errors.js';
import { lazyRequire } from '../../platform/env/lazyRequire.js';
import {
  badEntry,
  checkEntryName,
  entryKind,
  tooLarge,
  unixMode,
  UnpackBudget,
  type BundleLimits,
} from './bundleLimits.js';
import type { EntryKind } from './bundleLimits.js';

/** yauzl, loaded with the first bundle read (not on every start). */
const yauzl = lazyRequire<typeof Yauzl>('yauzl');

/** Where a bundle's bytes are: a file (streamed from disk) or an upload already in memory. */
export type BundleSource = { path: string } | { bytes: Buffer };

/** One checked entry, and how to stream its inflated bytes (counted against the budget). */
export interface BundleEntry {
  name: string;
  kind: EntryKind;
  /** Unix permission bits, when the zip was made on Unix. */
  mode: number | undefined;
  declaredBytes: number;
  /** The entry's inflated bytes; fails once they pass what it declares or a limit. */
  open(): Promise<Readable>;
}

const OPTIONS: Yauzl.Options = {
  lazyEntries: true,
  autoClose: true,
  // Names are decoded and checked here (yauzl's own check throws a bare Error without the entry's name).
  decodeStrings: false,
  // Sizes are counted here too, to name the entry that lies.
  validateEntrySizes: false,
};

async function openZip(source: BundleSource, label: string): Promise<Yauzl.ZipFile> {
  try {
    return 'path' in source
      ? await yauzl().openPromise(source.path, OPTIONS)
      : await yauzl().fromBufferPromise(source.bytes, OPTIONS);
  } catch (error) {
    throw new SwitchboardError(ErrorCode.BundleInvalid, `${label} is not a zip file (${(error as Error).message})`, {
      field: '(file)',
    });
  }
}

function nameOf(entry: Yauzl.Entry): string {
  return yauzl().getFileNameLowLevel(entry.generalPurposeBitFlag, entry.fileNameRaw, entry.extraFields, false);
}

/** Counts an entry's inflated bytes against what it declares and the bundle's budget. */
class CountingStream extends Transform {
  private seen = 0;

  constructor(
    private readonly label: string,
    private readonly name: string,
    private readonly declared: number,
    private readonly budget: UnpackBudget,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.seen += chunk.length;
    if (this.seen > this.declared) {
      done(badEntry(this.label, this.name, `inflates to more than the ${this.declared} bytes it declares`));
      return;
    }
    try {
      this.budget.add(this.name, chunk.length, this.seen);
    } catch (error) {
      done(error as Error);
      return;
    }
    done(null, chunk);
  }

  override _flush(done: TransformCallback): void {
    if (this.seen < this.declared) {
      done(badEntry(this.label, this.name, `inflates to ${this.seen} bytes, not the ${this.declared} it declares`));
      return;
    }
    done();
  }
}

/** A yauzl failure as ours (a damaged zip); ours pass through. */
function asBundleError(error: unknown, label: string): SwitchboardError {
  if (error instanceof SwitchboardError) return error;
  return new SwitchboardError(
    ErrorCode.BundleInvalid,
    `${label}: the zip is damaged (${(error as Error).message}); not installed`,
    {
      field: '(file)',
    },
  );
}

function describeEntry(zip: Yauzl.ZipFile, entry: Yauzl.Entry, label: string, inflated: UnpackBudget): BundleEntry {
  const name = nameOf(entry);
  const mode = unixMode(entry.versionMadeBy, entry.externalFileAttributes);
  const declaredBytes = entry.uncompressedSize;
  return {
    name,
    kind: entryKind(name, mode),
    mode,
    declaredBytes,
    open: async () => {
      const raw = await zip.openReadStreamPromise(entry);
      const counted = new CountingStream(label, name, declaredBytes, inflated);
      raw.on('error', (error) => counted.destroy(asBundleError(error, label)));
      return raw.pipe(counted);
    },
  };
}

/**
 * Calls `visit` with each entry of the bundle in turn, once the entry passed
 * its checks; the declared sizes are added up as it goes, the inflated bytes
 * as they stream. The zip is closed when done or refused.
 */
export async function walkBundle(
  source: BundleSource,
  label: string,
  limits: BundleLimits,
  visit: (entry: BundleEntry) => Promise<void>,
): Promise<void> {
  const zip = await openZip(source, label);
  const declared = new UnpackBudget(label, limits);
  const inflated = new UnpackBudget(label, limits);
  const names = new Set<string>();
  try {
    declared.checkCount(zip.entryCount);
    for await (const raw of zip.eachEntry()) {
      const entry = describeEntry(zip, raw, label, inflated);
      declared.countEntry();
      checkEntryName(label, entry.name, entry.kind);
      if (raw.isEncrypted()) throw badEntry(label, entry.name, 'is encrypted');
      const key = entry.name.replace(/\/+$/, '');
      if (names.has(key)) throw badEntry(label, entry.name, 'is in the zip twice');
      names.add(key);
      declared.add(entry.name, entry.declaredBytes, entry.declaredBytes);
      await visit(entry);
    }
  } catch (error) {
    throw asBundleError(error, label);
  } finally {
    zip.close();
  }
}

/** An entry's bytes in memory, refused past `max` (manifest.json). */
export async function entryText(entry: BundleEntry, label: string, max: number): Promise<string> {
  if (entry.declaredBytes > max) {
    throw tooLarge(label, 'maxManifestBytes', `entry "${entry.name}" is more than ${max} bytes`);
  }
  const chunks: Buffer[] = [];
  for await (const chunk of await entry.open()) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
