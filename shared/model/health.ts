import type { ErrorData } from '../errors.js';
import type { ReviewStateView, ScanSummaryView } from './reviewViews.js';
import type { TransportKind } from './transports.js';

/**
 * Where a backend stands. `degraded` keeps serving its last catalog snapshot;
 * `needs-authorization` waits for the user to sign in (OAuth), it is not retried;
 * `idle` is an on-demand server that is stopped while its cached catalog stays
 * published (the next request starts it).
 */
export type BackendStatus = 'connecting' | 'up' | 'degraded' | 'down' | 'disabled' | 'needs-authorization' | 'idle';

export type { TransportKind } from './transports.js';

/** The protocol era negotiated with a backend (or a frontend). */
export type ProtocolEra = 'legacy' | 'modern';

/** Where a remote backend's OAuth authorization stands (MCP authorization spec). */
export type AuthState = 'none' | 'authorized' | 'needs-authorization' | 'expired' | 'refreshing';

/**
 * A remote backend's OAuth summary, from what the OS keychain holds. Never a
 * token, a client secret or an authorization URL.
 */
export interface BackendAuthSummary {
  state: AuthState;
  /** When the access token expires (ISO time). */
  expiresAt?: string;
  /** The scope granted (space-separated). */
  scope?: string;
  /** Why authorization is needed (e.g. the refresh was refused, or a wider scope is asked for). */
  reason?: string;
  authorizationUrl?: never;
}

/** Something a sandbox refused a server, as far as the server's own messages tell. */
export interface SandboxBlock {
  kind: 'read' | 'write' | 'connect';
  /** A host path, or a host (`api.github.com`, `127.0.0.1:5432`). */
  target: string;
}

/** A stdio server's sandbox (electron/core/backends/process/sandbox/), as health shows it. */
export interface BackendSandbox {
  /**
   * `on`: it runs sandboxed; `off`: it runs with the user's rights;
   * `unavailable`: its sandbox is on but none can run here, so it is not started.
   */
  state: 'on' | 'off' | 'unavailable';
  engine?: 'bubblewrap' | 'srt';
  /** Why no sandbox can run here (`unavailable`). */
  reason?: string;
  /** Granted beyond the defaults. */
  read: string[];
  write: string[];
  network: 'none' | 'all' | string[];
  /** What it was refused since it started (newest last, at most 20). */
  blocked: SandboxBlock[];
  /** Quarantined (absent: not): how it is contained while it is reviewed. */
  quarantine?: QuarantineContainment;
  /** The home folder it was given (refusals under it are said as `~/...`: sandboxBlock.ts). */
  home?: string;
}

/**
 * How a quarantined stdio server is contained while it is reviewed:
 * `strict`: under the strict sandbox (no network, no home, no grant),
 * whatever its own setting; `held`: no sandbox can run here, so it is not
 * started until the user runs `command` (a recorded choice); `unsandboxed`:
 * the user chose that; `container`: a container runtime, contained by itself.
 */
export interface QuarantineContainment {
  mode: 'strict' | 'held' | 'unsandboxed' | 'container';
  /** `held`: the exact command that starts it unsandboxed while it is reviewed. */
  command?: string;
}

/** What the core reports about one backend. Contains no secrets. */
export interface BackendHealth {
  id: string;
  transport: TransportKind;
  status: BackendStatus;
  /** True once the first connection attempt finished, whatever its outcome. */
  settled: boolean;
  era?: ProtocolEra;
  protocolVersion?: string;
  serverInfo?: { name: string; version: string };
  lastError?: ErrorData & { at: string };
  /** Problems that did not stop the backend, e.g. a resource template that was skipped. */
  warnings: string[];
  counts: { tools: number; resources: number; resourceTemplates: number; prompts: number };
  /** When the last health probe succeeded (ISO time). */
  lastProbeAt?: string;
  /** Failed probes in a row. */
  probeFailures: number;
  /** How many times the backend was started again after its first start (crash, edit, restart). */
  restarts: number;
  /** When the next automatic reconnect attempt is due (ISO time), while down. */
  nextRetryAt?: string;
  /** Requests waiting for or in flight to this backend. */
  outstandingRequests: number;
  /** Requests to it a rate limit of `policy.limits` refused since start (absent: none). */
  rateLimited?: number;
  pid?: number;
  stderrTail?: string[];
  /** Its published catalog is the one cached from an earlier run (no live listing yet). */
  cached?: boolean;
  /** When it is started: at launch, or by its first request. */
  start?: 'eager' | 'on-demand';
  /** How long its last start took, spawn to listed catalog (ms). */
  startMs?: number;
  /** OAuth state of a remote backend that may use OAuth (absent for stdio and explicit Authorization headers). */
  auth?: BackendAuthSummary;
  /** A stdio server's sandbox (absent for remote servers). */
  sandbox?: BackendSandbox;
  /** Its items are hidden from every client until the user approves it (quarantine; `review` says why). */
  quarantined?: boolean;
  /** Its review: quarantine, the launch line's approval, tool changes held (absent: no approvals file in this run). */
  review?: ReviewStateView;
  /** The poisoning scan of its definitions (absent: not listed yet). */
  scan?: ScanSummaryView;
  /** A per-principal stdio server (`instances: "per-principal"`): how many people's own processes run now. */
  principalProcesses?: number;
}

/** Aggregate readiness, as served by `/readyz`. */
export interface Readiness {
  ready: boolean;
  /** Every enabled backend has finished its first connection attempt (up or not). */
  settled: boolean;
  /**
   * Every enabled backend has settled or has its cached catalog published: a
   * tools/list answered now is complete (a call to a starting one waits).
   */
  listable: boolean;
  counts: Record<BackendStatus, number>;
  /**
   * Replicas only (a `cluster` section): whether this replica reaches the Redis they share, and its
   * name. `down` does not make it unready: what needs no shared state is still served.
   */
  sharedState?: { status: 'up' | 'down'; replicaId: string };
}
