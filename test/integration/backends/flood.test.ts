/**
 * A flooding backend beside a quiet one, through the built `serve` (issue 25,
 * containment): one stdio server sends 50,000 log and 50,000 progress
 * notifications as fast as it can while a client keeps calling another
 * server. The quiet server's calls stay about as fast as before the flood,
 * serve's memory returns near where it was, and the flooding call's client is
 * told that log messages were dropped and still gets the last progress.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { firstText, fixture, nodeServer, startProxy } from '../../helpers/harness.js';
import { startServeHttp, type ServedHttp } from '../../helpers/serveHttp.js';

const COUNT = 50_000;

/** The quiet server's echo timed until `until`; `early` also gets those started within 1.5 s of `early.since`. */
async function echoTimes(
  client: Client,
  until: () => boolean,
  atLeast: number,
  early?: { since: number; samples: number[] },
): Promise<number[]> {
  const samples: number[] = [];
  while (samples.length < atLeast || !until()) {
    const started = performance.now();
    expect(firstText(await client.callTool({ name: 'quiet__echo', arguments: { text: 'q' } }))).toBe('q');
    samples.push(performance.now() - started);
    if (early && started - early.since < 1500) early.samples.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return samples.sort((a, b) => a - b);
}

const median = (sorted: number[]): number => sorted[Math.floor(sorted.length / 2)]!;

describe('a flooding backend beside a quiet one', () => {
  let serve: ServedHttp;

  beforeAll(async () => {
    serve = await startServeHttp({
      mcpServers: { noisy: nodeServer(fixture('flood.mjs')), quiet: nodeServer(fixture('slow.mjs')) },
    });
  }, 60_000);
  afterAll(() => serve?.stop());

  it('keeps the quiet server fast and memory bounded, and tells the client what it dropped', async () => {
    const quiet = await serve.connect();
    const flooder = await serve.connect();
    while ((await quiet.listTools()).tools.length < 7) await new Promise((resolve) => setTimeout(resolve, 100));
    const logs: string[] = [];
    flooder.setNotificationHandler('notifications/message', (notification) => {
      logs.push(String(notification.params.data));
    });
    await echoTimes(quiet, () => true, 20); // warm-up
    const alone = await echoTimes(quiet, () => true, 40);
    const rssBefore = await serve.rssMb();

    let progressSeen = 0;
    let lastProgress = 0;
    let done = false;
    const early = { since: performance.now(), samples: [] as number[] };
    const flood = flooder
      .callTool(
        { name: 'noisy__flood', arguments: { count: COUNT } },
        {
          timeout: 120_000,
          onprogress: (progress) => {
            progressSeen++;
            lastProgress = progress.progress;
          },
        },
      )
      .finally(() => (done = true));
    const during = await echoTimes(quiet, () => done, 20, early);
    expect(firstText(await flood)).toBe(`flooded ${COUNT}`);

    // p50 within 5x of the quiet server's own baseline (a floor of 25 ms for a loaded machine; before
    // the limits it was ~100x), and nine calls in ten well under a second. The maximum is left to
    // `bench/flood.ts`: on a shared 2-core machine one call in a hundred may wait on the scheduler.
    expect(median(during)).toBeLessThan(Math.max(5 * median(alone), 25));
    expect(during[Math.floor(during.length * 0.9)]).toBeLessThan(500);
    // The first seconds too: before the read budget per turn and the
    // one-second log burst, the quiet server's calls took 1.1-2.0 s in the flood's first 1.5 s (2.7 s at load 17
    // here, 9.9 s in an earlier run under load); after, 0.7-2.1 s at load 14 on this shared 2-core machine.
    expect(Math.max(...early.samples), early.samples.map((ms) => ms.toFixed(0)).join(' ')).toBeLessThan(3000);
    // Progress was coalesced, never cut short: the values kept coming to the end (the SDK client
    // runs notification handlers a microtask after it settles an answer read in the same chunk, so
    // the very last value may be ignored by the client).
    expect(progressSeen).toBeLessThan(COUNT / 4);
    expect(lastProgress).toBeGreaterThan(COUNT * 0.9);
    // Logs over the rate were dropped, and the client was told so.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(logs.length).toBeLessThan(COUNT / 4);
    expect(
      logs.some((data) => /^\d+ log messages from noisy dropped \(rate limit: 200\/s, 256 KB\/s\)$/.test(data)),
    ).toBe(true);

    await new Promise((resolve) => setTimeout(resolve, 3500));
    // Before the limits, this flood left serve ~85 MB larger 5 s after it ended.
    expect((await serve.rssMb()) - rssBefore).toBeLessThan(40);
  }, 120_000);
});

describe('a large log flood', () => {
  let serve: ServedHttp;

  beforeAll(async () => {
    serve = await startServeHttp({ mcpServers: { noisy: nodeServer(fixture('flood.mjs')) } });
  }, 60_000);
  afterAll(() => serve?.stop());

  it('costs serve a bounded high-water mark, and its memory stays there, not growing, after', async () => {
    const client = await serve.connect();
    while ((await client.listTools()).tools.length < 2) await new Promise((resolve) => setTimeout(resolve, 100));
    const rssBefore = await serve.rssMb();
    let peak = 0;
    let done = false;
    // 200 MB of log text (10,000 of 20 KB) to a client that reads.
    const flood = client
      .callTool({ name: 'noisy__flood', arguments: { count: 10_000, bytes: 20_000 } }, { timeout: 120_000 })
      .finally(() => (done = true));
    while (!done) {
      peak = Math.max(peak, await serve.rssMb());
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(firstText(await flood)).toBe('flooded 10000');
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const after = await serve.rssMb();
    // Before the byte rate and the one-second burst: 121 MB over at the peak, 90 MB over 5 s after (and
    // 150-190 MB over for ~45 s in the run); after: 39 MB at both, at load 14.
    expect(peak - rssBefore).toBeLessThan(80);
    expect(after - rssBefore).toBeLessThan(70);
  }, 120_000);
});

describe('a flooding backend’s health', () => {
  it('carries a warning with what was dropped and coalesced, at the configured rates', async () => {
    const proxy = await startProxy({
      proxy: { maxLogsPerSecond: 20, maxProgressPerSecond: 10 },
      mcpServers: { noisy: nodeServer(fixture('flood.mjs')) },
    });
    try {
      const noisy = () => proxy.core.health().find((backend) => backend.id === 'noisy');
      expect(noisy()?.warnings).toEqual([]);
      const client = await proxy.connect('legacy');
      const call = { name: 'noisy__flood', arguments: { count: 2000 } };
      expect(firstText(await client.callTool(call, { onprogress: () => undefined }))).toBe('flooded 2000');
      const [warning] = noisy()?.warnings ?? [];
      const counts =
        /(\d+) log messages dropped \(20\/s, 256 KB\/s\), (\d+) progress notifications coalesced \(10\/s\)/.exec(
          warning ?? '',
        );
      expect(counts, warning).not.toBeNull();
      expect(Number(counts![1])).toBeGreaterThan(1000);
      expect(Number(counts![2])).toBeGreaterThan(1000);
    } finally {
      await proxy.close();
    }
  }, 60_000);
});
