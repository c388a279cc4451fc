/**
 * One backend's status and the rules it follows (see backendSupervisor.ts):
 * each change is logged once, repeats summarized (stateLog.ts); probe
 * failures degrade a backend only after `probeFailureThreshold` in a row, and
 * a backend degraded by probes alone is up again at the next answer; any
 * status but `connecting` settles the first attempt. Every change is
 * reported through `changed`.
 */
import { ErrorCode } from '../../../../shared/errors.js';
import { toErrorData } from '../../platform/toErrorData.js';
import type { BackendHealth, BackendStatus } from '../../../../shared/model/health.js';
import type { Logger } from '../../platform/deps.js';
import { BackendStateLog } from './stateLog.js';

/** The error code of a backend degraded by failed health probes. */
const PROBE_FAILED = ErrorCode.ProbeFailed;

/** Where a status change goes. */
export interface SupervisorStatusHost {
  id(): string;
  logger(): Logger;
  /** The status changed to `status` (or only its details did, when `status` is undefined). */
  changed(status: BackendStatus | undefined): void;
}

/** A backend's status, its last error and whether its first attempt has finished. */
export class SupervisorStatus {
  private current: BackendStatus;
  private settledOnce: boolean;
  /** The error behind `down`, `degraded` or `needs-authorization`. */
  lastError: BackendHealth['lastError'];
  /** Starts after the first (waking an idle on-demand server is not one). */
  restarts = 0;
  /** How long the last start took, slot acquired to catalog listed (ms). */
  startMs: number | undefined;
  private readonly log: BackendStateLog;

  constructor(
    enabled: boolean,
    private readonly hooks: SupervisorStatusHost,
  ) {
    this.current = enabled ? 'connecting' : 'disabled';
    this.settledOnce = !enabled;
    this.log = new BackendStateLog({ id: hooks.id, logger: hooks.logger });
  }

  get status(): BackendStatus {
    return this.current;
  }

  /** Whether the first connection attempt has finished. */
  get settled(): boolean {
    return this.settledOnce;
  }

  /** Whether a connection serves requests: up, degraded, or needing a wider scope (the current grant still serves). */
  get live(): boolean {
    return this.current === 'up' || this.current === 'degraded' || this.current === 'needs-authorization';
  }

  /** Moves to `status`, keeping the last error. */
  set(status: BackendStatus): void {
    this.log.status(status, this.lastError?.message ?? ''); // changes once each, repeats summarized
    if (status !== 'connecting') this.settledOnce = true;
    this.current = status;
    this.hooks.changed(status);
  }

  /** Up, with no error. */
  up(): void {
    this.lastError = undefined;
    this.set('up');
  }

  /** Down because of `error`. */
  fail(error: unknown): void {
    this.lastError = { ...toErrorData(error), at: new Date().toISOString() };
    this.set('down');
  }

  /** Degraded because of `error` (the last snapshot stays published). */
  degrade(error: unknown): void {
    this.lastError = { ...toErrorData(error), at: new Date().toISOString() };
    this.set('degraded');
  }

  /** Waiting for the user to authorize (OAuth), because of `lastError`. */
  needsAuthorization(lastError: BackendHealth['lastError']): void {
    this.lastError = lastError;
    this.set('needs-authorization');
  }

  /** A probe answered: a backend degraded by probes alone is up again. */
  probeSucceeded(): void {
    if (this.current === 'degraded' && this.lastError?.code === PROBE_FAILED) this.up();
    else this.hooks.changed(undefined);
  }

  /** Degraded once `threshold` probes in a row failed (the catalog stays published). */
  probeFailed(failures: number, threshold: number, error: unknown): void {
    if (failures < threshold) return this.hooks.changed(undefined);
    const message = error instanceof Error ? error.message : String(error);
    this.lastError = {
      code: PROBE_FAILED,
      message: `${failures} health probes in a row failed; last: ${message}`,
      at: new Date().toISOString(),
    };
    this.set('degraded');
  }
}
