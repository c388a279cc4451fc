/**
 * Resource subscriptions shared by every frontend. A frontend may subscribe to
 * an exact resource of the catalog; the first subscriber makes the proxy
 * subscribe upstream, the last one leaving unsubscribes it. Updates from a
 * backend are forwarded under the advertised URI to each subscribed sink.
 * A per-caller server's subscriptions are each caller's own: subscribed on
 * that caller's own upstream connection (their credential), refcounted per
 * caller, and its updates reach that caller's sinks only.
 */
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { BackendPool } from '../../backends/supervisor/backendPool.js';
import type { Catalog, ItemOrigin } from '../../catalog/catalog.js';
import { advertisedUri } from '../../catalog/uris.js';
import { ErrorCode } from '../../../../shared/errors.js';
import type { BackendConnection } from '../../backends/connection/backendConnection.js';
import { callerKey } from '../../catalog/policy/callerIdentity.js';
import type { AuditEntry, AuditOutcome } from '../../catalog/policy/auditLog.js';
import type { UpdateSink } from './coalescingSink.js';

/** What the hub needs from the core. */
export interface SubscriptionHubHost {
  catalog(): Catalog;
  /** The backends' connections: a live one to subscribe upstream; `connectionFor` wakes a starting or idle one. */
  pool: Pick<BackendPool, 'liveConnection' | 'connectionFor' | 'subscriptionsOf' | 'holds'>;
  /** Whether a client may see an item (checked on subscribe and again before each update). */
  mayUse(client: string, kind: 'resources' | 'resourceTemplates', key: string): boolean;
  /** Records subscribe and unsubscribe in the audit log. */
  audit?(entry: AuditEntry): void;
}

interface Entry extends ItemOrigin {
  /** The advertised URI. */
  uri: string;
  sinks: Set<UpdateSink>;
  /** The upstream subscribe/unsubscribe for this URI, in order. */
  upstream: Promise<void>;
  subscribed: boolean;
  /** A per-caller server's: whose subscription this is (their sinks only, their connection). */
  caller?: string | undefined;
  /** A per-caller server's: the caller's connection it was subscribed on (unsubscribed there). */
  connection?: BackendConnection | undefined;
}

/** The entries' key: the advertised URI, and for a per-caller server's the caller too. */
const keyOf = (uri: string, caller?: string): string => (caller === undefined ? uri : `${uri}\u0000${caller}`);

/** The caller a sink acts for (the router's callerKey), as the caller's own connection is keyed. */
const callerOf = (sink: UpdateSink): string => sink.caller ?? callerKey({ clientId: sink.client });

