/**
 * Per-caller upstream OAuth state at rest: each record a compact JWE (`dir` +
 * `A256GCM`, jose) under the operator's key (credentialKey.ts), kept by a
 * CallerRecords (callerRecords.ts: the file `caller-credentials.json` of one
 * process, or the Redis replicas share). jose fits: an authenticated envelope
 * with a standard, self-describing header, so no hand-made nonce or tag
 * layout. Each record's plaintext names its backend and caller, checked on
 * reading, so a record moved to another caller's slot is refused rather than
 * used. Records are decrypted on demand and never logged. *
 * Key rotation: each record's header names its key (`kid`, a digest of the
 * key, never the key). A record sealed under a previous key (kept for
 * reading, credentialKey.ts) is opened with it and sealed again under the key
 * in use, in its place only if nobody wrote it since (CallerRecords.replace):
 * as records are used, or all at once with `reseal`.
 */
import { createHash } from 'node:crypto';
import { compactDecrypt, CompactEncrypt, decodeProtectedHeader } from 'jose';
import type { StoredOAuthClientInformation } from '@modelcontextprotocol/client';
import { fileWriter, type AtomicWriter } from '../config/atomicWriter.js';
import type { CallerRecords } from './callerRecords.js';
import { CallerRecordsFile } from './callerRecordsFile.js';
import type { VaultTokens } from './vault.js';

/** The file's name under the state dir. */
export const CALLER_CREDENTIALS_FILE = 'caller-credentials.json';

/** Who signed in and when, sealed beside their tokens (a refresh keeps it): what an administrator sees. */
export interface SignedIn {
  /** When they signed in (ms since the epoch). */
  at: number;
  /** Their email, else their subject, as the gateway knew them then. */
  person?: string;
}

interface TokenRecord {
  backend: string;
  caller: string;
  tokens: VaultTokens;
  signedIn?: SignedIn;
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

/** A key's name in a record's header: a digest of it (never the key), 16 hex digits. */
function keyId(key: Uint8Array): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 16);
}

/** What resealing every record found: records moved to the key in use, and records no key opens. */
export interface ResealReport {
  resealed: number;
  unreadable: number;
}

/** Per-caller tokens and per-backend clients, encrypted. */
export class CallerTokenStore {
  private readonly records: CallerRecords;
  /** The key in use first, then the previous ones, each with its id. */
  private readonly keys: { id: string; key: Uint8Array }[];

  /** The file at `path`, unless `records` says where else (Redis, for replicas); `previous`: keys kept for reading. */
  constructor(
    readonly path: string,
    key: Uint8Array,
    writer: AtomicWriter = fileWriter,
    records?: CallerRecords,
    previous: readonly Uint8Array[] = [],
  ) {
    this.records = records ?? new CallerRecordsFile(path, writer);
    this.keys = [key, ...previous].map((each) => ({ id: keyId(each), key: each }));
  }

  /** `value` as a JWE under the operator's key in use (records here, and sign-in flows kept by replicas). */
  async seal(value: unknown): Promise<string> {
    const plaintext = new TextEncoder().encode(JSON.stringify(value));
    const { id, key } = this.keys[0]!;
    return new CompactEncrypt(plaintext).setProtectedHeader({ alg: 'dir', enc: 'A256GCM', kid: id }).encrypt(key);
  }

  /** What {@link seal} sealed; UnreadableRecordError naming `what` when no key held opens it. */
  async open<T>(jwe: string, what: string): Promise<T> {
    return (await this.opened<T>(jwe, what)).value;
  }

  /** What a record holds, and whether the key in use sealed it (false: a previous key did). */
  private async opened<T>(jwe: string, what: string): Promise<{ value: T; current: boolean }> {
    let kid: unknown;
    try {
      kid = decodeProtectedHeader(jwe).kid;
    } catch {
      throw new UnreadableRecordError(what);
    }
    // The key the header names first; a record from before key ids (no kid) tries each.
    const order = [...this.keys].sort((a, b) => Number(b.id === kid) - Number(a.id === kid));
    for (const { key } of order) {
      try {
        const { plaintext } = await compactDecrypt(jwe, key, { keyManagementAlgorithms: ['dir'] });
        return { value: JSON.parse(new TextDecoder().decode(plaintext)) as T, current: key === this.keys[0]!.key };
      } catch {
        // the next key
      }
    }
    throw new UnreadableRecordError(what);
  }

  /** Seals `value` again under the key in use, in place of `jwe` unless it was written since (best effort). */
  private async resealed(backend: string, caller: string | undefined, jwe: string, value: unknown): Promise<boolean> {
    const sealed = await this.seal(value);
    return this.records.replace(backend, caller, jwe, sealed).catch(() => false);
  }

  /** A caller's tokens for a backend (undefined: none stored); rejects with UnreadableRecordError when no key opens them. */
  async tokens(backend: string, caller: string): Promise<VaultTokens | undefined> {
    return (await this.record(backend, caller))?.tokens;
  }

  /** A caller's tokens with who signed in when; rejects like `tokens`. */
  async record(backend: string, caller: string): Promise<Pick<TokenRecord, 'tokens' | 'signedIn'> | undefined> {
    const jwe = await this.records.token(backend, caller);
    if (jwe === undefined) return undefined;
    const { value: record, current } = await this.opened<TokenRecord>(jwe, `the tokens of ${caller} for "${backend}"`);
    if (record.backend !== backend || record.caller !== caller) {
      throw new UnreadableRecordError(`the tokens of ${caller} for "${backend}"`);
    }
    if (!current) await this.resealed(backend, caller, jwe, record);
    const { tokens, signedIn } = record;
    return signedIn ? { tokens, signedIn } : { tokens };
  }

  /**
   * Seals every record of `backends` under the key in use (a rotation's
   * catch-up: records nobody uses for a while then need the old key no more).
   * A record no key opens is counted, left as it is.
   */
  async reseal(backends: readonly string[]): Promise<ResealReport> {
    const report: ResealReport = { resealed: 0, unreadable: 0 };
    const one = async (backend: string, caller: string | undefined, jwe: string | undefined): Promise<void> => {
      if (jwe === undefined) return;
      try {
        const { value, current } = await this.opened(jwe, 'a record');
        if (!current && (await this.resealed(backend, caller, jwe, value))) report.resealed++;
      } catch {
        report.unreadable++;
      }
    };
    for (const backend of backends) {
      await one(backend, undefined, await this.records.client(backend));
      for (const caller of await this.records.callers(backend))
        await one(backend, caller, await this.records.token(backend, caller));
    }
    return report;
  }

  /** Saves a caller's tokens; `signedIn` for a sign-in, absent for a refresh (the sign-in's is kept). */
  async saveTokens(backend: string, caller: string, tokens: VaultTokens, signedIn?: SignedIn): Promise<void> {
    const kept = signedIn ?? (await this.record(backend, caller).catch(() => undefined))?.signedIn;
    const jwe = await this.seal({ backend, caller, tokens, ...(kept ? { signedIn: kept } : {}) } satisfies TokenRecord);
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
    const { value: record, current } = await this.opened<ClientRecord>(jwe, `the client registration of "${backend}"`);
    if (record.backend !== backend) return undefined;
    if (!current) await this.resealed(backend, undefined, jwe, record);
    return record.client;
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
