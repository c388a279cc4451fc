// What observability costs, measured on the real `serve` in one run, off (nothing configured: no
// prom-client, no OpenTelemetry loaded) against on (metrics, traces exported to a sink in this
// process, JSON logs), both serving the same Streamable HTTP fixture server:
//  - start: time from spawning `serve` to its endpoint line, and to the first tools/list with the
//    server's tools (median of BENCH_STARTS alternating starts);
//  - RSS of serve after start, and after the calls;
//  - a tools/call through each, sequential, alternating in blocks (2026-07-28 client): p50, p99,
//    mean, and the difference per call.
import { createServer } from 'node:http';
import { once } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { AddressInfo } from 'node:net';
import type { Client } from '@modelcontextprotocol/client';
import { connectHttp, realClient } from './benchClients.js';
import { interleaved, printTable, spawnUntilLine, stopChild, type Spawned } from './lib.js';

const ROOT = resolve(import.meta.dirname, '..');
const STARTS = Number(process.env['BENCH_STARTS'] ?? 3);
const CALLS = Number(process.env['BENCH_CALLS'] ?? 400);
const TOKEN = 'bench-token-observability-0123456789';

const loadStart = loadavg()[0]!.toFixed(1);
const dir = await mkdtemp(join(tmpdir(), 'switchboard-bench-observability-'));
const running: Spawned[] = [];

// An OTLP/HTTP sink: takes every export, keeps nothing but a count.
let exports = 0;
const sink = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    exports++;
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
});
sink.listen(0, '127.0.0.1');
await once(sink, 'listening');
const sinkUrl = `http://127.0.0.1:${(sink.address() as AddressInfo).port}`;

const backend = await spawnUntilLine('http-fixture', process.execPath, ['test/fixtures/servers/http-server.mjs'], {
  env: { ...process.env, PORT: '0' },
  cwd: ROOT,
  pattern: /LISTENING (\S+)/,
  timeoutMs: 15_000,
});
running.push(backend.proc);
const backendUrl = backend.match[1]!;

type Variant = 'off' | 'on';
const OBSERVABILITY: Record<Variant, Record<string, unknown> | undefined> = {
  off: undefined,
  on: { metrics: {}, tracing: { endpoint: sinkUrl }, logFormat: 'json' },
};

interface Served {
  proc: Spawned;
  url: string;
  listenedMs: number;
  listedMs: number;
}

/** Starts `serve` with the variant's config; resolves once its server's tools are listed through it. */
async function serve(variant: Variant, run: number): Promise<Served & { client: Client }> {
  const home = join(dir, `${variant}-${run}`);
  const configPath = `${home}.json`;
  const observability = OBSERVABILITY[variant];
  await writeFile(
    configPath,
    JSON.stringify({ mcpServers: { h: { url: backendUrl } }, ...(observability ? { observability } : {}) }),
  );
  const env = { ...process.env, SWITCHBOARD_TOKEN: TOKEN, XDG_CONFIG_HOME: home, XDG_STATE_HOME: join(home, 'state') };
  const spawned = performance.now();
  const { proc, match } = await spawnUntilLine(
    `serve-${variant}`,
    process.execPath,
    ['bin/mcp-switchboard.js', 'serve', '--config', configPath, '--port', '0', '--quiet', '--no-open'],
    { env, cwd: ROOT, pattern: /MCP endpoint: (\S+)/, timeoutMs: 30_000 },
  );
  running.push(proc);
  const listenedMs = performance.now() - spawned;
  const client = await connectHttp(realClient('2026'), match[1]!, TOKEN);
  for (;;) {
    const { tools } = await client.listTools();
    if (tools.some((tool) => tool.name === 'h__echo')) break;
    await new Promise((done) => setTimeout(done, 20));
  }
  return { proc, url: match[1]!, listenedMs, listedMs: performance.now() - spawned, client };
}

async function rssMb(proc: Spawned): Promise<number> {
  const status = await readFile(`/proc/${proc.child.pid}/status`, 'utf8').catch(() => '');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

try {
  const starts: Record<Variant, { listened: number[]; listed: number[]; rss: number[] }> = {
    off: { listened: [], listed: [], rss: [] },
    on: { listened: [], listed: [], rss: [] },
  };
  const last: Partial<Record<Variant, Served & { client: Client }>> = {};
  for (let run = 0; run < STARTS; run++) {
    for (const variant of run % 2 === 0 ? (['off', 'on'] as const) : (['on', 'off'] as const)) {
      const served = await serve(variant, run);
      starts[variant].listened.push(served.listenedMs);
      starts[variant].listed.push(served.listedMs);
      starts[variant].rss.push(await rssMb(served.proc));
      if (run < STARTS - 1) {
        await served.client.close();
        await stopChild(served.proc.child);
      } else last[variant] = served;
    }
  }
  const off = last.off!;
  const on = last.on!;
  const call = (client: Client) => () => client.callTool({ name: 'h__echo', arguments: { text: 'bench' } });
  // Warm-up: JIT and the keep-alive connections.
  for (let i = 0; i < 50; i++) await Promise.all([call(off.client)(), call(on.client)()]);
  const [offCall, onCall] = await interleaved(CALLS, 25, call(off.client), call(on.client));
  const rssAfter = { off: await rssMb(off.proc), on: await rssMb(on.proc) };
  const fmt = (ms: number): string => ms.toFixed(2);
  printTable(
    `Observability: serve off vs on (metrics + traces + JSON logs), ${STARTS} starts each, ${CALLS} calls each, load ${loadStart}`,
    ['measure', 'off', 'on', 'on - off'],
    [
      [
        'start: endpoint line (median ms)',
        fmt(median(starts.off.listened)),
        fmt(median(starts.on.listened)),
        fmt(median(starts.on.listened) - median(starts.off.listened)),
      ],
      [
        'start: first full tools/list (median ms)',
        fmt(median(starts.off.listed)),
        fmt(median(starts.on.listed)),
        fmt(median(starts.on.listed) - median(starts.off.listed)),
      ],
      [
        'RSS after start (median MB)',
        fmt(median(starts.off.rss)),
        fmt(median(starts.on.rss)),
        fmt(median(starts.on.rss) - median(starts.off.rss)),
      ],
      [`RSS after ${CALLS} calls (MB)`, fmt(rssAfter.off), fmt(rssAfter.on), fmt(rssAfter.on - rssAfter.off)],
      ['tools/call p50 (ms)', fmt(offCall.p50), fmt(onCall.p50), fmt(onCall.p50 - offCall.p50)],
      ['tools/call p99 (ms)', fmt(offCall.p99), fmt(onCall.p99), fmt(onCall.p99 - offCall.p99)],
      ['tools/call mean (ms)', fmt(offCall.mean), fmt(onCall.mean), fmt(onCall.mean - offCall.mean)],
    ],
  );
  console.log(`(span exports received by the sink: ${exports}; load now ${loadavg()[0]!.toFixed(1)})`);
  await Promise.allSettled([off.client.close(), on.client.close()]);
} finally {
  await Promise.allSettled(running.map((proc) => stopChild(proc.child)));
  sink.close();
  await rm(dir, { recursive: true, force: true });
}
