/**
 * Per-caller upstream OAuth state at rest: each record a compact JWE (`dir` +
 * `A256GCM`, jose) under the operator's key (credentialKey.ts), kept by a
 * CallerRecords (callerRecords.ts: the file `caller-credentials.json` of one
 * process, or the Redis replicas share). jose fits: an authenticated envelope
 * with a standard, self-describing header, so no hand-made nonce or tag
 * layout. Each record's plaintext names its backend and caller, checked on
 * reading, so a record moved to another caller's slot is refused rather than
 * used. Records are decrypted on demand and never logged.
 */
import { compactDecrypt, CompactEncrypt } from 'jose';
import type { StoredOAuthClientInformation } from '@modelcontextprotocol/client';
import { fileWriter, type AtomicWriter } from '../config/atomicWriter.js';
import type { CallerRecords } from './callerRecords.js';
import { CallerRecordsFile } from './callerRecordsFile.js';
import type { VaultTokens } from './vault.js';

/** The file's name under the state dir. */
export const CALLER_CREDENTIALS_FILE = 'caller-credentials.json';

interface TokenRecord {
  backend: string;
  caller: string;
  tokens: VaultTokens;
}

interface ClientRecord {
  backend: string;
  client: StoredOAuthClientInformation;
}

/** A record the key in use cannot open (another key, or altered). */
export class UnreadableRecordError extends Error {
  constructor(what: string) {
    super(`${what} cannot be decrypted with the key in use (another key wrote it, or it was altered)`);
    this.name = 'UnreadableRecordError';
  }
}

/** Per-caller tokens and per-backend clients, encrypted. */
export class CallerTokenStore {
  private readonly records: CallerRecords;

  /** The file at `path`, unless `records` says where else (Redis, for replicas). */
  constructor(
    readonly path: string,
    private readonly key: Uint8Array,
    writer: AtomicWriter = fileWriter,
    records?: CallerRecords,
  ) {
    this.records = records ?? new CallerRecordsFile(path, writer);
  }

  /** `value` as a JWE under the operator's key (records here, and sign-in flows kept by replicas). */
  async seal(value: unknown): Promise<string> {
    const plaintext = new TextEncoder().encode(JSON.stringify(value));
    return new CompactEncrypt(plaintext).setProtectedHeader({ alg: 'dir', enc: 'A256GCM' }).encrypt(this.key);
  }

  /** What {@link seal} sealed; UnreadableRecordError naming `what` when the key in use cannot open it. */
  async open<T>(jwe: string, what: string): Promise<T> {
    try {
      const { plaintext } = await compactDecrypt(jwe, this.key, { keyManagementAlgorithms: ['dir'] });
      return JSON.parse(new TextDecoder().decode(plaintext)) as T;
    } catch {
      throw new UnreadableRecordError(what);
    }
  }

  /** A caller's tokens for a backend (undefined: none stored); rejects with UnreadableRecordError under another key. */
  async tokens(backend: string, caller: string): Promise<VaultTokens | undefined> {
    const jwe = await this.records.token(backend, caller);
    if (jwe === undefined) return undefined;
    const record = await this.open<TokenRecord>(jwe, `the tokens of ${caller} for "${backend}"`);
    if (record.backend !== backend || record.caller !== caller) {
      throw new UnreadableRecordError(`the tokens of ${caller} for "${backend}"`);
    }
    return record.tokens;
  }

  async saveTokens(backend: string, caller: string, tokens: VaultTokens): Promise<void> {
    const jwe = await this.seal({ backend, caller, tokens } satisfies TokenRecord);
    await this.records.saveToken(backend, caller, jwe);
  }

  async deleteTokens(backend: string, caller: string): Promise<void> {
    await this.records.deleteToken(backend, caller);
  }

  /** The callers holding tokens for a backend (in the file: in the order they first signed in). */
  async callers(backend: string): Promise<string[]> {
    return this.records.callers(backend);
  }

  /** The client registered with the backend's authorization server, if any. */
  async client(backend: string): Promise<StoredOAuthClientInformation | undefined> {
    const jwe = await this.records.client(backend);
    if (jwe === undefined) return undefined;
    const record = await this.open<ClientRecord>(jwe, `the client registration of "${backend}"`);
    return record.backend === backend ? record.client : undefined;
  }

  async saveClient(backend: string, client: StoredOAuthClientInformation): Promise<void> {
    const jwe = await this.seal({ backend, client } satisfies ClientRecord);
    await this.records.saveClient(backend, jwe);
  }

  async deleteClient(backend: string): Promise<void> {
    await this.records.deleteClient(backend);
  }

  /** Everything of a backend (removed, or its URL changed). */
  async forgetBackend(backend: string): Promise<void> {
    await this.records.forgetBackend(backend);
  }
}
