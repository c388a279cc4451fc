/**
 * A backend's OAuth tokens as last read from the keychain or saved, and the
 * read itself, left alone for a while after the keychain fails: the transport
 * asks for a token before every request, and without a keychain each ask was a
 * failing keytar call (a sixth of serve's CPU per proxied call).
 */
import type { OAuthVault, VaultTokens } from './vault.js';

/** How long a keychain that failed is left alone before tokens are read again. */
const KEYCHAIN_RETRY_MS = 30_000;

/** One backend's tokens in memory, the single owner of what was last read or saved. */
export class TokenCache {
  /** Tokens as last read or saved (`null`: not read yet). */
  private tokens: VaultTokens | undefined | null = null;
  /** Why the keychain could not be read, while it cannot. */
  private problem: string | undefined;
  /** When the keychain last failed: reads are not tried again for KEYCHAIN_RETRY_MS. */
  private failedAt = -Infinity;

  constructor(private readonly vault: OAuthVault) {}

  /** The tokens in memory, without reading the keychain (`undefined` also when not read yet). */
  get current(): VaultTokens | undefined {
    return this.tokens ?? undefined;
  }

  /** Why the keychain could not be read, while it cannot. */
  get keychainProblem(): string | undefined {
    return this.problem;
  }

  /**
   * The tokens, read from the keychain the first time. A keychain that fails
   * answers "none" and is not asked again for KEYCHAIN_RETRY_MS.
   */
  async load(): Promise<VaultTokens | undefined> {
    if (this.tokens !== null) return this.tokens;
    if (Date.now() - this.failedAt < KEYCHAIN_RETRY_MS) return undefined;
    try {
      this.tokens = await this.vault.tokens();
    } catch (error) {
      // No keychain means no stored tokens: send none (a server without OAuth
      // works as ever), and let a 401 say why authorizing cannot help yet.
      // Not cached, so tokens are read again once the keychain is back.
      this.problem = error instanceof Error ? error.message : String(error);
      this.failedAt = Date.now();
      return undefined;
    }
    this.problem = undefined;
    return this.tokens;
  }

  /** Keeps tokens just saved, read, or deleted (`undefined`), so the keychain need not be asked. */
  set(tokens: VaultTokens | undefined): void {
    this.tokens = tokens;
  }
}
