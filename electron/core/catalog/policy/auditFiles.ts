/**
 * The audit log's files: `audit.jsonl` (active) and `audit.1.jsonl` ...
 * `audit.<files>.jsonl` (older). Before a line would take the active file over
 * its cap, the files shift up by one and the oldest is deleted, so the total
 * never exceeds `(files + 1) * fileBytes`. Not safe for concurrent calls: the
 * audit log runs every call on one chain.
 */
import { Buffer } from 'node:buffer';
import { mkdir, open, readdir, readFile, rename, rm, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';

/** A set of size-capped, rotated JSON Lines files in one directory. */
export class RotatingFiles {
  private handle: FileHandle | undefined;
  /** Bytes in the active file. */
  private size = 0;
  private cleaned = false;

  /**
   * @param dir created with mode 0700 on the first write
   * @param files rotated files kept besides the active one
   * @param fileBytes cap of each file
   */
  constructor(
    private readonly dir: string,
    private readonly files: number,
    private readonly fileBytes: number,
  ) {}

  /** Appends whole lines (each ending in a newline), rotating as needed. */
  async append(lines: readonly string[]): Promise<void> {
    await this.open(); // learn the active file's size before deciding where lines go
    let chunk = '';
    let chunkBytes = 0;
    const write = async (): Promise<void> => {
      if (chunk) await (await this.open()).appendFile(chunk, 'utf8');
      this.size += chunkBytes;
      chunk = '';
      chunkBytes = 0;
    };
    for (const line of lines) {
      const bytes = Buffer.byteLength(line);
      if (this.size + chunkBytes + bytes > this.fileBytes && this.size + chunkBytes > 0) {
        await write();
        await this.rotate();
        await this.open();
      }
      chunk += line;
      chunkBytes += bytes;
    }
    await write();
  }

  /** The text of each file, newest file first; missing files are skipped. */
  async *texts(): AsyncGenerator<string> {
    for (let index = 0; index <= this.files; index++) {
      try {
        yield await readFile(this.path(index), 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    }
  }

  /** Flushes the active file to disk. */
  async sync(): Promise<void> {
    await this.handle?.datasync();
  }

  /** Closes the active file (it is reopened by the next append). */
  async close(): Promise<void> {
    const handle = this.handle;
    this.handle = undefined;
    await handle?.close();
  }

  private async open(): Promise<FileHandle> {
    if (this.handle) return this.handle;
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    if (!this.cleaned) await this.removeExtraFiles();
    this.cleaned = true;
    const handle = await open(this.path(0), 'a+', 0o600);
    try {
      await handle.chmod(0o600); // a file left by an older run may have other permissions
      let { size } = await handle.stat();
      if (size > 0) {
        // A crash mid-write leaves a partial last line; end it, so the next entry is not glued onto it.
        const last = Buffer.alloc(1);
        await handle.read(last, 0, 1, size - 1);
        if (last[0] !== 0x0a) {
          await handle.appendFile('\n');
          size++;
        }
      }
      this.size = size;
    } catch (error) {
      await handle.close();
      throw error;
    }
    this.handle = handle;
    return handle;
  }

  /** Removes rotated files beyond `files` (left by a run with a higher setting), which would break the cap. */
  private async removeExtraFiles(): Promise<void> {
    for (const name of await readdir(this.dir)) {
      const match = /^audit\.(\d+)\.jsonl$/.exec(name);
      if (match && Number(match[1]) > this.files) await rm(join(this.dir, name), { force: true });
    }
  }

  private async rotate(): Promise<void> {
    await this.close();
    await rm(this.path(this.files), { force: true });
    for (let index = this.files - 1; index >= 0; index--) {
      await rename(this.path(index), this.path(index + 1)).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error;
      });
    }
  }

  private path(index: number): string {
    return join(this.dir, index === 0 ? 'audit.jsonl' : `audit.${index}.jsonl`);
  }
}
