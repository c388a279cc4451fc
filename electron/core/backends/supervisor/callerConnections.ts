/**
 * The upstream connections of one backend that serves each caller apart: one
 * per caller key, never handed to anyone else, so upstream sessions and
 * in-flight requests belong to one caller. A per-caller remote backend's each
 * send that caller's own credential; a per-principal stdio server's are each
 * that person's own process (closing one reaps its process tree).
 * A connection starts at its caller's first request, closes after the
 * backend's idle timeout without requests, and at most `max()` stay open (the
 * least recently used closes first).
 */
import { ErrorCode, SwitchboardError } from '../../../../shared/errors.js';
import type { BackendConnection } from '../connection/backendConnection.js';

/** What the connections need of their supervisor. */
export interface CallerConnectionsHost {
  readonly id: string;
  /** A new connection (not connected yet) of `caller`'s own (credential or process); `onClosed` when it drops. */
  open(caller: string, onClosed: () => void): BackendConnection;
  /** How many may be open at once. */
  max(): number;
  /** How long one may stay unused. */
  idleMs(): number;
  /** One was opened or closed (health shows how many are open). */
  sizeChanged?(): void;
  /** Whether the caller holds resource subscriptions on theirs (it does not go idle then). */
  held?(caller: string): boolean;
  /** The caller's connection closed: dropped on its own (`renew`: they may connect again), or closed on purpose. */
  closed?(caller: string, renew: boolean): void;
}

interface Entry {
  connection: BackendConnection;
  ready: Promise<BackendConnection>;
  /** Its start finished: only from then may it go idle (a slow start is no idleness). */
  connected: boolean;
  idle?: NodeJS.Timeout;
}

/** Connections by caller key, least recently used first. */
export class CallerConnections {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly host: CallerConnectionsHost) {}

  get size(): number {
    return this.entries.size;
  }

  /** The caller's connection, connected first when it has none (bounded by `signal`). */
  acquire(caller: string, signal?: AbortSignal): Promise<BackendConnection> {
    const found = this.entries.get(caller);
    if (found) {
      this.entries.delete(caller);
      this.entries.set(caller, found);
      this.armIdle(caller, found);
      return found.ready;
    }
    while (this.entries.size >= this.host.max()) this.evictOldest();
    const connection = this.host.open(caller, () => this.dropped(caller, connection, entry.connected));
    const entry: Entry = {
      connection,
      connected: false,
      ready: connection.connect(signal).then(
        () => {
          entry.connected = true;
          this.armIdle(caller, entry);
          return connection;
        },
        async (error: unknown) => {
          this.dropped(caller, connection);
          await connection.close();
          throw error;
        },
      ),
    };
    this.entries.set(caller, entry);
    this.armIdle(caller, entry);
    this.host.sizeChanged?.();
    return entry.ready;
  }

  /** Whether `connection` is one of the callers' connections now (not closed, evicted or replaced). */
  holds(connection: BackendConnection): boolean {
    for (const entry of this.entries.values()) if (entry.connection === connection) return true;
    return false;
  }

  /** Closes the caller's connection (revoked, signed out), failing its requests with `reason`. */
  async close(caller: string, reason?: SwitchboardError): Promise<void> {
    const entry = this.entries.get(caller);
    if (!entry) return;
    this.dropped(caller, entry.connection);
    await entry.connection.close(reason);
  }

  /** Closes every connection (the backend stopped or changed). */
  async closeAll(reason?: SwitchboardError): Promise<void> {
    await Promise.allSettled([...this.entries.keys()].map((caller) => this.close(caller, reason)));
  }

  private dropped(caller: string, connection: BackendConnection, renew = false): void {
    const entry = this.entries.get(caller);
    if (entry?.connection !== connection) return;
    if (entry.idle) clearTimeout(entry.idle);
    this.entries.delete(caller);
    this.host.sizeChanged?.();
    this.host.closed?.(caller, renew);
  }

  private evictOldest(): void {
    const oldest = this.entries.keys().next().value;
    if (oldest === undefined) return;
    const reason = new SwitchboardError(
      ErrorCode.BackendUnavailable,
      `backend "${this.host.id}": the connection was closed for a more recent caller`,
      { backend: this.host.id },
    );
    void this.close(oldest, reason);
  }

  /** Closes the caller's connection once unused for the idle timeout (never while starting or with requests in flight). */
  private armIdle(caller: string, entry: Entry): void {
    if (entry.idle) clearTimeout(entry.idle);
    entry.idle = setTimeout(() => {
      if (!entry.connected || entry.connection.outstanding > 0 || this.host.held?.(caller))
        return this.armIdle(caller, entry);
      void this.close(caller);
    }, this.host.idleMs());
    entry.idle.unref();
  }
}
