/**
 * Bounded start-up: a new server is spawned only while fewer than `limit`
 * servers are starting *and using the CPU*. Thirty `npx` servers on two cores
 * finish sooner a few at a time than all at once thrashing the CPU and disk,
 * but a server that is merely waiting while it starts (a timer, the network:
 * `npx` fetching a package, a slow remote login) costs no CPU, so it gives its
 * place to the next one instead of holding it until it is up. Whether a
 * starting server is busy is sampled from its process group (processCpu.ts):
 * it used CPU since the last sample, or one of its processes is runnable now;
 * where that cannot be read (no /proc), every starting server counts until its
 * start ends. A server that wakes up busy again counts again.
 * Waiters are served in arrival order (the launch order).
 */
import { availableParallelism } from 'node:os';
import { CPU_TIMES_AVAILABLE, groupCpu, type GroupCpu } from './processCpu.js';

/**
 * The default bound: four busy starts per core. A busy start is CPU-bound, so
 * fewer would do on an idle machine; but a start also waits on the disk and on
 * the core's answers, and on a machine busy with other work more of them
 * runnable get a larger share of it (measured in bench/startup.ts: with two per
 * core the cold start on a loaded two-core machine took 1.3x as long).
 */
export function defaultStartLimit(): number {
  return 4 * Math.max(1, availableParallelism());
}

/** How often starting servers' CPU time is read. */
export const SAMPLE_MS = 200;
/** Below this share of one core over a sample a starting server is waiting, not busy. */
export const BUSY_SHARE = 0.05;

/** Reads what each server's process group is doing (by the server's PID). */
export type CpuSampler = (pids: Iterable<number>) => Map<number, GroupCpu>;

/** One start in progress. */
interface Start {
  /** The server's PID once spawned. */
  pidOf: () => number | undefined;
  busy: boolean;
  pid?: number;
  cpuMs?: number;
  sampledAt?: number;
}

/** A waiter: granted with its start entry, counted from the moment it is granted. */
interface Waiter {
  start: Start;
  grant: () => void;
}

/** A counting semaphore for backend starts that does not count starts waiting on something else than the CPU. */
export class StartLimiter {
  private readonly starts = new Set<Start>();
  private readonly waiting: Waiter[] = [];
  private timer: NodeJS.Timeout | undefined;
  /** The most busy starts there were when a new one was granted (for tests and benchmarks). */
  peak = 0;

  /**
   * @param limit the bound in force
   * @param sample reads CPU times (default: /proc on Linux; none elsewhere, where every start counts)
   */
  constructor(
    private readonly limit: () => number,
    private readonly sample: CpuSampler | undefined = CPU_TIMES_AVAILABLE ? groupCpu : undefined,
  ) {}

  /** Starts in progress now, busy or waiting. */
  get inProgress(): number {
    return this.starts.size;
  }

  /** Starts in progress now that count against the bound. */
  get busy(): number {
    let busy = 0;
    for (const start of this.starts) if (start.busy) busy++;
    return busy;
  }

  /**
   * Waits until fewer than the bound are busy starting; resolves with the
   * release (idempotent) to call when the start ends. `pidOf` gives the
   * server's PID once spawned: from then on its CPU use decides whether it
   * counts. A signal that aborts while waiting rejects with its reason.
   */
  async acquire(signal?: AbortSignal, pidOf: () => number | undefined = () => undefined): Promise<() => void> {
    const start: Start = { pidOf, busy: true };
    if (this.waiting.length === 0 && this.busy < this.limit()) this.admit(start);
    else await this.queue(start, signal);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.starts.delete(start);
      this.grantWaiters();
    };
  }

  private admit(start: Start): void {
    this.peak = Math.max(this.peak, this.busy + 1);
    this.starts.add(start);
    if (this.sample && !this.timer) {
      this.timer = setInterval(() => this.tick(), SAMPLE_MS);
      this.timer.unref();
    }
  }

  private queue(start: Start, signal: AbortSignal | undefined): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        start,
        grant: () => {
          signal?.removeEventListener('abort', abort);
          resolve();
        },
      };
      const abort = (): void => {
        const index = this.waiting.indexOf(waiter);
        if (index >= 0) this.waiting.splice(index, 1);
        reject(signal?.reason instanceof Error ? signal.reason : new Error('aborted'));
      };
      if (signal?.aborted) return abort();
      signal?.addEventListener('abort', abort, { once: true });
      this.waiting.push(waiter);
    });
  }

  /** Grants waiters in order while there is room (each counts from its grant, before it resumes). */
  private grantWaiters(): void {
    while (this.waiting.length > 0 && this.busy < this.limit()) {
      const waiter = this.waiting.shift()!;
      this.admit(waiter.start);
      waiter.grant();
    }
  }

  /** Reads the starting servers' CPU time: one that used (almost) none since the last reading is waiting. */
  private tick(): void {
    if (this.starts.size === 0) {
      clearInterval(this.timer);
      this.timer = undefined;
      return;
    }
    const pids = new Map<Start, number>();
    for (const start of this.starts) {
      const pid = start.pidOf();
      if (pid !== undefined) pids.set(start, pid);
    }
    if (pids.size === 0 || !this.sample) return;
    const cpu = this.sample(pids.values());
    const now = performance.now();
    for (const [start, pid] of pids) {
      const group = cpu.get(pid);
      // Gone (its start is about to fail): it uses no CPU.
      if (group === undefined) start.busy = false;
      else if (start.pid === pid && start.cpuMs !== undefined && start.sampledAt !== undefined) {
        // Runnable counts too: on a busy machine a starved server uses little CPU but still wants it.
        start.busy = group.runnable || group.cpuMs - start.cpuMs >= BUSY_SHARE * (now - start.sampledAt);
      }
      // A first reading (or a new process after a retry) is a baseline: it stays busy until the next.
      start.pid = pid;
      start.cpuMs = group?.cpuMs;
      start.sampledAt = now;
    }
    this.grantWaiters();
  }
}
