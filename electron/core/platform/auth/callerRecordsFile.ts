/**
 * Sealed per-caller records in one file under the state dir
 * (`caller-credentials.json`, mode 0600, written atomically): per backend,
 * each caller's tokens and the client registered with its authorization
 * server. Caller keys and backend IDs are in clear (they are not secrets);
 * the records are JWEs. The file is read again when it changed on disk
 * (another process, e.g. a restore), found by its modification time.
 */
import { readFile, stat } from 'node:fs/promises';
import { fileWriter, type AtomicWriter } from '../config/atomicWriter.js';
import type { CallerRecords } from './callerRecords.js';

interface StoreFile {
  version: 1;
  /** backend ID -> caller key -> sealed tokens. */
  tokens: Record<string, Record<string, string>>;
  /** backend ID -> sealed client registration. */
  clients: Record<string, string>;
}

const emptyFile = (): StoreFile => ({ version: 1, tokens: {}, clients: {} });

/** The records in the file at `path`. */
export class CallerRecordsFile implements CallerRecords {
  private file: StoreFile | undefined;
  /** The modification time of the file as last read or written (undefined: none on disk). */
  private seen: number | undefined;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    readonly path: string,
    private readonly writer: AtomicWriter = fileWriter,
  ) {}

  private async modified(): Promise<number | undefined> {
    return (await stat(this.path).catch(() => undefined))?.mtimeMs;
  }

  private async load(): Promise<StoreFile> {
    const modified = await this.modified();
    if (this.file && modified === this.seen) return this.file;
    let parsed: StoreFile = emptyFile();
    try {
      const raw = JSON.parse(await readFile(this.path, 'utf8')) as Partial<StoreFile>;
      parsed = { version: 1, tokens: raw.tokens ?? {}, clients: raw.clients ?? {} };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    this.file = parsed;
    this.seen = modified;
    return parsed;
  }

  /** Saves the file after `change` (changes are applied and written one at a time). */
  private async update(change: (file: StoreFile) => void): Promise<void> {
    const run = this.writing.then(async () => {
      const file = await this.load();
      change(file);
      await this.writer.write(this.path, `${JSON.stringify(file, null, 2)}\n`);
      this.seen = await this.modified();
    });
    this.writing = run.catch(() => undefined);
    return run;
  }

  async token(backend: string, caller: string): Promise<string | undefined> {
    return (await this.load()).tokens[backend]?.[caller];
  }

  async saveToken(backend: string, caller: string, sealed: string): Promise<void> {
    await this.update((file) => {
      file.tokens[backend] = { ...file.tokens[backend], [caller]: sealed };
    });
  }

  async deleteToken(backend: string, caller: string): Promise<void> {
    await this.update((file) => {
      const callers = file.tokens[backend];
      if (!callers) return;
      delete callers[caller];
      if (Object.keys(callers).length === 0) delete file.tokens[backend];
    });
  }

  /** In the order they first signed in. */
  async callers(backend: string): Promise<string[]> {
    return Object.keys((await this.load()).tokens[backend] ?? {});
  }

  async client(backend: string): Promise<string | undefined> {
    return (await this.load()).clients[backend];
  }

  async saveClient(backend: string, sealed: string): Promise<void> {
    await this.update((file) => {
      file.clients[backend] = sealed;
    });
  }

  async deleteClient(backend: string): Promise<void> {
    await this.update((file) => {
      delete file.clients[backend];
    });
  }

  async replace(backend: string, caller: string | undefined, expected: string, sealed: string): Promise<boolean> {
    let replaced = false;
    await this.update((file) => {
      const now = caller === undefined ? file.clients[backend] : file.tokens[backend]?.[caller];
      if (now !== expected) return;
      if (caller === undefined) file.clients[backend] = sealed;
      else file.tokens[backend] = { ...file.tokens[backend], [caller]: sealed };
      replaced = true;
    });
    return replaced;
  }

  async forgetBackend(backend: string): Promise<void> {
    await this.update((file) => {
      delete file.tokens[backend];
      delete file.clients[backend];
    });
  }
}
