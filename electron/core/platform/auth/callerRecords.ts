/**
 * Where per-caller upstream credentials are kept, sealed: each record is
 * already a JWE under the operator's key (callerTokenStore.ts seals and opens
 * them), so a place to keep them never sees a token. One process keeps them
 * in a file (callerRecordsFile.ts); replicas keep them in the Redis they
 * share (platform/cluster/redisCallerState.ts), with the sign-in links and
 * flows in progress, so a sign-in started through one replica can come back
 * to another, a notice when a caller signed in, and a lock so that one
 * replica at a time refreshes a caller's tokens.
 */

/** Sealed records: each caller's tokens per backend, and each backend's registered client. */
export interface CallerRecords {
  token(backend: string, caller: string): Promise<string | undefined>;
  saveToken(backend: string, caller: string, sealed: string): Promise<void>;
  deleteToken(backend: string, caller: string): Promise<void>;
  /** The callers holding tokens for a backend. */
  callers(backend: string): Promise<string[]>;
  client(backend: string): Promise<string | undefined>;
  saveClient(backend: string, sealed: string): Promise<void>;
  deleteClient(backend: string): Promise<void>;
  /** Everything of a backend. */
  forgetBackend(backend: string): Promise<void>;
  /**
   * Puts `sealed` in a record's place only if it still holds `expected` (a
   * record re-encrypted under a new key never overwrites one written since,
   * e.g. by a refresh on another replica). `caller` undefined: the backend's
   * client registration. Whether it was replaced.
   */
  replace(backend: string, caller: string | undefined, expected: string, sealed: string): Promise<boolean>;
}

/** What a pending entry is: a sign-in link handed out, or a flow sent to the authorization server. */
export type PendingKind = 'link' | 'flow';

/** Sign-in links and flows in progress, each taken once, gone after its time. */
export interface PendingSignIns {
  put(kind: PendingKind, id: string, value: string, ttlMs: number): Promise<void>;
  /** The entry, removed; undefined when unknown, taken or expired. */
  take(kind: PendingKind, id: string): Promise<string | undefined>;
  /** Whether the entry is still there (not taken, not expired). */
  has(kind: PendingKind, id: string): Promise<boolean>;
}

/** The credential state replicas share (absent: one process, the file and memory). */
export interface SharedCallerState {
  records: CallerRecords;
  pending: PendingSignIns;
  /** Tells every replica that a caller signed in to a backend. */
  announce(backend: string, caller: string): Promise<void>;
  /** Calls `listener` for each sign-in another replica announced. Returns the unsubscribe. */
  onSignedIn(listener: (backend: string, caller: string) => void): () => void;
  /**
   * Runs `refresh` while no other replica refreshes this caller's tokens for
   * this backend (a refresh token may be single-use); rejects when that
   * cannot be had in a bounded wait. `refresh`'s signal aborts before the
   * guard ends, or with `signal`.
   */
  exclusiveRefresh<T>(
    backend: string,
    caller: string,
    signal: AbortSignal,
    refresh: (signal: AbortSignal) => Promise<T>,
  ): Promise<T>;
}
