// The report of bench/proxy-latency.ts: its tables of proxied/direct ratios and issue 14's targets.
import { CONCURRENCY } from './benchClients.js';
import type { Era } from './benchClients.js';
import { printTable } from './lib.js';
import type { LatencyStats } from './lib.js';

/** Issue 14's targets: 2025-era p50 within this of direct; throughput at c=32 at least THROUGHPUT_TARGET. */
const LATENCY_TARGET = 1.6;
const THROUGHPUT_TARGET = 0.8;

/** Everything measured on one endpoint. */
export interface SideResult {
  call: LatencyStats;
  callsPerSecond: Record<string, number>;
  list: LatencyStats;
}

/** A direct/proxied pair of the same path, with proxied/direct ratios. */
export interface PairResult {
  path: string;
  direct: SideResult;
  proxied: SideResult;
  /** CPU time per tools/call over the throughput runs (Linux /proc): the proxy's, and the backend's on direct calls. */
  cpuPerCall: { proxyUs: number; backendUs?: number };
  ratios: { callP50: number; callP99: number; listP50: number; throughput: Record<string, number> };
}

/** The median of `xs` (mean of the middle two for an even count). */
export const median = (xs: readonly number[]): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] ?? NaN) : ((sorted[mid - 1] ?? NaN) + (sorted[mid] ?? NaN)) / 2;
};
const ms = (x: number): string => x.toFixed(3);
const ratio = (x: number): string => `${x.toFixed(2)}x`;

/** How many calls each table's figures come from (for the titles). */
export interface RunSizes {
  seqCalls: number;
  tpCalls: number;
  rounds: number;
  listCalls: number;
}

/** Prints the latency, throughput and tools/list tables, each with proxied/direct ratios. */
export function printResults(pairs: PairResult[], sizes: RunSizes): void {
  const { seqCalls: SEQ_CALLS, tpCalls: TP_CALLS, rounds: ROUNDS, listCalls: LIST_CALLS } = sizes;
  printTable(
    `tools/call echo, sequential latency (N=${SEQ_CALLS}, ms)`,
    ['path', 'direct p50', 'proxied p50', 'ratio', 'direct p99', 'proxied p99', 'ratio'],
    pairs.map((p) => [
      p.path,
      ms(p.direct.call.p50),
      ms(p.proxied.call.p50),
      ratio(p.ratios.callP50),
      ms(p.direct.call.p99),
      ms(p.proxied.call.p99),
      ratio(p.ratios.callP99),
    ]),
  );
  printTable(
    `tools/call echo, throughput (median of ${ROUNDS} alternating runs of ${TP_CALLS} calls, one client, calls/s)`,
    ['path', 'concurrency', 'direct', 'proxied', 'ratio'],
    pairs.flatMap((p) =>
      CONCURRENCY.map((c) => [
        p.path,
        String(c),
        (p.direct.callsPerSecond[c] ?? NaN).toFixed(0),
        (p.proxied.callsPerSecond[c] ?? NaN).toFixed(0),
        ratio(p.ratios.throughput[c] ?? NaN),
      ]),
    ),
  );
  printTable(
    `the proxy's own CPU per tools/call (from /proc, over the ${ROUNDS * CONCURRENCY.length * TP_CALLS} proxied throughput calls)`,
    ['path', 'proxy µs/call', 'backend µs/call (direct)', 'proxy/backend'],
    pairs.map((p) => {
      const { proxyUs, backendUs } = p.cpuPerCall;
      return [
        p.path,
        proxyUs.toFixed(0),
        backendUs === undefined ? '' : backendUs.toFixed(0),
        backendUs === undefined || backendUs === 0 ? '' : ratio(proxyUs / backendUs),
      ];
    }),
  );
  printTable(
    `tools/list latency (N=${LIST_CALLS}, client cache bypassed, ms)`,
    ['path', 'direct p50', 'proxied p50', 'ratio'],
    pairs.map((p) => [p.path, ms(p.direct.list.p50), ms(p.proxied.list.p50), ratio(p.ratios.listP50)]),
  );
}

/** Evaluates issue 14's targets on the HTTP pairs; returns one printable line each. */
export function targets(pairs: PairResult[]): { target: string; met: boolean; detail: string }[] {
  const http = pairs.filter((p) => p.path.startsWith('http'));
  const era = (e: Era): PairResult | undefined => http.find((p) => p.path === `http ${e}-era`);
  const [old, modern] = [era('2025'), era('2026')];
  const detail = (pick: (p: PairResult) => number): string => http.map((p) => `${p.path} ${ratio(pick(p))}`).join(', ');
  const c32 = (p: PairResult): number => p.ratios.throughput[32] ?? NaN;
  return [
    {
      target: `tools/call p50 at most ${LATENCY_TARGET}x of direct with a 2025-era client`,
      met: old !== undefined && old.ratios.callP50 <= LATENCY_TARGET,
      detail: detail((p) => p.ratios.callP50),
    },
    {
      target: 'the 2026-07-28 era no slower than the 2025 era (p50 ratio to direct)',
      met: old !== undefined && modern !== undefined && modern.ratios.callP50 <= old.ratios.callP50,
      detail: `${modern ? ratio(modern.ratios.callP50) : '?'} vs ${old ? ratio(old.ratios.callP50) : '?'}; proxied p50 ${
        modern && old ? ratio(modern.proxied.call.p50 / old.proxied.call.p50) : '?'
      } of the 2025 era's`,
    },
    {
      target: `throughput at concurrency 32 at least ${THROUGHPUT_TARGET}x of direct`,
      met: http.every((p) => c32(p) >= THROUGHPUT_TARGET),
      detail: detail(c32),
    },
    {
      target: 'tools/list (from the snapshot) faster than direct',
      met: http.every((p) => p.ratios.listP50 < 1),
      detail: detail((p) => p.ratios.listP50),
    },
  ];
}
