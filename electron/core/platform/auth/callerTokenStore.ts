/**
 * Per-caller upstream OAuth state at rest: one file under the state dir
 * (`caller-credentials.json`, mode 0600, written atomically), each record a
 * compact JWE (`dir` + `A256GCM`, jose) under the operator's key
 * (credentialKey.ts). jose fits: an authenticated envelope with a standard,
 * self-describing header, so no hand-made nonce or tag layout. Each record's
 * plaintext names its backend and caller, checked on reading, so a record
 * moved to another caller's slot in the file is refused rather than used.
 *
 * The file holds, per backend, each caller's tokens and the client
 * registered with its authorization server (shared by its callers). Caller
 * keys and backend IDs are in clear (they are not secrets); tokens never are.
 * Records are decrypted on demand and never logged. The file is read again
 * when it changed on disk (another process, e.g. a restore), found by its
 * modification time.
 */
import { readFile, stat } from 'node:fs/promises';
import { compactDecrypt, CompactEncrypt } from 'jose';
import type { StoredOAuthClientInformation } from '@modelcontextprotocol/client';
import { fileWriter, type AtomicWriter } from '../config/atomicWriter.js';
import type { VaultTokens } from './vault.js';

/** The file's name under the state dir. */
export const CALLER_CREDENTIALS_FILE = 'caller-credentials.json';

interface StoreFile {
  version: 1;
  /** backend ID -> caller key -> JWE of a {@link TokenRecord}. */
  tokens: Record<string, Record<string, string>>;
  /** backend ID -> JWE of a {@link ClientRecord}. */
  clients: Record<string, string>;
}

interface TokenRecord {
  backend: string;
  caller: string;
  tokens: VaultTokens;
}

interface ClientRecord {
  backend: string;
  client: StoredOAuthClientInformation;
}

const emptyFile = (): StoreFile => ({ version: 1, tokens: {}, clients: {} });

/** A record the key in use cannot open (another key, or altered). */
export class UnreadableRecordError extends Error {
  constructor(what: string) {
    super(`${what} cannot be decrypted with the key in use (another key wrote it, or it was altered)`);
    this.name = 'UnreadableRecordError';
  }
}

/** Per-caller tokens and per-backend clients, encrypted in one file. */
export class CallerTokenStore {
  private file: StoreFile | undefined;
  /** The modification time of the file as last read or written (undefined: none on disk). */
  private seen: number | undefined;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    readonly path: string,
    private readonly key: Uint8Array,
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

  private async seal(value: unknown): Promise<string> {
    const plaintext = new TextEncoder().encode(JSON.stringify(value));
    return new CompactEncrypt(plaintext).setProtectedHeader({ alg: 'dir', enc: 'A256GCM' }).encrypt(this.key);
  }

  private async open<T>(jwe: string, what: string): Promise<T> {
    try {
      const { plaintext } = await compactDecrypt(jwe, this.key, { keyManagementAlgorithms: ['dir'] });
      return JSON.parse(new TextDecoder().decode(plaintext)) as T;
    } catch {
      throw new UnreadableRecordError(what);
    }
  }

  /** Saves the file after `change` (changes are applied and written one at a time). */
  private async update(change: (file: StoreFile) => void | Promise<void>): Promise<void> {
    const run = this.writing.then(async () => {
      const file = await this.load();
      await change(file);
      await this.writer.write(this.path, `${JSON.stringify(file, null, 2)}\n`);
      this.seen = await this.modified();
    });
    this.writing = run.catch(() => undefined);
    return run;
  }

  /** A caller's tokens for a backend (undefined: none stored); rejects with UnreadableRecordError under another key. */
  async tokens(backend: string, caller: string): Promise<VaultTokens | undefined> {
    const jwe = (await this.load()).tokens[backend]?.[caller];
    if (jwe === undefined) return undefined;
    const record = await this.open<TokenRecord>(jwe, `the tokens of ${caller} for "${backend}"`);
    if (record.backend !== backend || record.caller !== caller) {
      throw new UnreadableRecordError(`the tokens of ${caller} for "${backend}"`);
    }
    return record.tokens;
  }

  async saveTokens(backend: string, caller: string, tokens: VaultTokens): Promise<void> {
    const jwe = await this.seal({ backend, caller, tokens } satisfies TokenRecord);
    await this.update((file) => {
      file.tokens[backend] = { ...file.tokens[backend], [caller]: jwe };
    });
  }

  async deleteTokens(backend: string, caller: string): Promise<void> {
    await this.update((file) => {
      const callers = file.tokens[backend];
      if (!callers) return;
      delete callers[caller];
      if (Object.keys(callers).length === 0) delete file.tokens[backend];
    });
  }

  /** The callers holding tokens for a backend, in the order they first signed in. */
  async callers(backend: string): Promise<string[]> {
    return Object.keys((await this.load()).tokens[backend] ?? {});
  }

  /** The client registered with the backend's authorization server, if any. */
  async client(backend: string): Promise<StoredOAuthClientInformation | undefined> {
    const jwe = (await this.load()).clients[backend];
    if (jwe === undefined) return undefined;
    const record = await this.open<ClientRecord>(jwe, `the client registration of "${backend}"`);
    return record.backend === backend ? record.client : undefined;
  }

  async saveClient(backend: string, client: StoredOAuthClientInformation): Promise<void> {
    const jwe = await this.seal({ backend, client } satisfies ClientRecord);
    await this.update((file) => {
      file.clients[backend] = jwe;
    });
  }

  async deleteClient(backend: string): Promise<void> {
    await this.update((file) => {
      delete file.clients[backend];
    });
  }

  /** Everything of a backend (removed, or its URL changed). */
  async forgetBackend(backend: string): Promise<void> {
    await this.update((file) => {
      delete file.tokens[backend];
      delete file.clients[backend];
    });
  }
}
