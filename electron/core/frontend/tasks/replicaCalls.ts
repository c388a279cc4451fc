/**
 * Calls from one replica to another over Redis publish/subscribe: each
 * replica listens on an inbox channel of its own, a call is published to
 * the callee's inbox naming the caller, and the answer (or the error, as a
 * JSON-RPC error) is published back to the caller's inbox. A call that gets
 * no answer within the timeout (the callee is gone, or Redis lost the
 * message) fails with an error saying which replica did not answer; a
 * caller's abort ends the wait at once.
 */
import { randomUUID } from 'node:crypto';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { Cluster } from '../../platform/cluster/cluster.js';
import { toProtocolError } from '../routing/protocolErrors.js';

type Message =
  | { kind: 'call'; id: string; from: string; payload: unknown }
  | { kind: 'reply'; id: string; value?: unknown; error?: { code: number; message: string; data?: unknown } };

interface Waiting {
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

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
  private readonly unsubscribe: () => void;
  private handler: ((payload: unknown) => Promise<unknown>) | undefined;

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
  serve(handler: (payload: unknown) => Promise<unknown>): void {
    this.handler = handler;
  }

  /** Calls `replica` with `payload`; resolves with its answer (within `timeoutMs`, the constructor's unless given). */
  async call(replica: string, payload: unknown, signal?: AbortSignal, timeoutMs = this.timeoutMs): Promise<unknown> {
    signal?.throwIfAborted();
    const id = randomUUID();
    const answered = new Promise<unknown>((resolve, reject) => this.waiting.set(id, { resolve, reject }));
    const timer = setTimeout(
      () => this.settle(id, undefined, notAnsweringError(replica, timeoutMs, this.what)),
      timeoutMs,
    );
    const onAbort = (): void => this.settle(id, undefined, signal!.reason);
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

  /** Stops listening; open calls fail. */
  close(): void {
    this.unsubscribe();
    for (const id of [...this.waiting.keys()]) this.settle(id, undefined, new Error('Switchboard is closing'));
  }

  private inbox(replica: string): string {
    return this.cluster.key(this.topic, 'inbox', replica);
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
    } else if (message.kind === 'call') void this.answer(message);
  }

  private async answer(call: Extract<Message, { kind: 'call' }>): Promise<void> {
    let reply: Message;
    try {
      if (!this.handler) throw new Error('this replica serves no calls');
      reply = { kind: 'reply', id: call.id, value: await this.handler(call.payload) };
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
