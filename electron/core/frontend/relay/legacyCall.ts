/**
 * One request to a 2025-era backend during which the backend may ask its
 * client (us) for input: `elicitation/create`, `sampling/createMessage`,
 * `roots/list`. Each such request goes to the frontend that made the call:
 *
 * - a 2025-era frontend is asked directly, with a server-to-client request of
 *   its own tied to its call (it is still waiting on that one exchange);
 * - a 2026-07-28 frontend has no server-to-client requests: the call's
 *   exchange ends with an `InputRequiredResult` holding the backend's
 *   requests, the call is parked, and the frontend's retry (carrying
 *   `inputResponses`) answers them and picks the call up again. So the call
 *   has its own abort signal, which outlives any one exchange.
 *
 * While a request waits on the frontend, the backend queue's deadline is
 * paused: a person may be typing.
 */
import {
  ProtocolError,
  ProtocolErrorCode,
  type ClientCapabilities,
  type InputRequest,
  type InputRequests,
  type Progress,
} from '@modelcontextprotocol/client';
import type { TaskContext } from '../../backends/connection/requestQueue.js';
import type { CallTracker, InputMethod, TrackedCall } from '../../backends/connection/callTracking.js';
import { frontendSupports, type FrontendChannel } from './frontendChannel.js';
import type { ParkableCall } from './parkedCalls.js';

/** What a call needs besides the request itself. */
export interface LegacyCallOptions {
  tracker: CallTracker;
  /** Who made the call; undefined when no client can be asked (input requests are refused). */
  frontend: FrontendChannel | undefined;
  /** How long a 2025-era frontend may take to answer one input request. */
  inputTimeoutMs: number;
}

/** Options the backend request is made with. */
export interface LegacySendOptions {
  signal: AbortSignal;
  onprogress?: (progress: Progress) => void;
}

/** What the frontend's current exchange should do next. */
export type NextStep<R> = { result: R } | { inputRequests: InputRequests };

interface PendingInput {
  request: InputRequest;
  /** Put to the frontend and not answered yet. */
  asked: boolean;
  resolve(value: unknown): void;
  reject(reason: unknown): void;
}

/** Keys of our `inputRequests` entries, e.g. `elicit1` (unique within the call). */
const KEY_PREFIX: Record<InputMethod, string> = {
  'elicitation/create': 'elicit',
  'sampling/createMessage': 'sample',
  'roots/list': 'roots',
};

/**
 * A backend asking several things in parallel sends them a moment apart;
 * waiting this long gathers them into one round instead of one each.
 */
const BATCH_WINDOW_MS = 10;

/** A call on a 2025-era backend that may span several frontend exchanges. */
export class LegacyCall<R> implements TrackedCall, ParkableCall {
  readonly frontendKey: object | undefined;
  private readonly abort = new AbortController();
  private task: TaskContext | undefined;
  private outcome: { result: R } | { error: unknown } | undefined;
  private readonly pending = new Map<string, PendingInput>();
  private keys = 0;
  private waiters: (() => void)[] = [];
  private progress: ((progress: Progress) => void) | undefined;
  /**
   * What the backend asked for that the calling 2026-07-28 frontend did not
   * declare (refused to the backend). A 2026 server would have answered the
   * call itself with -32021; see {@link missingCapabilities}.
   */
  private missing: ClientCapabilities | undefined;
  /** Input requests sent to a 2025-era frontend, unanswered, for longer than the batch window. */
  private sentAndWaiting = 0;

  constructor(private readonly options: LegacyCallOptions) {
    this.frontendKey = options.frontend?.key;
  }

  /**
   * Starts the backend request: `run` puts the task through the backend's
   * queue under the call's own signal; `send` makes the request.
   */
  start(
    run: (task: (context: TaskContext) => Promise<R>, signal: AbortSignal) => Promise<R>,
    send: (options: LegacySendOptions) => Promise<R>,
    wantsProgress: boolean,
  ): void {
    const onprogress = (progress: Progress): void => this.progress?.(progress);
    run((context) => {
      this.task = context;
      return this.options.tracker.run(this, () =>
        send({ signal: context.signal, ...(wantsProgress ? { onprogress } : {}) }),
      );
    }, this.abort.signal)
      .then(
        (result) => (this.outcome = { result }),
        (error: unknown) => (this.outcome = { error }),
      )
      .finally(() => {
        const ended = new ProtocolError(ProtocolErrorCode.InternalError, 'the call this request belonged to has ended');
        for (const input of this.pending.values()) input.reject(ended);
        this.pending.clear();
        this.wakeAll();
      });
  }

  /**
   * Sends the backend's progress to the exchange now waiting on the call; a
   * parked call has none (progress is dropped until the retry arrives).
   * Returns the function that stops it.
   */
  follow(onProgress: ((progress: Progress) => void) | undefined): () => void {
    this.progress = onProgress;
    return () => {
      if (this.progress === onProgress) this.progress = undefined;
    };
  }

  /**
   * The capabilities the backend asked for and the calling 2026-07-28
   * frontend had not declared, once the call has failed for want of them
   * (undefined when nothing was refused, and for 2025 frontends, which the
   * 2025 spec lets a server refuse mid-call).
   */
  get missingCapabilities(): ClientCapabilities | undefined {
    return this.missing;
  }

