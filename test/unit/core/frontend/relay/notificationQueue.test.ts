import { describe, expect, it } from 'vitest';
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/server';
import {
  boundNotifications,
  type OutboundFlow,
} from '../../../../../electron/core/frontend/relay/notificationQueue.js';

/** A client's wire that the test backs up and drains by hand. */
class Wire implements OutboundFlow {
  backedUp = false;
  private waiters: (() => void)[] = [];
  congested(): boolean {
    return this.backedUp;
  }
  whenDrained(then: () => void): void {
    this.waiters.push(then);
  }
  get waiting(): number {
    return this.waiters.length;
  }
  drain(): void {
    this.backedUp = false;
    const waiters = this.waiters.splice(0);
    for (const then of waiters) then();
  }
}

function queued(options: { max?: number; stallMs?: number } = {}) {
  const sent: JSONRPCMessage[] = [];
  const stalls: number[] = [];
  const transport = { send: async (message: JSONRPCMessage) => void sent.push(message) } as unknown as Transport;
  const wire = new Wire();
  const queue = boundNotifications(transport, wire, {
    max: options.max ?? 4,
    stallMs: options.stallMs ?? 10_000,
    onStalled: (dropped) => stalls.push(dropped),
  });
  const send = (message: unknown, relatedRequestId?: number) =>
    transport.send(message as JSONRPCMessage, relatedRequestId === undefined ? undefined : { relatedRequestId });
  return { sent, stalls, wire, queue, send };
}

const log = (i: number) => ({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: i } });
const progress = (value: number) => ({
  jsonrpc: '2.0',
  method: 'notifications/progress',
  params: { progressToken: 'p', progress: value },
});
const settle = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('NotificationQueue', () => {
  it('passes everything at once while the client reads', async () => {
    const { sent, send } = queued();
    for (let i = 0; i < 20; i++) await send(log(i));
    await settle();
    expect(sent).toHaveLength(20);
  });

  it('holds at most max notifications for a client that stops reading, dropping the oldest', async () => {
    const { sent, wire, queue, send } = queued({ max: 4 });
    wire.backedUp = true;
    for (let i = 0; i < 100; i++) await send(log(i));
    expect(sent).toHaveLength(0);
    expect(queue.size).toBe(4);
    expect(queue.dropped).toBe(96);
    wire.drain();
    await settle();
    expect(sent).toEqual([log(96), log(97), log(98), log(99)]);
  });

  it('waits for one drain however many notifications a stalled client is offered', async () => {
    const { sent, wire, send } = queued({ max: 4 });
    wire.backedUp = true;
    for (let i = 0; i < 1000; i++) await send(log(i));
    // One wait, not one per notification (each was a drain/close listener pair on the response).
    expect(wire.waiting).toBe(1);
    wire.drain();
    await settle();
    expect(sent).toHaveLength(4);
    wire.backedUp = true;
    for (let i = 0; i < 100; i++) await send(log(i));
    expect(wire.waiting).toBe(1);
  });

  it('coalesces a request’s progress (the latest wins) and never holds back an answer', async () => {
    const { sent, wire, send } = queued();
    wire.backedUp = true;
    for (let value = 1; value <= 50; value++) await send(progress(value), 7);
    const answer = { jsonrpc: '2.0', id: 7, result: { content: [] } };
    await send(answer);
    expect(sent).toEqual([progress(50), answer]);
  });

  it('reports a client stuck for stallMs, once, with what it lost', async () => {
    const { stalls, wire, send } = queued({ max: 2, stallMs: 30 });
    wire.backedUp = true;
    for (let i = 0; i < 10; i++) await send(log(i));
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(stalls).toEqual([8]);
  });

  it('does not report a slow client that keeps draining', async () => {
    const { stalls, wire, send, sent } = queued({ max: 2, stallMs: 40 });
    for (let round = 0; round < 6; round++) {
      wire.backedUp = true;
      await send(log(round));
      await new Promise((resolve) => setTimeout(resolve, 20));
      wire.drain();
      await settle();
    }
    expect(stalls).toEqual([]);
    expect(sent).toHaveLength(6);
  });
});
