/**
 * Bearer tokens of named clients. Only a SHA-256 digest of each token is kept
 * (a file readable only by the user, never config.json); tokens are derived
 * from a key (HMAC of client and generation), so installing a client twice
 * writes the same token. The key lives in the OS keychain when there is one
 * (a key file left from before is moved there and removed), so a token cannot
 * be recomputed from files alone; only without a keychain is it kept in a
 * 0600 file beside the digests. Writes of the digests re-read the file under
 * its lock (configLock.ts), so several processes issuing at once lose
 * nothing. Tokens come from a CSPRNG and are compared in constant time.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { ErrorCode, SwitchboardError } from '../../../../shared/errors.js';
import { withFileLock } from '../../platform/config/configLock.js';
import { fileWriter, type AtomicWriter } from '../../platform/config/configStore.js';
import { generateToken } from '../../platform/secrets/randomToken.js';
import type { SecretStore } from '../../platform/secrets/secretStore.js';

/** The keychain account of the key client tokens are derived from (`:` keeps it apart from user secrets). */
export const TOKEN_KEY_ACCOUNT = 'switchboard:client-token-key';

/** Where the token key is kept, and why not in the keychain. */
export interface TokenKeyLocation {
  where: 'keychain' | 'file';
  /** The key file (only for `file`). */
  file?: string;
  /** Why the keychain was not used (only for `file`). */
  reason?: string;
}

interface StoredToken {
  digest: string;
  createdAt: string;
  /** Bumped by each issue; with the key it derives the token (see `tokenFor`). */
  generation?: number;
}

function digestOf(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}

/** Token digests by client ID, persisted to one file. */
export class ClientTokens {
  private tokens = new Map<string, StoredToken>();

  /** When the file was last read: another process (the CLI's `install`) may write it. */
  private loadedMtimeMs = 0;

  /** The key, once read (a promise, so concurrent callers share one read). */
  private key: Promise<{ key: string; location: TokenKeyLocation }> | undefined;

  constructor(
    private readonly file: string,
    private readonly writer: AtomicWriter = fileWriter,
    /** The OS keychain for the token key (absent: the key file). */
    private readonly keychain?: SecretStore,
  ) {}

  /** The file of token digests. */
  get path(): string {
    return this.file;
  }

  /** The key that derives client tokens, beside the digests (mode 0600, created on first use). */
  private get keyFile(): string {
    return join(dirname(this.file), 'client-token-key');
  }

