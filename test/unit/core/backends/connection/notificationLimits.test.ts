import { describe, expect, it } from 'vitest';
import type { JSONRPCMessage, LoggingMessageNotification, Transport } from '@modelcontextprotocol/client';
import { NotificationLimiter } from '../../../../../electron/core/backends/connection/notificationLimits.js';

/** A transport stub whose delivery to the SDK client is recorded: only `onmessage` is used. */
function wired(
  rates: ConstructorParameters<typeof NotificationLimiter>[1] = { logsPerSecond: 10, progressPerSecond: 10 },
) {
  const delivered: JSONRPCMessage[] = [];
  const summaries: LoggingMessageNotification['params'][] = [];
  let dropping = 0;
  const transport = { onmessage: (message: JSONRPCMessage) => void delivered.push(message) } as unknown as Transport;
  const limiter = new NotificationLimiter('noisy', rates, {
    log: (params) => summaries.push(params),
    dropping: () => void dropping++,
  });
  limiter.attach(transport);
  const receive = (message: unknown) => transport.onmessage!(message as JSONRPCMessage);
  return { delivered, summaries, limiter, receive, droppingReports: () => dropping };
}

const log = (i: number) => ({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: i } });
const progress = (token: number, value: number) => ({
  jsonrpc: '2.0',
  method: 'notifications/progress',
  params: { progressToken: token, progress: value },
});

describe('NotificationLimiter', () => {
  it('passes a burst of one second of logs, drops the rest and says so once per second', async () => {
    const { delivered, summaries, limiter, receive, droppingReports } = wired();
    for (let i = 0; i < 1000; i++) receive(log(i));
    expect(delivered).toHaveLength(10);
    expect(limiter.counts.droppedLogs).toBe(990);
    expect(droppingReports()).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(summaries).toEqual([
      { level: 'warning', logger: 'switchboard', data: '990 log messages from noisy dropped (rate limit: 10/s)' },
    ]);
    expect(limiter.warning()).toMatch(/990 log messages dropped \(10\/s\), 0 progress notifications coalesced/);
    limiter.stop();
  });

  it('coalesces progress per token past the rate, the latest first, delivered before the answer', async () => {
    const { delivered, limiter, receive } = wired({ logsPerSecond: 10, progressPerSecond: 5 });
    for (let value = 1; value <= 100; value++) {
      receive(progress(1, value));
      receive(progress(2, value));
    }
    expect(delivered).toHaveLength(10); // the burst: two seconds' worth
    receive({ jsonrpc: '2.0', id: 1, result: { content: [] } });
    await Promise.resolve();
    expect(delivered.slice(-2)).toEqual([progress(1, 100), { jsonrpc: '2.0', id: 1, result: { content: [] } }]);
    expect(limiter.counts.coalescedProgress).toBe(190 - 2);
    limiter.stop();
  });

  it('flushes the latest waiting progress of every token within a tenth of a second', async () => {
    const { delivered, limiter, receive } = wired({ logsPerSecond: 10, progressPerSecond: 1 });
    for (let value = 1; value <= 50; value++) receive(progress(7, value));
    expect(delivered).toEqual([progress(7, 1), progress(7, 2)]);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(delivered.at(-1)).toEqual(progress(7, 50));
    limiter.stop();
  });

  it('lets every other message through untouched', () => {
    const { delivered, receive } = wired({ logsPerSecond: 1, progressPerSecond: 1 });
    const others = [
      { jsonrpc: '2.0', method: 'notifications/tools/list_changed' },
      { jsonrpc: '2.0', id: 9, method: 'elicitation/create', params: {} },
      { jsonrpc: '2.0', id: 3, result: {} },
    ];
    for (let i = 0; i < 100; i++) for (const message of others) receive(message);
    expect(delivered).toHaveLength(300);
  });

  it('skips a stdio log line over the rate before it is decoded, charging one within it only once', () => {
    const { delivered, limiter, receive } = wired({ logsPerSecond: 5, progressPerSecond: 1 });
    const line = (i: number) => Buffer.from(JSON.stringify(log(i)));
    const pythonOrder = Buffer.from('{"method": "notifications/message", "params": {"level": "info", "data": 1}}');
    // The burst is five: each admitted line's parsed message then passes onmessage free.
    for (let i = 0; i < 5; i++) {
      expect(limiter.skipsRawLine(line(i))).toBe(false);
      receive(log(i));
    }
    expect(delivered).toHaveLength(5);
    expect(limiter.skipsRawLine(line(5))).toBe(true);
    expect(limiter.skipsRawLine(pythonOrder)).toBe(true);
    expect(limiter.counts.droppedLogs).toBe(2);
    // Anything else is never skipped, whatever it contains.
    const answer = Buffer.from('{"jsonrpc":"2.0","id":1,"result":{"method":"notifications/message"}}');
    expect(limiter.skipsRawLine(answer)).toBe(false);
    expect(limiter.skipsRawLine(Buffer.from(JSON.stringify(progress(1, 1))))).toBe(false);
    limiter.stop();
  });

  it('holds a stdio server’s large log lines to the byte rate as well, saying both rates', async () => {
    const { limiter, summaries } = wired({ logsPerSecond: 1000, logBytesPerSecond: 100_000, progressPerSecond: 10 });
    const head = Buffer.from(JSON.stringify(log(0)));
    // A burst of one second's bytes (100 KB): 5 lines of 20 KB, then the count allows more but the bytes do not.
    let passed = 0;
    for (let i = 0; i < 1000; i++) if (!limiter.skipsRawLine(head, 20_000)) passed++;
    expect(passed).toBe(5);
    expect(limiter.counts.droppedLogs).toBe(995);
    expect(limiter.warning()).toMatch(
      /^notifications over the rate limits: 995 log messages dropped \(1000\/s, 98 KB\/s\)/,
    );
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(summaries.at(-1)?.data).toBe('995 log messages from noisy dropped (rate limit: 1000/s, 98 KB/s)');
    limiter.stop();
  });
});
