/**
 * What every frontend endpoint (HTTP, stdio, any later one) does alike, so a
 * new endpoint copies none of it: it registers its sessions with the core's
 * session registry (the Clients screen), turns each 2026-07-28
 * `subscriptions/listen` into a subscription sink whose updates go out
 * coalesced, and fans list_changed and backend log notifications out to its
 * 2025-era servers (MCP spec 2025-11-25, "List Changed Notification" and
 * "Logging"). The endpoint keeps only its wire: how requests arrive, which
 * servers it holds, how an update reaches its listens.
 */
import type { Server } from '@modelcontextprotocol/server';
import type { SessionView } from '../../../../shared/model/views.js';
import type { CoreEvents } from '../../api/events.js';
import { LOCAL_CLIENT } from '../../platform/config/policyConfig.js';
import { CoalescingSink, type UpdateSink } from '../relay/coalescingSink.js';
import type { FrontendCore } from '../../api/services.js';
import { forwardBackendLog, notifyListChanged, servedClient } from './mcpServer.js';
import { notifyTaskStatus } from './legacyTaskMethods.js';
import { clientInfoOf } from '../sessions/sessionRegistry.js';

/** A frontend server and the session it serves (log notifications name it). */
export type ServedSession = readonly [server: Server, sessionId: string | undefined];

/** What an endpoint tells the hub about itself. */
export interface FrontendHubOptions {
  /** The transport its sessions are listed under. */
  transport: SessionView['transport'];
  /** Its 2025-era servers, now (they get list_changed and backend logs). */
  servers(): Iterable<ServedSession>;
  /** Sends one resource update to the 2026 listens that asked for it (the SDK fans it out). */
  publish(uri: string): Promise<void>;
  /** One caller's own update (a per-caller server's): to that caller's listens only (default: as `publish`). */
  publishTo?(uri: string, caller: string): void;
  /** Name of its coalescing publisher (in diagnostics). */
  publisherId: string;
  /** The catalog changed: what the endpoint does beyond the 2025-era servers' list_changed. */
  catalogChanged?(changed: CoreEvents['catalogChanged']): void;
}

/** Session registration, listen sinks and notification fan-out of one frontend endpoint. */
export class FrontendHub {
  /** Resource updates to 2026 listens, coalesced while a send is under way. */
  private readonly publisher: CoalescingSink;
  private readonly unsubscribe: (() => void)[];

  constructor(
    private readonly core: FrontendCore,
    private readonly options: FrontendHubOptions,
  ) {
    this.publisher = new CoalescingSink(options.publisherId, (uri) => options.publish(uri), LOCAL_CLIENT);
    this.unsubscribe = [
      core.events.on('catalogChanged', (changed) => {
        options.catalogChanged?.(changed);
        for (const [server] of options.servers()) void notifyListChanged(core, server, changed);
      }),
      core.events.on('backendLog', (event) => {
        for (const [server, id] of options.servers()) void forwardBackendLog(server, event, id);
      }),
      // 2025-11-25 notifications/tasks/status, to the sessions of the task's owner only.
      core.tasks.registry.onChange((change) => {
        if (change.kind === 'dropped') return;
        for (const [server] of options.servers()) void notifyTaskStatus(server, servedClient(server), change.task);
      }),
    ];
  }

  /** Registers a session from its first request (`initialize`, or a 2026 request's `_meta`); returns its ID. */
  open(profile: string, era: SessionView['era'], firstMessage: unknown, id?: string): string {
    const info = clientInfoOf(firstMessage);
    const session = {
      profile,
      era,
      transport: this.options.transport,
      clientName: info.name,
      clientVersion: info.version,
    };
    return this.core.sessions.open(session, id);
  }

  /** A stateless 2026 request from `profile`: its client is listed while it keeps coming. */
  seenModern(profile: string, message: unknown): void {
    const info = clientInfoOf(message);
    this.core.sessions.seenModern({
      profile,
      transport: this.options.transport,
      clientName: info.name,
      clientVersion: info.version,
    });
  }

  /** Activity on a session. */
  touch(id: string): void {
    this.core.sessions.touch(id);
  }

  /** A session ended. */
  close(id: string): void {
    this.core.sessions.close(id);
  }

  /** Every 2026 entry of a client ends (its token was revoked). */
  closeModern(profile: string): void {
    this.core.sessions.closeModern(profile);
  }

  /**
   * Subscribes a listen's URIs upstream for `client` (acting for `caller`: callerIdentity.ts
   * callerKey); rejects with the ProtocolError to answer (unknown URI, template instance) and
   * keeps nothing.
   */
  async listen(sinkId: string, client: string, uris: string[], caller?: string): Promise<UpdateSink> {
    const { publishTo } = this.options;
    const deliver = (uri: string, owner?: string): void =>
      owner !== undefined && publishTo ? publishTo(uri, owner) : this.publisher.deliver(uri);
    const sink: UpdateSink = { id: sinkId, client, caller, deliver };
    await this.core.subscriptions.attachAll(sink, uris);
    return sink;
  }

  /** A listen ended, however: its upstream subscriptions are released. */
  endListen(sink: UpdateSink): void {
    this.core.subscriptions.detachAll(sink);
  }

  /** Whether `client` may still listen to every one of `uris`. */
  mayListen(client: string, uris: readonly string[]): boolean {
    return uris.every((uri) => {
      try {
        this.core.subscriptions.validate(uri, client);
        return true;
      } catch {
        return false;
      }
    });
  }

  /** Stops the fan-out. */
  dispose(): void {
    for (const stop of this.unsubscribe) stop();
  }
}