  /**
   * Waiting for the frontend's answer to an input request the call made: put
   * to a 2026-07-28 frontend (its `input_required` round was returned, which
   * happens after the batch window), or sent to a 2025-era frontend longer
   * than the batch window ago. Requests the backend sends together arrive
   * within that window, so until it passes the call may still be their author.
   */
  get awaitingInput(): boolean {
    if (this.sentAndWaiting > 0) return true;
    for (const input of this.pending.values()) if (input.asked) return true;
    return false;
  }

  /** Stops the call: the backend gets `notifications/cancelled`. */
  cancel(reason: unknown): void {
    if (!this.abort.signal.aborted) this.abort.abort(reason);
  }

  /** Called by the tracker with one of the backend's input requests; resolves with the answer. */
  async relay(method: InputMethod, params: Record<string, unknown> | undefined, signal: AbortSignal): Promise<unknown> {
    const { frontend, inputTimeoutMs } = this.options;
    if (!frontend) {
      throw new ProtocolError(ProtocolErrorCode.MethodNotFound, `no client is available to answer ${method}`);
    }
    if (!frontendSupports(frontend.capabilities, { method, params })) {
      if (frontend.era === 'modern') this.missing = { ...this.missing, ...requiredCapability(method, params) };
      // What the client itself would answer for a capability it lacks.
      throw new ProtocolError(
        ProtocolErrorCode.MethodNotFound,
        `the client that made this call does not support ${method}`,
      );
    }
    const resume = this.task?.pause();
    try {
      if (frontend.era === 'legacy') {
        return await this.waitingMeanwhile(() =>
          frontend.send(
            { method, params },
            { signal: AbortSignal.any([signal, this.abort.signal]), timeout: inputTimeoutMs },
          ),
        );
      }
      return await this.enqueue(method, params, signal);
    } finally {
      resume?.();
    }
  }

  /** Runs `ask` (a request to a 2025-era frontend), counting the call as waiting once the batch window has passed. */
  private async waitingMeanwhile<T>(ask: () => Promise<T>): Promise<T> {
    let counted = false;
    const timer = setTimeout(() => {
      counted = true;
      this.sentAndWaiting++;
    }, BATCH_WINDOW_MS);
    try {
      return await ask();
    } finally {
      clearTimeout(timer);
      if (counted) this.sentAndWaiting--;
    }
  }

  /** Holds one input request until a 2026-07-28 frontend answers it (or the backend withdraws it). */
  private enqueue(
    method: InputMethod,
    params: Record<string, unknown> | undefined,
    signal: AbortSignal,
  ): Promise<unknown> {
    signal.throwIfAborted();
    const key = `${KEY_PREFIX[method]}${++this.keys}`;
    return new Promise((resolve, reject) => {
      const withdraw = (): void => {
        if (this.pending.delete(key)) reject(signal.reason);
      };
      signal.addEventListener('abort', withdraw, { once: true });
      const settled =
        <T>(settle: (value: T) => void) =>
        (value: T): void => {
          signal.removeEventListener('abort', withdraw);
          settle(value);
        };
      this.pending.set(key, {
        request: embeddedRequest(method, params),
        asked: false,
        resolve: settled(resolve),
        reject: settled(reject),
      });
      this.wakeAll();
    });
  }

  /** Waits until the call has a result, or input requests not yet put to the frontend. */
  async next(): Promise<NextStep<R>> {
    for (;;) {
      if (this.outcome) {
        if ('error' in this.outcome) throw this.outcome.error;
        return { result: this.outcome.result };
      }
      if ([...this.pending.values()].some((input) => !input.asked)) {
        await new Promise((resolve) => setTimeout(resolve, BATCH_WINDOW_MS));
        const inputRequests: InputRequests = {};
        for (const [key, input] of this.pending) {
          if (input.asked) continue;
          input.asked = true;
          inputRequests[key] = input.request;
        }
        if (Object.keys(inputRequests).length > 0) return { inputRequests };
        continue;
      }
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  /**
   * Answers the backend's requests from a retry's `inputResponses`. A request
   * the retry left unanswered is asked again in the next round.
   */
  supply(responses: Record<string, unknown> | undefined): void {
    for (const [key, input] of this.pending) {
      if (!input.asked) continue;
      if (responses && Object.hasOwn(responses, key)) {
        this.pending.delete(key);
        input.resolve(responses[key]);
      } else {
        input.asked = false;
      }
    }
  }

  private wakeAll(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }
}

/** The capability an input request needs, in the `ClientCapabilities` shape (-32021's `requiredCapabilities`). */
function requiredCapability(method: InputMethod, params: Record<string, unknown> | undefined): ClientCapabilities {
  switch (method) {
    case 'elicitation/create':
      return { elicitation: params?.['mode'] === 'url' ? { url: {} } : { form: {} } };
    case 'sampling/createMessage':
      return { sampling: params?.['tools'] !== undefined ? { tools: {} } : {} };
    case 'roots/list':
      return { roots: {} };
  }
}

/**
 * A 2025-era request as a 2026-07-28 embedded input request: no `_meta`
 * (it described the JSON-RPC request) and, for elicitation, an explicit form
 * mode and no `elicitationId` (the in-band shape has none). We only declare
 * form-mode elicitation to backends, so no URL-mode request arrives here.
 */
function embeddedRequest(method: InputMethod, params: Record<string, unknown> | undefined): InputRequest {
  if (method === 'roots/list') return { method };
  const { _meta: _dropped, ...rest } = params ?? {};
  if (method === 'elicitation/create') {
    const { elicitationId: _unused, ...form } = rest;
    return { method, params: { mode: 'form', ...form } } as InputRequest;
  }
  return { method, params: rest } as InputRequest;
}
