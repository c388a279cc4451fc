/**
 * The gateway access token each signed-in person last presented, kept in
 * memory only while a backend uses token exchange (RFC 8693): it is the
 * `subject_token` traded for a token meant for that backend
 * (tokenExchange.ts). Keyed by caller key (`principal:<issuer>#<subject>`,
 * catalog/policy/callerIdentity.ts), never past the token's expiry, bounded,
 * never written anywhere or logged. The gateway records a token only after
 * verifying it (frontend/http/gateway/gatewayGuard.ts).
 */
import { LRUCache } from 'lru-cache';

interface Held {
  token: string;
  /** Epoch ms; undefined: the token said nothing (kept for `maxAgeMs`). */
  expiresAt: number | undefined;
}

const MAX_HELD = 10_000;
/** A token without `exp` is held this long. */
const MAX_AGE_MS = 5 * 60_000;

/** The latest verified gateway token of each caller; see the module comment. */
export class SubjectTokens {
  private readonly held = new LRUCache<string, Held>({ max: MAX_HELD, ttl: MAX_AGE_MS, ttlAutopurge: false });
  private readonly listeners = new Set<(caller: string) => void>();

  constructor(
    /** Whether any backend exchanges tokens (otherwise nothing is kept). */
    private readonly wanted: () => boolean,
  ) {}

  /** Keeps `token` as `caller`'s current one (its `exp` in epoch seconds); tells listeners of a caller new here. */
  remember(caller: string, token: string, expSeconds: number | undefined): void {
    if (!this.wanted()) return;
    const expiresAt = expSeconds === undefined ? undefined : expSeconds * 1000;
    const ttl = expiresAt === undefined ? MAX_AGE_MS : expiresAt - Date.now();
    if (ttl <= 0) return;
    const known = this.current(caller) !== undefined;
    this.held.set(caller, { token, expiresAt }, { ttl });
    if (!known) for (const listener of this.listeners) listener(caller);
  }

  /** The caller's token while it is valid. */
  current(caller: string): string | undefined {
    const held = this.held.get(caller);
    if (!held || (held.expiresAt !== undefined && held.expiresAt <= Date.now())) return undefined;
    return held.token;
  }

  /** The caller who presented a valid token most recently (lists a token-exchange backend's catalog). */
  latestCaller(): string | undefined {
    for (const caller of this.held.keys()) if (this.current(caller) !== undefined) return caller;
    return undefined;
  }

  /** Called when a caller without a valid token here presents one. */
  onNewCaller(listener: (caller: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  clear(): void {
    this.held.clear();
    this.listeners.clear();
  }
}
