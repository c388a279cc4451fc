/**
 * Per-backend request discipline: a bounded number of outstanding requests, an
 * optional one-at-a-time mode for servers that cannot handle concurrency, and a
 * deadline per request that frees its slot whether or not the backend answers.
 * The deadline can be paused while the backend waits on a person.
 */
import PQueue from 'p-queue';
import { ErrorCode, SwitchboardError } from '../../../../shared/errors.js';

/** Options of one backend's queue. */
export interface RequestQueueOptions {
  backendId: string;
  /** Most requests outstanding (waiting or in flight) at once. */
  maxQueue: number;
  /** One request in flight at a time, in arrival order. */
  serialize: boolean;
  /** Deadline for a request, counted from when it is sent to the backend. */
  timeoutMs: number;
}

/** How much later than our own deadline the SDK's timeout may fire. */
const SDK_TIMEOUT_GRACE_MS = 1000;

/** What a queued task receives: a signal that aborts on timeout or caller abort, and the time left. */
export interface TaskContext {
  signal: AbortSignal;
  /** Time left before the deadline. */
  remainingMs: () => number;
  /**
   * The timeout to give the SDK for the backend call: the time left plus a
   * short grace, so our deadline always fires first and the caller gets its
   * clear error (-32001 naming the backend) rather than the SDK's generic one.
   */
  sdkTimeoutMs: () => number;
  /**
   * Stops the deadline's clock until the returned function is called. Pauses
   * nest: the clock runs again once every pause has ended. A request whose
   * backend is waiting on a person (an elicitation relayed to the client) is
   * not failed for the time that person takes; that wait has its own bound
   * (`inputTimeoutMs`). Calling the returned function again does nothing.
   */
  pause: () => () => void;
}

/** Bounded, optionally serialized queue with per-request deadlines. */
export class RequestQueue {
  /** Only for serialized backends: one in flight, in arrival order. */
  private readonly queue: PQueue | undefined;
  private outstanding = 0;

  constructor(private readonly options: RequestQueueOptions) {
    this.queue = options.serialize ? new PQueue({ concurrency: 1 }) : undefined;
  }

  /** Requests waiting or in flight. */
  get size(): number {
    return this.outstanding;
  }

  /**
   * Runs `task` when its turn comes. Rejects with `queue_full` when the backend
   * already has `maxQueue` outstanding requests, and with `timeout` when the
   * deadline passes (the task's signal aborts, so the SDK cancels upstream).
   */
  async run<T>(
    label: string,
    task: (context: TaskContext) => Promise<T>,
    callerSignal?: AbortSignal,
    timeoutMs = this.options.timeoutMs,
  ): Promise<T> {
    const { backendId, maxQueue } = this.options;
    if (this.outstanding >= maxQueue) {
      throw new SwitchboardError(
        ErrorCode.QueueFull,
        `backend "${backendId}" has ${this.outstanding} requests outstanding (maxQueue ${maxQueue}); try again later`,
        { backend: backendId, maxQueue },
      );
    }
    // The deadline starts when the request is sent to the backend: a request
    // waiting behind a hung one (serialized backends) is not failed for it.
    // One controller carries both the deadline and the caller's abort: cheaper
    // per call than AbortSignal.any, which builds a composite signal tracking
    // every source (https://nodejs.org/api/globals.html#static-method-abortsignalanysignals).
    const controller = new AbortController();
    let timeoutError: SwitchboardError | undefined;
    const clock = new DeadlineClock(timeoutMs, () => {
      timeoutError = new SwitchboardError(
        ErrorCode.Timeout,
        `${label} on backend "${backendId}" timed out after ${timeoutMs} ms`,
        { backend: backendId, timeoutMs },
      );
      controller.abort(timeoutError);
    });
    const onCallerAbort = () => controller.abort(callerSignal?.reason);
    if (callerSignal?.aborted) onCallerAbort();
    else callerSignal?.addEventListener('abort', onCallerAbort, { once: true });
    const { signal } = controller;
    const start = async (): Promise<T> => {
      signal.throwIfAborted();
      clock.start();
      return task({
        signal,
        remainingMs: () => clock.remainingMs(),
        sdkTimeoutMs: () => clock.remainingMs() + SDK_TIMEOUT_GRACE_MS,
        pause: () => clock.pause(),
      });
    };
    this.outstanding++;
    try {
      // Only a serialized backend needs the queue; others start at once.
      const running = this.queue ? this.queue.add(start, { signal }) : start();
      // Settle on the deadline even if the task ignores its signal: a hung
      // backend call must not hold the caller (or, when serialized, the queue).
      return await Promise.race([running, abortedPromise(signal)]);
    } catch (error) {
      // The SDK reports an aborted request as its own timeout error; the
      // deadline's reason says which request and which limit.
      if (timeoutError) throw timeoutError;
      throw error;
    } finally {
      clock.stop();
      callerSignal?.removeEventListener('abort', onCallerAbort);
      this.outstanding--;
    }
  }

  /** Drops waiting requests (in-flight ones are failed by their owner). */
  clear(): void {
    this.queue?.clear();
  }
}

function abortedPromise(signal: AbortSignal): Promise<never> {
  return new Promise((_resolve, reject) => {
    if (signal.aborted) reject(signal.reason as Error);
    else signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
  });
}

/** A countdown that can be paused (nestably) and stopped for good. */
class DeadlineClock {
  private timer: NodeJS.Timeout | undefined;
  /** Time left when the clock last stopped running. */
  private left: number;
  /** When the clock last started running. */
  private since = 0;
  private pauses = 0;
  private started = false;
  private stopped = false;

  constructor(
    timeoutMs: number,
    private readonly onExpire: () => void,
  ) {
    this.left = timeoutMs;
  }

  /** Starts counting down (when the request is sent). */
  start(): void {
    this.started = true;
    if (this.pauses === 0) this.run();
  }

  private run(): void {
    if (this.stopped) return;
    this.since = Date.now();
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.left = 0;
      this.stopped = true;
      this.onExpire();
    }, this.left);
  }

  private halt(): void {
    if (this.timer === undefined) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.left = Math.max(0, this.left - (Date.now() - this.since));
  }

  remainingMs(): number {
    const running = this.timer === undefined ? 0 : Date.now() - this.since;
    return Math.max(1, this.left - running);
  }

  pause(): () => void {
    if (this.stopped) return () => undefined;
    if (this.pauses++ === 0) this.halt();
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      if (--this.pauses === 0 && this.started) this.run();
    };
  }

  /** The request settled: no more expiry. */
  stop(): void {
    this.stopped = true;
    this.halt();
  }
}
