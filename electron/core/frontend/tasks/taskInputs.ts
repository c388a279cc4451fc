/**
 * Input requests (elicitation, sampling, roots) of a task Switchboard runs
 * itself. The call that created the task has been answered already, so a
 * backend's question cannot ride it: it waits here, the task shows
 * `input_required`, and the owner's next `tasks/result` puts it to the
 * client, tied to that request and marked with the task (2025-11-25 tasks,
 * "Input Required Status": the requestor calls tasks/result, and requests
 * related to the task carry `io.modelcontextprotocol/related-task`).
 */
import { RELATED_TASK_META_KEY } from '@modelcontextprotocol/server';
import type { FrontendChannel, InputRequestMessage } from '../relay/frontendChannel.js';

/** One question waiting for the owner's tasks/result (2025) or tasks/update (2026). */
export interface PendingInput {
  /** Its `inputRequests` key for a 2026-07-28 owner: unique over the task's lifetime. */
  key: string;
  request: InputRequestMessage;
  answer(value: unknown): void;
  fail(error: unknown): void;
}

/** The questions of one task; see the module comment. */
export class TaskInputs {
  private readonly pending: PendingInput[] = [];
  private wake: (() => void) | undefined;
  private asked = 0;

  /** `waiting(true)` when the first question arrives, `waiting(false)` once none is left. */
  constructor(private readonly waiting: (waiting: boolean) => void) {}

  /**
   * The channel the task's call sees as its frontend: the owner's era and
   * capabilities, and a `send` that queues the question until tasks/result.
   */
  channel(owner: FrontendChannel | undefined): FrontendChannel {
    return {
      era: 'legacy',
      key: owner?.key ?? this,
      capabilities: owner?.capabilities,
      send: (request, { signal }) => this.ask(request, signal),
      inputResponses: undefined,
      requestState: undefined,
    };
  }

  /** Waits for the next question; undefined once `until` settles first. */
  async next(until: Promise<void>): Promise<PendingInput | undefined> {
    while (this.pending.length === 0) {
      const woken = new Promise<boolean>((resolve) => (this.wake = () => resolve(true)));
      if (!(await Promise.race([woken, until.then(() => false)]))) return undefined;
    }
    return this.pending.shift();
  }

  /** Puts one question to the owner through its tasks/result request, marked with our task id. */
  static async relay(
    input: PendingInput,
    frontend: FrontendChannel,
    taskId: string,
    options: { signal: AbortSignal; timeout: number },
  ): Promise<void> {
    const params = { ...input.request.params };
    params['_meta'] = { ...(params['_meta'] as object | undefined), [RELATED_TASK_META_KEY]: { taskId } };
    try {
      input.answer(await frontend.send({ method: input.request.method, params }, options));
    } catch (error) {
      input.fail(error);
    }
  }

  /**
   * The open questions as a 2026-07-28 task shows them (`inputRequests`,
   * io.modelcontextprotocol/tasks: key -> the request's method and params).
   */
  requests(): Record<string, InputRequestMessage> | undefined {
    if (this.pending.length === 0) return undefined;
    return Object.fromEntries(this.pending.map((input) => [input.key, input.request]));
  }

  /**
   * Answers open questions by key (2026-07-28 `tasks/update`). Keys not
   * outstanding are ignored, as the extension says; returns how many were answered.
   */
  respond(responses: Record<string, unknown>): number {
    let answered = 0;
    for (const input of [...this.pending]) {
      if (!Object.hasOwn(responses, input.key)) continue;
      input.answer(responses[input.key]);
      answered++;
    }
    return answered;
  }

  private ask(request: InputRequestMessage, signal: AbortSignal): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const settle = (): void => {
        signal.removeEventListener('abort', onAbort);
        const index = this.pending.indexOf(entry);
        if (index >= 0) this.pending.splice(index, 1);
        if (this.pending.length === 0) this.waiting(false);
      };
      const entry: PendingInput = {
        key: `input-${++this.asked}`,
        request,
        answer: (value) => {
          settle();
          resolve(value);
        },
        fail: (error) => {
          settle();
          reject(error instanceof Error ? error : new Error(String(error)));
        },
      };
      const onAbort = (): void => entry.fail(signal.reason);
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      this.pending.push(entry);
      this.waiting(true);
      this.wake?.();
    });
  }
}
