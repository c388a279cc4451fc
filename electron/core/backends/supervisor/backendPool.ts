/**
 * The pool of backend connections: the core's supervisors by backend ID (a
 * Map; insertion order is config order), with the lookup every runtime action
 * starts from, the one way the request path reaches a backend
 * (`connectionFor`: the router, tasks and subscriptions receive this pool),
 * and readiness as `/readyz` reports it: every enabled backend has finished
 * its first connection attempt and at least one is up or idle (or none is
 * configured).
 */
import { ErrorCode, SwitchboardError } from '../../../../shared/errors.js';
import type { BackendStatus, Readiness } from '../../../../shared/model/health.js';
import type { ProxyOptions } from '../../platform/config/schema.js';
import { isPrincipalKey } from '../../platform/config/principalId.js';
import { connectTimeoutMs } from '../connection/backendConnection.js';
import type { BackendConnection } from '../connection/backendConnection.js';
import type { BackendSupervisor } from './backendSupervisor.js';

/** What readiness needs to know of one backend. */
export interface ReadinessInput {
  status: BackendStatus;
  enabled: boolean;
  settled: boolean;
  /** Its published catalog is the cached one while its first attempt runs. */
  publishedFromCache?: boolean;
}

/** Aggregates backends into readiness with counts per status. */
export function readinessOf(backends: Iterable<ReadinessInput>): Readiness {
  const counts: Record<BackendStatus, number> = {
    connecting: 0,
    up: 0,
    degraded: 0,
    down: 0,
    disabled: 0,
    'needs-authorization': 0,
    idle: 0,
  };
  let enabled = 0;
  let settled = true;
  let listable = true;
  for (const backend of backends) {
    counts[backend.status]++;
    if (backend.enabled) {
      enabled++;
      if (!backend.settled) settled = false;
      if (!backend.settled && !backend.publishedFromCache) listable = false;
    }
  }
  // An idle on-demand server serves its cached catalog and starts on the first request: it counts as serving.
  return {
    ready: settled && (enabled === 0 || counts.up + counts.degraded + counts.idle > 0),
    settled,
    listable,
    counts,
  };
}

/** What the pool reads of the core. */
export interface BackendPoolHost {
  /** Whether a backend's items are in the published catalog (only those are routed to). */
  isPublished(backendId: string): boolean;
  /** The proxy options in force (the connect timeout a waiting request gets). */
  proxy(): ProxyOptions;
}

/** Supervisors by backend ID, in config order, and their connections. */
export class BackendPool extends Map<string, BackendSupervisor> {
  constructor(private readonly host: BackendPoolHost) {
    super();
  }

  /**
   * A backend's live connection, only while its items are published (for
   * routing): a backend still starting with a cached catalog is waited for,
   * an idle on-demand one started, for at most its connect timeout.
   */
  connectionFor(
    backendId: string,
    signal?: AbortSignal,
    caller?: string,
    /** Who the caller is (email or subject), for a sign-in link a per-caller backend hands out. */
    person?: string,
  ): BackendConnection | undefined | Promise<BackendConnection | undefined> {
    const supervisor = this.host.isPublished(backendId) ? this.get(backendId) : undefined;
    if (!supervisor) return undefined;
    // A per-caller backend: the caller's own connection (callerKey), never a shared one.
    if (supervisor.perCaller) {
      if (caller === undefined) return undefined;
      return supervisor.callerConnection(caller, signal, person);
    }
    // A per-principal server: a signed-in person's own process; the local user's is the backend's own.
    if (supervisor.perPrincipal && caller !== undefined && isPrincipalKey(caller)) {
      return supervisor.principalConnection(caller, signal);
    }
    return supervisor.acquire(connectTimeoutMs(supervisor.config, this.host.proxy()), signal);
  }

  /**
   * A backend's live connection now, published or not (subscriptions, tasks); undefined while it
   * is down, and always for a per-caller backend (its connection is one caller's) and a
   * per-principal one (its connection is the local user's process: no one else's updates).
   */
  liveConnection(backendId: string): BackendConnection | undefined {
    const supervisor = this.get(backendId);
    return supervisor?.perCaller || supervisor?.perPrincipal ? undefined : supervisor?.liveConnection;
  }

  /**
   * Whose connection carries resource subscriptions to a backend, or undefined when it takes
   * none now (down, not declaring `resources.subscribe`, or per-principal): its one live
   * connection (`shared`), or each caller's own (`caller`: a per-caller backend, whose
   * capabilities are read from the connection that lists its catalog).
   */
  subscriptionsOf(backendId: string): 'shared' | 'caller' | undefined {
    const supervisor = this.get(backendId);
    if (!supervisor || supervisor.perPrincipal) return undefined;
    if (!supervisor.liveConnection?.capabilities?.resources?.subscribe) return undefined;
    return supervisor.perCaller ? 'caller' : 'shared';
  }

  /**
   * Whether `connection` still serves `backendId`: its live connection, or a
   * caller's own (a per-caller or per-principal backend) not closed since.
   * A task run on a connection no longer held has lost its work.
   */
  holds(backendId: string, connection: BackendConnection): boolean {
    const supervisor = this.get(backendId);
    if (!supervisor) return false;
    return supervisor.liveConnection === connection || supervisor.callers.holds(connection);
  }

  /** The backend's supervisor; throws `unknown_backend` when there is none. */
  require(id: string): BackendSupervisor {
    const supervisor = this.get(id);
    if (!supervisor) {
      throw new SwitchboardError(ErrorCode.UnknownBackend, `no backend with ID "${id}"`, { backend: id });
    }
    return supervisor;
  }

  /**
   * Ready once every enabled backend has finished its first connection attempt
   * and at least one is up (or none is configured).
   */
  readiness(): Readiness {
    return readinessOf(
      [...this.values()].map((supervisor) => ({
        status: supervisor.currentStatus,
        enabled: supervisor.config.enabled,
        settled: supervisor.isSettled,
        publishedFromCache: supervisor.publishedFromCache,
      })),
    );
  }

  /**
   * The latest time worth waiting for a backend still on its first attempt
   * (started at `startedAt`) with nothing published (the startup grace), or
   * undefined: none is.
   */
  firstAttemptDeadline(startedAt: number): number | undefined {
    const proxy = this.host.proxy();
    let latest: number | undefined;
    for (const supervisor of this.values()) {
      if (supervisor.isSettled || supervisor.publishedFromCache || !supervisor.config.enabled) continue;
      latest = Math.max(latest ?? 0, startedAt + connectTimeoutMs(supervisor.config, proxy));
    }
    return latest;
  }
}
