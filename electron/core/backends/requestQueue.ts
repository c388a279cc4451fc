/**
 * Per-backend request discipline: a bounded number of outstanding requests, an
 * optional one-at-a-time mode for servers that cannot handle concurrency, and a
 * deadline per request that frees its slot whether or not the backend answers.
 */
import PQueue from 'p-queue';
import { ErrorCode, SwitchboardError } from '../../../shared/errors.js';

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

/** What a queued task receives: a signal that aborts on timeout or caller abort, and the time left. */
export interface TaskContext {
  signal: AbortSignal;
  remainingMs: () => number;
}

/** Bounded, optionally serialized queue with per-request deadlines. */
export class RequestQueue {
  private readonly queue: PQueue;
  private outstanding = 0;

  constructor(private readonly options: RequestQueueOptions) {
    this.queue = new PQueue({ concurrency: options.serialize ? 1 : Number.POSITIVE_INFINITY });
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
    const deadline = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    let started = 0;
    const startDeadline = (): void => {
      started = Date.now();
      timer = setTimeout(() => {
        deadline.abort(
          new SwitchboardError(
            ErrorCode.Timeout,
            `${label} on backend "${backendId}" timed out after ${timeoutMs} ms`,
            {
              backend: backendId,
              timeoutMs,
            },
          ),
        );
      }, timeoutMs);
    };
    const signal = callerSignal ? AbortSignal.any([deadline.signal, callerSignal]) : deadline.signal;
    this.outstanding++;
    try {
      const running = this.queue.add(
        async () => {
          signal.throwIfAborted();
          startDeadline();
          return task({ signal, remainingMs: () => Math.max(1, timeoutMs - (Date.now() - started)) });
        },
        { signal },
      );
      // Settle on the deadline even if the task ignores its signal: a hung
      // backend call must not hold the caller (or, when serialized, the queue).
      return await Promise.race([running, abortedPromise(signal)]);
    } catch (error) {
      // The SDK reports an aborted request as its own timeout error; the
      // deadline's reason says which request and which limit.
      if (deadline.signal.aborted) throw deadline.signal.reason as Error;
      throw error;
    } finally {
      if (timer) clearTimeout(timer);
      this.outstanding--;
    }
  }

  /** Drops waiting requests (in-flight ones are failed by their owner). */
  clear(): void {
    this.queue.clear();
  }
}

function abortedPromise(signal: AbortSignal): Promise<never> {
  return new Promise((_resolve, reject) => {
    if (signal.aborted) reject(signal.reason as Error);
    else signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
  });
}
