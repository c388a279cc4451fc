/**
 * Zip files that no zip tool would write, for the bundle-unpacking tests: an
 * entry that declares fewer bytes than it inflates to (a zip bomb that lies),
 * names with `../` or a leading `/`, symbolic links, thousands of entries.
 * Zip libraries refuse to write these (that is the point), so the few
 * records of the format (APPNOTE 4.3: local header, central directory, end
 * record) are laid out here; everything else in tests uses jszip.
 */
import { constants, crc32, deflateRawSync } from 'node:zlib';

/** One entry of a hostile zip. */
export interface HostileEntry {
  name: string;
  /** The stored bytes, deflated (method 8) unless `deflated` is given. */
  data?: Buffer;
  /** Raw deflate bytes to store as they are (with `size` and `crc`). */
  deflated?: Buffer;
  /** The uncompressed size the headers declare (default: the real one). */
  size?: number;
  /** The CRC-32 the headers declare (default: the data's). */
  crc?: number;
  /** Unix mode, type bits included (0o120777 makes a symbolic link); default 0o100644. */
  mode?: number;
}

const UTF8_NAMES = 0x800;
const MADE_BY_UNIX = (3 << 8) | 20;

function localHeader(name: Buffer, crc: number, compressed: number, size: number): Buffer {
  const header = Buffer.alloc(30);
  header.writeUInt32LE(0x04034b50, 0);
  header.writeUInt16LE(20, 4);
  header.writeUInt16LE(UTF8_NAMES, 6);
  header.writeUInt16LE(8, 8);
  header.writeUInt32LE(crc >>> 0, 14);
  header.writeUInt32LE(compressed, 18);
  header.writeUInt32LE(size, 22);
  header.writeUInt16LE(name.length, 26);
  return Buffer.concat([header, name]);
}

function centralHeader(name: Buffer, crc: number, compressed: number, size: number, mode: number, offset: number) {
  const header = Buffer.alloc(46);
  header.writeUInt32LE(0x02014b50, 0);
  header.writeUInt16LE(MADE_BY_UNIX, 4);
  header.writeUInt16LE(20, 6);
  header.writeUInt16LE(UTF8_NAMES, 8);
  header.writeUInt16LE(8, 10);
  header.writeUInt32LE(crc >>> 0, 16);
  header.writeUInt32LE(compressed, 20);
  header.writeUInt32LE(size, 24);
  header.writeUInt16LE(name.length, 28);
  header.writeUInt32LE((mode << 16) >>> 0, 38);
  header.writeUInt32LE(offset, 42);
  return Buffer.concat([header, name]);
}

/** An entry without data, and its deflated form (made once: a zip of 20,001 empty entries is made in ms). */
const EMPTY = Buffer.alloc(0);
const EMPTY_DEFLATED = deflateRawSync(EMPTY);

/** A zip holding `entries` exactly as described (sizes and names unchecked). */
export function hostileZip(entries: HostileEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name);
    const data = entry.data ?? EMPTY;
    const body = entry.deflated ?? (data === EMPTY ? EMPTY_DEFLATED : deflateRawSync(data));
    const size = entry.size ?? data.length;
    const crc = entry.crc ?? crc32(data);
    const local = localHeader(name, crc, body.length, size);
    locals.push(local, body);
    centrals.push(centralHeader(name, crc, body.length, size, entry.mode ?? 0o100644, offset));
    offset += local.length + body.length;
  }
  const central = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(central.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, central, end]);
}

const MiB = 1024 * 1024;

/**
 * Raw deflate bytes that inflate to `mib` MiB of zeros, about 1 KB per MiB:
 * one MiB compressed with a full flush (byte-aligned, no back references
 * across it) repeated, then an empty final block. Built without ever holding
 * the inflated bytes.
 */
export function zerosDeflated(mib: number): Buffer {
  const block = deflateRawSync(Buffer.alloc(MiB), { level: 9, finishFlush: constants.Z_FULL_FLUSH });
  return Buffer.concat([...Array<Buffer>(mib).fill(block), Buffer.from([0x03, 0x00])]);
}
