/**
 * Health probes of one backend's live connection, every `healthIntervalMs`
 * while it is up: `ping` on a 2025-era connection, `tools/list` on a
 * 2026-07-28 one (ping was removed in that revision). Counts failures in a
 * row; what they mean for the backend's status is the supervisor's call.
 */
import type { BackendConnection } from '../connection/backendConnection.js';

/** What the probe needs of its supervisor. */
export interface HealthProbeHost {
  /** The connection to probe now (undefined: none is live). */
  liveConnection(): BackendConnection | undefined;
  /** Whether `connection` is still the supervisor's; results for an older one are dropped. */
  isCurrent(connection: BackendConnection): boolean;
  intervalMs(): number;
  /** A probe answered (the failure count is back to 0). */
  succeeded(): void;
  /** A probe failed; `failures` in a row so far. */
  failed(failures: number, error: unknown): void;
}

/** Probes one backend on a timer or on demand, one probe at a time. */
export class HealthProbe {
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private failuresInRow = 0;
  private lastAt: string | undefined;

  constructor(private readonly target: HealthProbeHost) {}

  /** Probe failures in a row. */
  get failures(): number {
    return this.failuresInRow;
  }

  /** When the last probe answered (ISO time). */
  get lastProbeAt(): string | undefined {
    return this.lastAt;
  }

  /** Starts counting failures from 0 again (a new connection). */
  resetFailures(): void {
    this.failuresInRow = 0;
  }

  /** Probes every interval from now on (restarting the timer). */
  start(): void {
    this.stop();
    this.timer = setInterval(() => void this.run(), this.target.intervalMs());
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** One probe now; does nothing while one is running or nothing is live. */
  async run(): Promise<void> {
    const connection = this.target.liveConnection();
    if (!connection || this.running) return;
    this.running = true;
    try {
      await connection.run('health probe', ({ signal, sdkTimeoutMs }) =>
        connection.probe({ signal, timeout: sdkTimeoutMs() }),
      );
      if (!this.target.isCurrent(connection)) return;
      this.failuresInRow = 0;
      this.lastAt = new Date().toISOString();
      this.target.succeeded();
    } catch (error) {
      if (!this.target.isCurrent(connection)) return;
      this.failuresInRow++;
      this.target.failed(this.failuresInRow, error);
    } finally {
      this.running = false;
    }
  }
}
