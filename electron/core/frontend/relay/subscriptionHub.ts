/**
 * Resource subscriptions shared by every frontend. A frontend may subscribe to
 * an exact resource of the catalog; the first subscriber makes the proxy
 * subscribe upstream, the last one leaving unsubscribes it. Updates from a
 * backend are forwarded under the advertised URI to each subscribed sink.
 */
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { BackendPool } from '../../backends/supervisor/backendPool.js';
import type { Catalog, ItemOrigin } from '../../catalog/catalog.js';
import { advertisedUri } from '../../catalog/uris.js';
import { ErrorCode } from '../../../../shared/errors.js';
import type { AuditEntry, AuditOutcome } from '../../catalog/policy/auditLog.js';
import type { UpdateSink } from './coalescingSink.js';

/** What the hub needs from the core. */
export interface SubscriptionHubHost {
  catalog(): Catalog;
  /** The backends' connections: a live one to subscribe upstream; `connectionFor` wakes a starting or idle one. */
  pool: Pick<BackendPool, 'liveConnection' | 'connectionFor'>;
  /** Whether a client may see an item (checked on subscribe and again before each update). */
  mayUse(client: string, kind: 'resources' | 'resourceTemplates', key: string): boolean;
  /** Records subscribe and unsubscribe in the audit log. */
  audit?(entry: AuditEntry): void;
}

interface Entry extends ItemOrigin {
  sinks: Set<UpdateSink>;
  /** The upstream subscribe/unsubscribe for this URI, in order. */
  upstream: Promise<void>;
  subscribed: boolean;
}

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
    const connection = this.source.pool.liveConnection(origin.backendId);
    if (!connection?.capabilities?.resources?.subscribe) {
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
    let entry = this.entries.get(uri);
    if (!entry) {
      entry = { ...origin, sinks: new Set(), upstream: Promise.resolve(), subscribed: false };
      this.entries.set(uri, entry);
    }
    entry.sinks.add(sink);
    try {
      await this.sync(uri, entry);
      record('ok', origin);
    } catch (error) {
      record('error', origin, ErrorCode.ListFailed);
      entry.sinks.delete(sink);
      if (entry.sinks.size === 0) this.entries.delete(uri);
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
    const entry = this.entries.get(uri);
    if (!entry?.sinks.delete(sink)) return;
    this.source.audit?.({
      time: new Date().toISOString(),
      client: sink.client,
      backend: entry.backendId,
      kind: 'resources/unsubscribe',
      item: entry.original,
      outcome: 'ok',
      durationMs: 0,
    });
    await this.sync(uri, entry).catch(() => undefined);
  }

  /** Unsubscribes a sink from everything (its session or stream ended). */
  detachAll(sink: UpdateSink): void {
    for (const uri of [...this.entries.keys()]) void this.detach(sink, uri);
  }

  /**
   * Brings the upstream state of one URI in line with its sinks: subscribe when
   * the first arrives, unsubscribe when the last leaves. Runs in order per URI.
   */
  private sync(uri: string, entry: Entry): Promise<void> {
    const next = entry.upstream.then(async () => {
      const want = entry.sinks.size > 0;
      if (want === entry.subscribed) return;
      const connection = this.source.pool.liveConnection(entry.backendId);
      if (want) {
        if (!connection) throw new Error(`backend "${entry.backendId}" is not connected`);
        await connection.subscriptions().add(entry.original);
        entry.subscribed = true;
      } else {
        entry.subscribed = false;
        if (this.entries.get(uri) === entry) this.entries.delete(uri);
        await connection?.subscriptions().remove(entry.original);
      }
    });
    entry.upstream = next.catch(() => undefined);
    return next;
  }

  /** A backend reported `notifications/resources/updated` for one of its URIs. */
  updated(backendId: string, original: string): void {
    const uri = advertisedUri(backendId, original);
    const entry = this.entries.get(uri);
    if (!entry) return;
    for (const sink of entry.sinks) {
      // Re-checked per update: turning a resource off stops its updates at once.
      if (!this.source.mayUse(sink.client, 'resources', uri)) continue;
      sink.deliver(uri);
    }
  }

  /**
   * A backend (re)connected: subscribe again upstream for URIs still in the
   * catalog; forget the ones that are gone.
   */
  resubscribe(backendId: string): void {
    const catalog = this.source.catalog();
    for (const [uri, entry] of this.entries) {
      if (entry.backendId !== backendId) continue;
      entry.subscribed = false;
      if (!catalog.resourceIndex.has(uri)) {
        this.entries.delete(uri);
        continue;
      }
      void this.sync(uri, entry).catch(() => undefined);
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

  /** Whether any frontend holds a subscription on one of the backend's resources (it must keep running). */
  holds(backendId: string): boolean {
    for (const entry of this.entries.values()) if (entry.backendId === backendId && entry.sinks.size > 0) return true;
    return false;
  }

  /** Subscriptions per advertised URI (for health and tests). */
  counts(): Record<string, number> {
    return Object.fromEntries([...this.entries].map(([uri, entry]) => [uri, entry.sinks.size]));
  }
}
