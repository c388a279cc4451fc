/**
 * Writing a file atomically: a sibling temp file (`.<name>.<hex>.tmp`, mode
 * 0600), flushed, then renamed over the file, so a crash or a failed write
 * leaves the previous file intact (a killed writer may leave the temp file;
 * see configLock.ts `removeStaleTemps`).
 */
import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** The file-system steps of an atomic write, injectable to test a failing disk. */
export interface AtomicWriter {
  write(path: string, text: string): Promise<void>;
}

/** Writes `text` to a sibling temp file, flushes it, then renames it over `path`. */
export const fileWriter: AtomicWriter = {
  async write(path, text) {
    await mkdir(dirname(path), { recursive: true });
    const temp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
    try {
      const handle = await open(temp, 'w', 0o600);
      try {
        await handle.writeFile(text, 'utf8');
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(temp, path);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  },
};
