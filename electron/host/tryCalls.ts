/**
 * The UI as an MCP client for its own "try it" calls: each call gets a
 * {@link FrontendChannel} of its own, so the core's input relay can put a
 * backend's server-to-client requests to the person at the UI, as it does to
 * any connected client.
 *
 * - `elicitation/create` (form and URL mode, MCP 2025-11-25
 *   client/elicitation) waits in {@link TryCalls.inputs} until the UI answers
 *   with accept, decline or cancel (or the call ends or times out).
 * - `sampling/createMessage` is declined: the UI has no model. The spec's
 *   "user rejected sampling request" error (-1) goes back, and the call's
 *   result notes why.
 * - `roots/list`: the UI has no roots; it answers none.
 *
 * Progress (`notifications/progress`) is forwarded as `tryProgress` events
 * and a call is cancelled by its `callId` (`notifications/cancelled` reaches
 * the backend through the call's AbortSignal).
 */
import { randomUUID } from 'node:crypto';
import { ProtocolError, type ClientCapabilities } from '@modelcontextprotocol/server';
import type { TryInputAnswer, TryInputView, TryProgressView } from '../../shared/model/views.js';
import { ErrorCode, SwitchboardError } from '../../shared/errors.js';
import type { FrontendChannel, InputRequestMessage, ProgressUpdate } from '../core/frontend/index.js';

/**
 * What the UI declares it can answer. Sampling is declared so that a server's
 * request reaches us and is declined with a reason, rather than refused as
 * unsupported (which reads like a bug).
 */
export const UI_CAPABILITIES: ClientCapabilities = {
  elicitation: { form: {}, url: {} },
  sampling: {},
  roots: {},
};

/** The MCP spec's code for "user rejected sampling request" (client/sampling, error handling). */
const SAMPLING_REJECTED = -1;

/** Said in the result when a server asked the UI for a model's answer. */
export const SAMPLING_NOTE =
  'The server asked for a model-generated message (sampling/createMessage). The Switchboard UI has no model, so it declined; call this tool from a client with sampling to answer it.';

/** What the hub listens to. */
export interface TryCallsListener {
  progress(update: TryProgressView): void;
  inputsChanged(): void;
}

interface PendingInput {
  view: TryInputView;
  settle(answer: TryInputAnswer): void;
}

/** One call in flight, as its runner sees it. */
export interface TryCall {
  callId: string;
  signal: AbortSignal;
  onProgress(progress: ProgressUpdate): void;
  /** A fresh channel (per exchange: a 2026-07-28 retry carries its answers in it). */
  channel(retry?: { inputResponses: Record<string, unknown>; requestState: string | undefined }): FrontendChannel;
  /** Answers one embedded (2026-07-28) or relayed (2025) input request. */
  answer(request: InputRequestMessage, options: { signal: AbortSignal; timeout: number }): Promise<unknown>;
  notes: string[];
  /** Whether the UI cancelled it. */
  cancelled(): boolean;
  end(): void;
}

/** The "try it" calls in flight and their waiting input requests. */
export class TryCalls {
  private readonly calls = new Map<string, AbortController>();
  private readonly pending = new Map<string, PendingInput>();
  private readonly listeners = new Set<TryCallsListener>();