  /** Loads the file; a missing file means no client tokens yet. */
  async load(): Promise<void> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    try {
      const parsed = JSON.parse(text) as { clients?: Record<string, StoredToken> };
      this.tokens = new Map(Object.entries(parsed.clients ?? {}));
      this.loadedMtimeMs = statSync(this.file).mtimeMs;
    } catch {
      throw new SwitchboardError(ErrorCode.ConfigInvalid, `${this.file} is not valid JSON; fix or delete it`);
    }
  }

  private async save(next: Map<string, StoredToken>): Promise<void> {
    await this.writer.write(this.file, `${JSON.stringify({ clients: Object.fromEntries(next) }, null, 2)}\n`);
    this.tokens = next;
    this.loadedMtimeMs = statSync(this.file, { throwIfNoEntry: false })?.mtimeMs ?? 0;
  }

  /**
   * Issues a new token for a client (replacing any previous one). The token
   * is derived from a key kept beside the digests (HMAC of client and
   * generation), so `tokenFor` can give the same token again (to write a
   * client's config twice) without the token itself being stored.
   */
  async issue(client: string): Promise<string> {
    return withFileLock(this.file, async () => {
      await this.load(); // another process may have issued or revoked since
      const generation = (this.tokens.get(client)?.generation ?? 0) + 1;
      const token = await this.derive(client, generation);
      const next = new Map(this.tokens);
      next.set(client, { digest: digestOf(token).toString('hex'), createdAt: new Date().toISOString(), generation });
      await this.save(next);
      return token;
    });
  }

  /** The current token of a client issued by `issue`; undefined if it has none (or was revoked). */
  async tokenFor(client: string): Promise<string | undefined> {
    await this.load();
    const stored = this.tokens.get(client);
    if (stored?.generation === undefined) return undefined;
    return this.derive(client, stored.generation);
  }

  private async derive(client: string, generation: number): Promise<string> {
    const { key } = await this.tokenKey();
    return createHmac('sha256', key).update(`${client}\u0000${generation}`).digest('base64url');
  }

  /**
   * The key tokens are derived from, and where it is kept: the keychain when
   * it is available (a key file is moved there, then removed), else the 0600
   * key file. Created on first use, under the key file's lock so two
   * processes never make two keys.
   */
  tokenKey(): Promise<{ key: string; location: TokenKeyLocation }> {
    this.key ??= withFileLock(this.keyFile, () => this.readKey());
    this.key.catch(() => (this.key = undefined));
    return this.key;
  }

  private async readKey(): Promise<{ key: string; location: TokenKeyLocation }> {
    let fileKey: string | undefined;
    try {
      fileKey = (await readFile(this.keyFile, 'utf8')).trim() || undefined;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    const status = this.keychain
      ? await this.keychain.status()
      : { available: false, reason: 'no keychain configured' };
    if (this.keychain && status.available) {
      let key = await this.keychain.get(TOKEN_KEY_ACCOUNT);
      if (key === undefined) {
        key = fileKey ?? generateToken();
        await this.keychain.set(TOKEN_KEY_ACCOUNT, key);
      }
      // Moved (or a leftover of a keychain that was away): the file must not outlive it.
      if (fileKey !== undefined) await rm(this.keyFile, { force: true });
      return { key, location: { where: 'keychain' } };
    }
    const location: TokenKeyLocation = { where: 'file', file: this.keyFile, reason: status.reason ?? 'unknown' };
    if (fileKey !== undefined) return { key: fileKey, location };
    const key = generateToken();
    await this.writer.write(this.keyFile, `${key}\n`);
    return { key, location };
  }

  /** Revokes a client's token; requests presenting it are refused from now on. */
  async revoke(client: string): Promise<void> {
    await withFileLock(this.file, async () => {
      await this.load();
      if (!this.tokens.has(client)) return;
      const next = new Map(this.tokens);
      next.delete(client);
      await this.save(next);
    });
  }

  /**
   * Whether a client has a live token. Re-reads the file first if another
   * process changed it: `install` from the CLI issues tokens this instance
   * has not seen yet, and the Clients screen must not say "none" for them.
   */
  has(client: string): boolean {
    this.reloadIfChanged();
    return this.tokens.has(client);
  }

  /** When each client's token was issued (never the token); re-read like `has`. */
  list(): { client: string; createdAt: string }[] {
    this.reloadIfChanged();
    return [...this.tokens].map(([client, stored]) => ({ client, createdAt: stored.createdAt }));
  }

  /** The client a presented token belongs to, compared in constant time. */
  authenticate(presented: string): string | undefined {
    const found = this.match(presented);
    if (found !== undefined || !this.reloadIfChanged()) return found;
    return this.match(presented);
  }

  /** Re-reads the file if another process changed it (checked only when a token is not recognised). */
  private reloadIfChanged(): boolean {
    try {
      const mtimeMs = statSync(this.file).mtimeMs;
      if (mtimeMs === this.loadedMtimeMs) return false;
      const parsed = JSON.parse(readFileSync(this.file, 'utf8')) as { clients?: Record<string, StoredToken> };
      this.tokens = new Map(Object.entries(parsed.clients ?? {}));
      this.loadedMtimeMs = mtimeMs;
      return true;
    } catch {
      return false;
    }
  }

  private match(presented: string): string | undefined {
    const digest = digestOf(presented);
    let match: string | undefined;
    for (const [client, stored] of this.tokens) {
      // Check every entry (no early exit) so timing does not reveal which matched.
      if (timingSafeEqual(digest, Buffer.from(stored.digest, 'hex'))) match = client;
    }
    return match;
  }
}