/** Refcounted resource subscriptions across frontends and backends. */
export class SubscriptionHub {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly source: SubscriptionHubHost) {}

  /**
   * The origin of a URI that may be subscribed to, or an invalid-params error
   * saying why not: only exact resources of the catalog, on a backend that
   * supports subscriptions.
   */
  validate(uri: string, client: string): ItemOrigin {
    const catalog = this.source.catalog();
    // A resource the client may not see answers exactly as an unknown one.
    const origin = this.source.mayUse(client, 'resources', uri) ? catalog.resourceIndex.get(uri) : undefined;
    if (!origin) {
      const template = catalog
        .templatesMatching(uri)
        ?.templates.find((t) => this.source.mayUse(client, 'resourceTemplates', t.advertised));
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        template
          ? `Cannot subscribe to ${uri}: it is an instance of the template ${template.advertised}; only resources listed by resources/list can be subscribed to`
          : `Unknown resource: ${uri}`,
      );
    }
    if (!this.source.pool.subscriptionsOf(origin.backendId)) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Cannot subscribe to ${uri}: backend "${origin.backendId}" does not support resource subscriptions`,
      );
    }
    return origin;
  }

  /** Subscribes a sink; resolves once the backend has accepted (or at once if it already had). */
  async attach(sink: UpdateSink, uri: string): Promise<void> {
    await this.wakeOwners([uri], sink.client);
    const started = Date.now();
    const record = (outcome: AuditOutcome, origin: ItemOrigin, errorCode?: string | number): void =>
      this.source.audit?.({
        time: new Date(started).toISOString(),
        client: sink.client,
        backend: origin.backendId,
        kind: 'resources/subscribe',
        item: origin.original,
        outcome,
        durationMs: Date.now() - started,
        ...(errorCode === undefined ? {} : { errorCode }),
      });
    const origin = this.validate(uri, sink.client);
    const caller = this.source.pool.subscriptionsOf(origin.backendId) === 'caller' ? callerOf(sink) : undefined;
    const key = keyOf(uri, caller);
    let entry = this.entries.get(key);
    if (!entry) {
      entry = { ...origin, uri, sinks: new Set(), upstream: Promise.resolve(), subscribed: false, caller };
      this.entries.set(key, entry);
    }
    entry.sinks.add(sink);
    try {
      await this.sync(key, entry);
      record('ok', origin);
    } catch (error) {
      record('error', origin, ErrorCode.ListFailed);
      entry.sinks.delete(sink);
      if (entry.sinks.size === 0 && this.entries.get(key) === entry) this.entries.delete(key);
      throw new ProtocolError(
        ProtocolErrorCode.InternalError,
        `Backend "${origin.backendId}" refused the subscription to ${uri}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  /**
   * A 2026-07-28 listen's resource subscriptions, all or nothing: every URI
   * is checked first (one invalid-params error lists each refused URI and
   * why), then each is subscribed; on any failure the sink holds nothing.
   */
  async attachAll(sink: UpdateSink, uris: string[]): Promise<void> {
    await this.wakeOwners(uris, sink.client);
    const rejected = uris.flatMap((uri) => {
      try {
        this.validate(uri, sink.client);
        return [];
      } catch (error) {
        return [{ uri, reason: error instanceof Error ? error.message : String(error) }];
      }
    });
    if (rejected.length > 0) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, rejected.map((r) => r.reason).join('; '), { rejected });
    }
    try {
      for (const uri of uris) await this.attach(sink, uri);
    } catch (error) {
      this.detachAll(sink);
      throw error;
    }
  }

  /** Unsubscribes a sink from one URI (a no-op if it was not subscribed). */
  async detach(sink: UpdateSink, uri: string): Promise<void> {
    const key = [uri, keyOf(uri, callerOf(sink))].find((k) => this.entries.get(k)?.sinks.has(sink));
    const entry = key === undefined ? undefined : this.entries.get(key);
    if (key === undefined || !entry?.sinks.delete(sink)) return;
    this.source.audit?.({
      time: new Date().toISOString(),
      client: sink.client,
      backend: entry.backendId,
      kind: 'resources/unsubscribe',
      item: entry.original,
      outcome: 'ok',
      durationMs: 0,
    });
    await this.sync(key, entry).catch(() => undefined);
  }

  /** Unsubscribes a sink from everything (its session or stream ended). */
  detachAll(sink: UpdateSink): void {
    for (const entry of [...this.entries.values()]) if (entry.sinks.has(sink)) void this.detach(sink, entry.uri);
  }

  /**
   * Brings the upstream state of one URI in line with its sinks: subscribe when
   * the first arrives, unsubscribe when the last leaves. Runs in order per URI.
   */
  private sync(key: string, entry: Entry): Promise<void> {
    const next = entry.upstream.then(async () => {
      const want = entry.sinks.size > 0;
      if (want === entry.subscribed) return;
      if (want) {
        const connection = await this.upstreamOf(entry);
        if (!connection) throw new Error(`backend "${entry.backendId}" is not connected`);
        await connection.subscriptions().add(entry.original);
        entry.connection = connection;
        entry.subscribed = true;
      } else {
        const connection =
          entry.caller === undefined ? this.source.pool.liveConnection(entry.backendId) : entry.connection;
        entry.subscribed = false;
        entry.connection = undefined;
        if (this.entries.get(key) === entry) this.entries.delete(key);
        // A caller's connection closed since holds nothing any more: nothing to unsubscribe.
        if (connection && (entry.caller === undefined || this.source.pool.holds(entry.backendId, connection)))
          await connection.subscriptions().remove(entry.original);
      }
    });
    entry.upstream = next.catch(() => undefined);
    return next;
  }

  /**
   * The connection an entry subscribes on: the backend's live one, or for a per-caller
   * server the caller's own (connected, within its connect timeout, when it has none; a
   * caller not signed in gets the error carrying their sign-in link).
   */
  private async upstreamOf(entry: Entry): Promise<BackendConnection | undefined> {
    if (entry.caller === undefined) return this.source.pool.liveConnection(entry.backendId);
    return this.source.pool.connectionFor(entry.backendId, undefined, entry.caller);
  }

  /**
   * A backend reported `notifications/resources/updated` for one of its URIs; `caller`: on
   * that caller's own connection (a per-caller server), so for their sinks alone.
   */
  updated(backendId: string, original: string, caller?: string): void {
    const uri = advertisedUri(backendId, original);
    const entry = this.entries.get(keyOf(uri, caller));
    if (!entry) return;
    for (const sink of entry.sinks) {
      // Re-checked per update: turning a resource off stops its updates at once.
      if (!this.source.mayUse(sink.client, 'resources', uri)) continue;
      sink.deliver(uri, entry.caller);
    }
  }

  /**
   * A caller's own connection to a per-caller server closed. Dropped unexpectedly (`renew`):
   * their subscriptions are made again on a new connection of theirs. Closed on purpose
   * (revoked, signed out, idle, closed for a more recent caller), or when that fails: they
   * end (the person subscribes again once signed in).
   */
  callerClosed(backendId: string, caller: string, renew: boolean): void {
    for (const [key, entry] of [...this.entries]) {
      if (entry.backendId !== backendId || entry.caller !== caller) continue;
      entry.subscribed = false;
      entry.connection = undefined;
      const end = (): void => {
        if (this.entries.get(key) === entry) this.entries.delete(key);
      };
      if (renew) void this.sync(key, entry).catch(end);
      else end();
    }
  }

  /**
   * A backend (re)connected: subscribe again upstream for URIs still in the
   * catalog; forget the ones that are gone.
   */
  resubscribe(backendId: string): void {
    const catalog = this.source.catalog();
    for (const [key, entry] of this.entries) {
      if (entry.backendId !== backendId) continue;
      // A caller's subscription lives on their own connection, not the one that came online.
      if (entry.caller !== undefined) continue;
      entry.subscribed = false;
      if (!catalog.resourceIndex.has(entry.uri)) {
        this.entries.delete(key);
        continue;
      }
      void this.sync(key, entry).catch(() => undefined);
    }
  }

  /** A subscription needs its backend running: start the owners of `uris` that are starting or idle. */
  private async wakeOwners(uris: string[], client: string): Promise<void> {
    const { pool } = this.source;
    const catalog = this.source.catalog();
    const visible = uris.filter((uri) => this.source.mayUse(client, 'resources', uri));
    const owners = new Set(visible.flatMap((uri) => catalog.resourceIndex.get(uri)?.backendId ?? []));
    // Waiting for the connection starts an idle one; a backend that fails to start is the subscription's problem later.
    const wake = async (owner: string) => void (await pool.connectionFor(owner));
    await Promise.all([...owners].map((owner) => wake(owner).catch(() => undefined)));
  }

  /**
   * Whether any frontend holds a subscription on one of the backend's resources (it must keep
   * running); with `caller`, one of that caller's own (their connection must stay open).
   */
  holds(backendId: string, caller?: string): boolean {
    for (const entry of this.entries.values())
      if (entry.backendId === backendId && entry.caller === caller && entry.sinks.size > 0) return true;
    return false;
  }

  /** Subscriptions per advertised URI (for health and tests), a per-caller server's summed over callers. */
  counts(): Record<string, number> {
    const counts: Record<string, number> = {};
    for (const { uri, sinks } of this.entries.values()) counts[uri] = (counts[uri] ?? 0) + sinks.size;
    return counts;
  }
}