  /** Subscribes to progress and input changes; returns the function that unsubscribes. */
  on(listener: TryCallsListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Starts tracking a call (a `callId` already in flight is refused). */
  begin(callId: string | undefined, outer?: AbortSignal): TryCall {
    const id = callId ?? randomUUID();
    if (this.calls.has(id)) {
      throw new SwitchboardError(ErrorCode.InvalidParams, `a call with callId "${id}" is already running`, {
        field: 'callId',
      });
    }
    const controller = new AbortController();
    this.calls.set(id, controller);
    const signal = outer ? AbortSignal.any([controller.signal, outer]) : controller.signal;
    const key = {};
    const notes: string[] = [];
    const call: TryCall = {
      callId: id,
      signal,
      notes,
      onProgress: (progress) => {
        const update: TryProgressView = { callId: id, progress: progress.progress };
        if (progress.total !== undefined) update.total = progress.total;
        if (progress.message !== undefined) update.message = progress.message;
        for (const listener of this.listeners) listener.progress(update);
      },
      answer: (request, options) => this.answer(id, notes, request, options),
      channel: (retry) => ({
        // The 2025 shape: a backend's requests are put to us directly, during the call.
        era: 'legacy',
        key,
        capabilities: UI_CAPABILITIES,
        send: call.answer,
        inputResponses: retry?.inputResponses,
        requestState: retry?.requestState,
      }),
      cancelled: () => controller.signal.aborted,
      end: () => {
        if (this.calls.get(id) === controller) this.calls.delete(id);
      },
    };
    return call;
  }

  /** Cancels a call in flight; false when no such call runs. */
  cancel(callId: string): boolean {
    const controller = this.calls.get(callId);
    if (!controller) return false;
    controller.abort();
    return true;
  }

  /** Elicitation requests waiting for the UI, oldest first. */
  inputs(): TryInputView[] {
    return [...this.pending.values()].map((input) => input.view);
  }

  /** Settles one waiting request with the person's answer. */
  settle(answer: TryInputAnswer): void {
    const input = this.pending.get(answer.id);
    if (!input) {
      throw new SwitchboardError(ErrorCode.InvalidParams, `no input request "${answer.id}" is waiting`, {
        field: 'id',
      });
    }
    if (!['accept', 'decline', 'cancel'].includes(answer.action)) {
      throw new SwitchboardError(ErrorCode.InvalidParams, '"action" must be accept, decline or cancel', {
        field: 'action',
      });
    }
    input.settle(answer);
  }

  private async answer(
    callId: string,
    notes: string[],
    request: InputRequestMessage,
    options: { signal: AbortSignal; timeout: number },
  ): Promise<unknown> {
    if (request.method === 'roots/list') return { roots: [] };
    if (request.method === 'sampling/createMessage') {
      if (!notes.includes(SAMPLING_NOTE)) notes.push(SAMPLING_NOTE);
      throw new ProtocolError(
        SAMPLING_REJECTED as never,
        'User rejected sampling request: the Switchboard UI has no model',
      );
    }
    return this.elicit(callId, request.params ?? {}, options);
  }

  /** Waits for the UI's answer to one elicitation (withdrawn on abort or after `timeout`). */
  private elicit(
    callId: string,
    params: Record<string, unknown>,
    { signal, timeout }: { signal: AbortSignal; timeout: number },
  ): Promise<unknown> {
    signal.throwIfAborted();
    const id = randomUUID();
    const mode = params['mode'] === 'url' ? 'url' : 'form';
    const view: TryInputView = {
      id,
      callId,
      mode,
      message: typeof params['message'] === 'string' ? params['message'] : '',
    };
    if (mode === 'form' && typeof params['requestedSchema'] === 'object' && params['requestedSchema'] !== null) {
      view.requestedSchema = params['requestedSchema'] as Record<string, unknown>;
    }
    if (mode === 'url' && typeof params['url'] === 'string') view.url = params['url'];
    return new Promise((resolve, reject) => {
      const done = (): void => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        this.pending.delete(id);
        this.changed();
      };
      const onAbort = (): void => {
        done();
        reject(signal.reason);
      };
      const timer = setTimeout(() => {
        done();
        reject(new SwitchboardError(ErrorCode.InputTimeout, `no answer to the server's question within ${timeout} ms`));
      }, timeout);
      signal.addEventListener('abort', onAbort, { once: true });
      this.pending.set(id, {
        view,
        settle: (answer) => {
          done();
          resolve(
            answer.action === 'accept' && mode === 'form'
              ? { action: 'accept', content: answer.content ?? {} }
              : { action: answer.action },
          );
        },
      });
      this.changed();
    });
  }

  private changed(): void {
    for (const listener of this.listeners) listener.inputsChanged();
  }
}
