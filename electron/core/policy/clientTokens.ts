/**
 * Bearer tokens of named clients. Only a SHA-256 digest of each token is kept
 * (a file readable only by the user, never config.json), so the file does not
 * hold usable secrets; a token is shown once, when created or rotated.
 * Tokens come from a CSPRNG and are compared in constant time.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { ErrorCode, SwitchboardError } from '../../../shared/errors.js';
import { fileWriter, type AtomicWriter } from '../config/configStore.js';
import { generateToken } from '../frontend/bearer.js';

interface StoredToken {
  digest: string;
  createdAt: string;
}

function digestOf(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}

/** Token digests by client ID, persisted to one file. */
export class ClientTokens {
  private tokens = new Map<string, StoredToken>();

  constructor(
    private readonly file: string,
    private readonly writer: AtomicWriter = fileWriter,
  ) {}

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
    } catch {
      throw new SwitchboardError(ErrorCode.ConfigInvalid, `${this.file} is not valid JSON; fix or delete it`);
    }
  }

  private async save(next: Map<string, StoredToken>): Promise<void> {
    await this.writer.write(this.file, `${JSON.stringify({ clients: Object.fromEntries(next) }, null, 2)}\n`);
    this.tokens = next;
  }

  /** Issues a new token for a client (replacing any previous one); returns it, once. */
  async issue(client: string): Promise<string> {
    const token = generateToken();
    const next = new Map(this.tokens);
    next.set(client, { digest: digestOf(token).toString('hex'), createdAt: new Date().toISOString() });
    await this.save(next);
    return token;
  }

  /** Revokes a client's token; requests presenting it are refused from now on. */
  async revoke(client: string): Promise<void> {
    if (!this.tokens.has(client)) return;
    const next = new Map(this.tokens);
    next.delete(client);
    await this.save(next);
  }

  /** Whether a client has a live token. */
  has(client: string): boolean {
    return this.tokens.has(client);
  }

  /** When each client's token was issued (never the token). */
  list(): { client: string; createdAt: string }[] {
    return [...this.tokens].map(([client, stored]) => ({ client, createdAt: stored.createdAt }));
  }

  /** The client a presented token belongs to, compared in constant time. */
  authenticate(presented: string): string | undefined {
    const digest = digestOf(presented);
    let match: string | undefined;
    for (const [client, stored] of this.tokens) {
      // Check every entry (no early exit) so timing does not reveal which matched.
      if (timingSafeEqual(digest, Buffer.from(stored.digest, 'hex'))) match = client;
    }
    return match;
  }
}
