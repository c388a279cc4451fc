/**
 * The parts of a backend's life that on-demand starting and cached catalogs
 * add to its supervisor: waiting until a starting backend is live (a call to
 * a cached item of a backend still starting waits instead of failing), and
 * the idle timer that stops an on-demand server nobody uses.
 */
import { ErrorCode, SwitchboardError } from '../../../../shared/errors.js';
import type { BackendStatus } from '../../../../shared/model/health.js';
import type { Logger } from '../../platform/deps.js';
import type { BackendConnection } from '../connection/backendConnection.js';

/** Statuses in which requests can be sent. */
const LIVE: ReadonlySet<BackendStatus> = new Set(['up', 'degraded', 'needs-authorization']);
/** Statuses a waiter gives up on: the start failed or will not happen by itself. */
const GIVE_UP: ReadonlySet<BackendStatus> = new Set(['down', 'disabled', 'idle']);

/** Callers waiting for one backend to be live. */
export class LiveWaiters {
  private readonly waiters = new Set<(status: BackendStatus) => void>();

  constructor(private readonly backendId: string) {}

  /**
   * Resolves once the backend's status is live; rejects with a clear error
   * when it goes down (or idle, or disabled) instead, after `timeoutMs`, or
   * when `signal` aborts.
   */
  wait(timeoutMs: number, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const done = (error?: unknown): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.waiters.delete(onStatus);
        if (error) reject(error instanceof Error ? error : new Error(String(error)));
        else resolve();
      };
      const onStatus = (status: BackendStatus): void => {
        if (LIVE.has(status)) done();
        else if (GIVE_UP.has(status)) {
          done(
            new SwitchboardError(ErrorCode.BackendUnavailable, `backend "${this.backendId}" did not start`, {
              backend: this.backendId,
            }),
          );
        }
      };
      const onAbort = (): void => done(signal?.reason ?? new Error('aborted'));
      const timer = setTimeout(
        () =>
          done(
            new SwitchboardError(
              ErrorCode.Timeout,
              `backend "${this.backendId}" did not start within ${timeoutMs} ms`,
              { backend: this.backendId },
            ),
          ),
        timeoutMs,
      );
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiters.add(onStatus);
    });
  }

  /** The backend's status changed. */
  settle(status: BackendStatus): void {
    for (const waiter of [...this.waiters]) waiter(status);
  }
}

/** What the idle timer needs of its backend. */
export interface IdleTimerHost {
  /** The idle timeout in force (ms). */
  timeoutMs(): number;
  /** Whether anything still uses the backend: requests in flight, subscriptions, streams. */
  inUse(): boolean;
  /** Stops the backend (idle), keeping its catalog published. */
  expire(): void;
}

/**
 * Stops an on-demand backend `timeoutMs` after its last use. Each use pushes
 * the deadline back; at the deadline a backend still in use (a long call, a
 * resource subscription, an open listen stream) is checked again later.
 */
export class IdleTimer {
  private timer: NodeJS.Timeout | undefined;
  private lastUse = Date.now();

  constructor(private readonly target: IdleTimerHost) {}

  /** Starts (or restarts) counting from now. */
  arm(): void {
    this.lastUse = Date.now();
    this.schedule(this.target.timeoutMs());
  }

  /** A request used the backend. */
  touch(): void {
    this.lastUse = Date.now();
    if (!this.timer) this.schedule(this.target.timeoutMs());
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private schedule(delayMs: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.check(), delayMs);
    this.timer.unref();
  }

  private check(): void {
    this.timer = undefined;
    const remaining = this.lastUse + this.target.timeoutMs() - Date.now();
    if (remaining > 0) return this.schedule(remaining);
    // Still used: look again after another period (a subscription may end any time).
    if (this.target.inUse()) return this.schedule(Math.min(this.target.timeoutMs(), 60_000));
    this.target.expire();
  }
}

/** What on-demand starting needs of its supervisor. */
export interface OnDemandHost {
  readonly id: string;
  readonly logger: Logger;
  status(): BackendStatus;
  isStopped(): boolean;
  /** The connection requests can use now (undefined: not live). */
  live(): BackendConnection | undefined;
  /** Starts the backend (connect, list, publish). */
  start(): void;
  /** Starts it now if its first start is still deferred (a cached catalog served the lists so far). */
  startIfDeferred(): void;
  /** Takes the live connection out (probes stop), leaving the catalog published, and shows the backend `idle`. */
  takeIdle(): BackendConnection | undefined;
  idleTimeoutMs(): number;
  /** Whether frontends hold subscriptions or streams on it. */
  subscribed(): boolean;
}

/**
 * A supervisor's on-demand side: requests that wait for a starting backend
 * (or start an idle one), and the idle stop of an on-demand server.
 */
export class OnDemandStart {
  private readonly waiters: LiveWaiters;
  private readonly idle: IdleTimer;

  constructor(private readonly host: OnDemandHost) {
    this.waiters = new LiveWaiters(host.id);
    this.idle = new IdleTimer({
      timeoutMs: () => host.idleTimeoutMs(),
      inUse: () => (host.live()?.outstanding ?? 0) > 0 || host.subscribed(),
      expire: () => void this.sleep(),
    });
  }

  /** The status changed: wake the waiters it settles. */
  statusChanged(status: BackendStatus): void {
    this.waiters.settle(status);
  }

  /** An on-demand backend is up: count its idle time from now. */
  armIdle(): void {
    this.idle.arm();
  }

  stop(): void {
    this.idle.stop();
  }

  /**
   * The live connection for a request: at once when live (no promise on the
   * hot path); a starting backend is waited for and an idle one started, both
   * bounded by `timeoutMs`. Undefined when it is down, disabled or stopped.
   */
  acquire(
    timeoutMs: number,
    signal?: AbortSignal,
  ): BackendConnection | undefined | Promise<BackendConnection | undefined> {
    this.idle.touch();
    const live = this.host.live();
    if (live) return live;
    const status = this.host.status();
    if (this.host.isStopped() || (status !== 'connecting' && status !== 'idle')) return undefined;
    const waiting = this.waiters.wait(timeoutMs, signal);
    if (status === 'idle') this.host.start();
    else this.host.startIfDeferred();
    return waiting.then(() => {
      this.idle.touch();
      return this.host.live();
    });
  }

  /** Stops an idle on-demand server, whole process tree; its catalog stays published as `idle`. */
  private async sleep(): Promise<void> {
    if (this.host.isStopped()) return;
    const connection = this.host.takeIdle();
    if (!connection) return;
    this.host.logger.info(`backend "${this.host.id}" stopped after its idle timeout`);
    await connection.close(
      new SwitchboardError(ErrorCode.BackendUnavailable, `backend "${this.host.id}" was stopped (idle)`, {
        backend: this.host.id,
      }),
    );
  }
}
