/**
 * What resumable 2025-era streams cost: every message Switchboard sends on a
 * 2025-era session is also kept (serialized) in the bounded event retention
 * for a client that reconnects with Last-Event-ID. This measures that per
 * message, with the retention at its caps (steady state: every store also
 * evicts), and the cost of one replay of a full stream (1,000 events).
 */
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { EventRetention } from '../electron/core/frontend/index.js';
import { printTable, summarize } from './lib.js';

const ROUNDS = 7;
const MESSAGES = 100_000;
const STREAMS = 50;

const progress: JSONRPCMessage = {
  jsonrpc: '2.0',
  method: 'notifications/progress',
  params: { progressToken: 't', progress: 1, total: 100, message: 'working' },
};
const answer: JSONRPCMessage = {
  jsonrpc: '2.0',
  id: 7,
  result: { content: [{ type: 'text', text: 'x'.repeat(4_000) }] },
};

async function storeCost(message: JSONRPCMessage): Promise<number[]> {
  const perMessageUs: number[] = [];
  const retention = new EventRetention();
  const session = retention.forSession();
  for (let round = 0; round < ROUNDS; round++) {
    const at = performance.now();
    for (let n = 0; n < MESSAGES; n++) await session.storeEvent(`s${n % STREAMS}`, message);
    perMessageUs.push(((performance.now() - at) * 1000) / MESSAGES);
  }
  return perMessageUs.slice(1);
}

async function replayCost(): Promise<number[]> {
  const retention = new EventRetention();
  const session = retention.forSession();
  const first = await session.storeEvent('s', {} as JSONRPCMessage);
  for (let n = 0; n < 999; n++) await session.storeEvent('s', progress);
  const ms: number[] = [];
  for (let round = 0; round < ROUNDS * 5; round++) {
    const at = performance.now();
    await session.replayEventsAfter(first, { send: () => Promise.resolve() });
    ms.push(performance.now() - at);
  }
  return ms.slice(1);
}

const fmt = (n: number): string => n.toFixed(2);
const small = summarize(await storeCost(progress));
const large = summarize(await storeCost(answer));
const replay = summarize(await replayCost());
printTable(
  'Resumable streams: event retention (2025-era sessions)',
  ['measure', 'p50', 'p99'],
  [
    ['store a progress notification (µs)', fmt(small.p50), fmt(small.p99)],
    ['store a 4 kB tool result (µs)', fmt(large.p50), fmt(large.p99)],
    ['replay a full stream, 1,000 events (ms)', fmt(replay.p50), fmt(replay.p99)],
  ],
);
