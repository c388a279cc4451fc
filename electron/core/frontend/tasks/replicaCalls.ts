/**
 * Calls from one replica to another over Redis publish/subscribe: each
 * replica listens on an inbox channel of its own, a call is published to
 * the callee's inbox naming the caller, and the answer (or the error, as a
 * JSON-RPC error) is published back to the caller's inbox. A call that gets
 * no answer within the timeout (the callee is gone, or Redis lost the
 * message) fails with an error saying which replica did not answer; a
 * caller's abort ends the wait at once.
 *
 * While a call runs the callee may send notes back (progress of the call,
 * in order, before its answer), and a caller that stops waiting (its abort,
 * or the timeout) tells the callee, whose handler's signal then aborts.
 */
import { randomUUID } from 'node:crypto';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { Cluster } from '../../platform/cluster/cluster.js';
import { toProtocolError } from '../routing/protocolErrors.js';

type Message =
  | { kind: 'call'; id: string; from: string; payload: unknown }
  | { kind: 'reply'; id: string; value?: unknown; error?: { code: number; message: string; data?: unknown } }
  | { kind: 'note'; id: string; payload: unknown }
  | { kind: 'cancel'; id: string; from: string; reason: string };

interface Waiting {
  resolve(value: unknown): void;
  reject(error: unknown): void;
  note?: ((payload: unknown) => void) | undefined;
}

/** What the callee's handler gets beside the payload. */
export interface ServedCall {
  /** Aborts when the caller stopped waiting (its abort, or its timeout). */
  signal: AbortSignal;
  /** Sends a note to the caller, before the answer (best effort, in order). */
  note(payload: unknown): void;
}

/** The handler a replica answers calls with. */
export type CallHandler = (payload: unknown, call: ServedCall) => Promise<unknown>;

/** The error of a callee that did not answer in time (retryable: it may be busy, or gone). */
export function notAnsweringError(replica: string, timeoutMs: number, what = 'runs this task'): ProtocolError {
  return new ProtocolError(
    ProtocolErrorCode.InternalError,
    `replica ${replica}, which ${what}, did not answer within ${timeoutMs} ms; retry`,
    { code: 'timeout', replica, retryable: true },
  );
}

/** One replica's end of the calls; see the module comment. */
export class ReplicaCalls {
  private readonly waiting = new Map<string, Waiting>();
  /** Calls of other replicas being answered here, by caller and id: their abort. */
  private readonly serving = new Map<string, AbortController>();
  private readonly unsubscribe: () => void;
  private handler: CallHandler | undefined;

  /**
   * `topic` names the inboxes (one set per kind of call: each has its own
   * handler); `what` says in the timeout error what the callee holds.
   */
  constructor(
    private readonly cluster: Cluster,
    private readonly timeoutMs: number,
    private readonly topic = 'tasks',
    private readonly what = 'runs this task',
  ) {
    this.unsubscribe = cluster.subscribe(this.inbox(cluster.replicaId), (raw) => this.received(raw));
  }

  /** Answers calls from other replicas with `handler` (its error goes back as a JSON-RPC error). */
  serve(handler: CallHandler): void {
    this.handler = handler;
  }

  /**
   * Calls `replica` with `payload`; resolves with its answer (within
   * `timeoutMs`, the constructor's unless given). `onNote` hears the notes
   * the callee sends meanwhile.
   */
  async call(
    replica: string,
    payload: unknown,
    signal?: AbortSignal,
    timeoutMs = this.timeoutMs,
    onNote?: (payload: unknown) => void,
  ): Promise<unknown> {
    signal?.throwIfAborted();
    const id = randomUUID();
    const answered = new Promise<unknown>((resolve, reject) => this.waiting.set(id, { resolve, reject, note: onNote }));
    const stop = (error: unknown): void => {
      if (!this.waiting.has(id)) return;
      this.settle(id, undefined, error);
      this.tellStopped(replica, id, error);
    };
    const timer = setTimeout(() => stop(notAnsweringError(replica, timeoutMs, this.what)), timeoutMs);
    const onAbort = (): void => stop(signal!.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const message: Message = { kind: 'call', id, from: this.cluster.replicaId, payload };
      await this.cluster.publish(this.inbox(replica), JSON.stringify(message));
      return await answered;
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      this.waiting.delete(id);
    }
  }

  /** Stops listening; open calls fail, and calls being answered here are aborted. */
  close(): void {
    this.unsubscribe();
    for (const abort of this.serving.values()) abort.abort(new Error('Switchboard is closing'));
    this.serving.clear();
    for (const id of [...this.waiting.keys()]) this.settle(id, undefined, new Error('Switchboard is closing'));
  }

  private inbox(replica: string): string {
    return this.cluster.key(this.topic, 'inbox', replica);
  }

  /** Tells the callee its caller stopped waiting (best effort: the callee's own bounds still hold). */
  private tellStopped(replica: string, id: string, reason: unknown): void {
    const message: Message = {
      kind: 'cancel',
      id,
      from: this.cluster.replicaId,
      reason: (reason as Error)?.message ?? String(reason),
    };
    void this.cluster.publish(this.inbox(replica), JSON.stringify(message)).catch(() => undefined);
  }

  private received(raw: string): void {
    let message: Message;
    try {
      message = JSON.parse(raw) as Message;
    } catch {
      return;
    }
    if (message.kind === 'reply') {
      const error = message.error && new ProtocolError(message.error.code, message.error.message, message.error.data);
      this.settle(message.id, message.value, error);
    } else if (message.kind === 'note') this.waiting.get(message.id)?.note?.(message.payload);
    else if (message.kind === 'cancel') this.serving.get(servingKey(message))?.abort(new Error(message.reason));
    else if (message.kind === 'call') void this.answer(message);
  }

  private async answer(call: Extract<Message, { kind: 'call' }>): Promise<void> {
    let reply: Message;
    const abort = new AbortController();
    const key = servingKey(call);
    this.serving.set(key, abort);
    const note = (payload: unknown): void => {
      if (abort.signal.aborted) return;
      const message: Message = { kind: 'note', id: call.id, payload };
      void this.cluster.publish(this.inbox(call.from), JSON.stringify(message)).catch(() => undefined);
    };
    try {
      if (!this.handler) throw new Error('this replica serves no calls');
      reply = { kind: 'reply', id: call.id, value: await this.handler(call.payload, { signal: abort.signal, note }) };
    } catch (error) {
      const wire = toProtocolError(error);
      const { code, message, data } =
        wire instanceof ProtocolError
          ? wire
          : {
              code: ProtocolErrorCode.InternalError,
              message: (wire as Error)?.message ?? String(wire),
              data: undefined,
            };
      reply = { kind: 'reply', id: call.id, error: { code, message, ...(data === undefined ? {} : { data }) } };
    } finally {
      this.serving.delete(key);
    }
    await this.cluster.publish(this.inbox(call.from), JSON.stringify(reply)).catch(() => undefined);
  }

  private settle(id: string, value: unknown, error: unknown): void {
    const waiting = this.waiting.get(id);
    if (!waiting) return;
    this.waiting.delete(id);
    if (error !== undefined) waiting.reject(error);
    else waiting.resolve(value);
  }
}

/** A call being answered, by its caller and id (ids are random; the caller's name keeps them apart). */
function servingKey(message: { from: string; id: string }): string {
  return `${message.from}\n${message.id}`;
}
