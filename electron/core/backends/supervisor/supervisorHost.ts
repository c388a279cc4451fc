/**
 * What a backend supervisor needs from the core: its options and platform
 * pieces, and where it reports (publishing, health, logs, resource updates).
 */
import type { LoggingMessageNotification } from '@modelcontextprotocol/client';
import type { BackendAuth } from '../../platform/auth/backendAuth.js';
import type { CallerCredentials } from '../../platform/auth/callerCredentials.js';
import type { TokenExchange } from '../../platform/auth/tokenExchange.js';
import type { ProxyOptions } from '../../platform/config/schema.js';
import type { CoreDeps } from '../../platform/deps.js';
import type { SecretStore } from '../../platform/secrets/secretStore.js';
import type { BackendTaskStatus } from '../connection/backendClient.js';
import type { BackendCatalog } from '../connection/backendConnection.js';
import type { IBackendEras } from '../connection/backendEras.js';
import type { QuarantineLaunch } from '../process/sandbox/sandboxedLaunch.js';

/** What a supervisor needs from the core. */
export interface SupervisorHost {
  readonly deps: CoreDeps;
  /** Where secret references in env and headers are resolved. */
  readonly secrets?: SecretStore | undefined;
  proxyOptions(): ProxyOptions;
  /** Eras found by earlier probes of stdio servers (each is probed once per launch line). */
  readonly eras?: IBackendEras | undefined;
  /** Publishes a snapshot; throws (publishing nothing) on a collision or limit. */
  admit(backendId: string, snapshot: BackendCatalog): Promise<void>;
  /** Takes the backend's items out of the catalog. */
  unpublish(backendId: string): void;
  /** Health changed (an invalidation). */
  changed(backendId: string): void;
  /** The backend sent a log message. */
  log(backendId: string, params: LoggingMessageNotification['params']): void;
  /** The backend reported an update of a subscribed resource (its own URI); `caller`: on that caller's own connection. */
  resourceUpdated(backendId: string, uri: string, caller?: string): void;
  /** The backend reported a status of one of its tasks (`notifications/tasks/status`). */
  taskStatus?(backendId: string, params: BackendTaskStatus): void;
  /** The backend is up on a new connection (re-establish upstream state). */
  online(backendId: string): void;
  /** Per-caller upstream credentials (absent: per-caller backends cannot run here). */
  readonly callerCredentials?: CallerCredentials | undefined;
  /** Token exchange for `credentials: "token-exchange"` backends (absent: they cannot run here). */
  readonly tokenExchange?: TokenExchange | undefined;
  /** OAuth of a remote backend that may use it (undefined: none). */
  authFor?(backendId: string): BackendAuth | undefined;
  /**
   * Waits for a start slot (bounded start-up); resolves with its release.
   * `pidOf` gives the child's PID once spawned (its CPU use decides whether it still counts).
   */
  startSlot?(signal?: AbortSignal, pidOf?: () => number | undefined): Promise<() => void>;
  /** A live catalog was published (the core caches it, with the last start's duration). */
  catalogListed?(backendId: string, snapshot: BackendCatalog, startMs?: number): void;
  /**
   * Whether the backend is quarantined (never approved, or its launch line
   * changed since): a stdio one then runs under the strict sandbox
   * (undefined: it is not, or no approvals are kept).
   */
  quarantine?(backendId: string): QuarantineLaunch | undefined;
  /**
   * Whether frontends hold resource subscriptions or streams on the backend (keeps an on-demand
   * server running); with `caller`, on that caller's own connection (keeps it open).
   */
  inUse?(backendId: string, caller?: string): boolean;
  /** A caller's own connection closed: dropped (`renew`: subscribe again on a new one) or closed on purpose. */
  callerClosed?(backendId: string, caller: string, renew: boolean): void;
}
