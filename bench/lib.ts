// Helpers for the benchmarks in this folder: child processes, readiness polling, timing, statistics.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { performance } from 'node:perf_hooks';

/** Summary statistics of a set of latency samples, in milliseconds. */
export interface LatencyStats {
  n: number;
  p50: number;
  p99: number;
  mean: number;
}

/** A child process started by {@link spawnUntilLine}, with the stderr lines it has printed so far. */
export interface Spawned {
  name: string;
  child: ChildProcess;
  stderr: string[];
}

/** Nearest-rank percentile (p in 0..100) of samples that are already sorted ascending. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] ?? Number.NaN;
}

/** p50, p99 and mean of unsorted samples. */
export function summarize(samples: readonly number[]): LatencyStats {
  const sorted = [...samples].sort((a, b) => a - b);
  const mean = sorted.reduce((sum, x) => sum + x, 0) / Math.max(1, sorted.length);
  return { n: sorted.length, p50: percentile(sorted, 50), p99: percentile(sorted, 99), mean };
}

/** Runs `fn` n times one after the other and returns each call's duration in ms. */
export async function timeSequential(n: number, fn: () => Promise<unknown>): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const start = performance.now();
    await fn();
    samples.push(performance.now() - start);
  }
  return samples;
}

/** Runs `fn` `total` times on a pool of `concurrency` workers; returns completed calls per second. */
export async function throughput(total: number, concurrency: number, fn: () => Promise<unknown>): Promise<number> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < total) {
      next++;
      await fn();
    }
  };
  const start = performance.now();
  await Promise.all(Array.from({ length: Math.min(concurrency, total) }, worker));
  return total / ((performance.now() - start) / 1000);
}

/**
 * Sequential latencies of `a` and `b`, `n` calls each, run in alternating blocks of `block` calls so that
 * drift (JIT warm-up, GC, a noisy neighbour) affects both alike.
 */
export async function interleaved(
  n: number,
  block: number,
  a: () => Promise<unknown>,
  b: () => Promise<unknown>,
): Promise<[LatencyStats, LatencyStats]> {
  const samplesA: number[] = [];
  const samplesB: number[] = [];
  for (let done = 0; done < n; done += block) {
    const size = Math.min(block, n - done);
    samplesA.push(...(await timeSequential(size, a)));
    samplesB.push(...(await timeSequential(size, b)));
  }
  return [summarize(samplesA), summarize(samplesB)];
}

/** Counts `line` in `counts` under a key with its numbers masked, so near-identical lines group. */
export function countLine(counts: Map<string, number>, line: string): void {
  const key = line.replace(/\b\d+\b/g, 'N');
  counts.set(key, (counts.get(key) ?? 0) + 1);
}

/** Prints a titled table: first column left-aligned, the others right-aligned. */
export function printTable(title: string, header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]): string =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ');
  console.log(`\n== ${title} ==`);
  console.log(line(header));
  for (const row of rows) console.log(line(row));
}

/**
 * Spawns `command args` (stdin piped, so fixtures that exit on stdin EOF die with us) and resolves once
 * a stdout line matches `pattern`, with the match. Rejects (after killing the child) if the child exits
 * first or `timeoutMs` passes. Later stdout is drained; stderr lines are kept in `stderr`.
 */
export async function spawnUntilLine(
  name: string,
  command: string,
  args: readonly string[],
  options: { env: NodeJS.ProcessEnv; cwd: string; pattern: RegExp; timeoutMs: number },
): Promise<{ proc: Spawned; match: RegExpMatchArray }> {
  const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['pipe', 'pipe', 'pipe'] });
  const proc: Spawned = { name, child, stderr: [] };
  createInterface({ input: child.stderr! }).on('line', (line) => proc.stderr.push(line));
  const lines = createInterface({ input: child.stdout! });
  try {
    const match = await new Promise<RegExpMatchArray>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`${name}: no line matching ${options.pattern} in ${options.timeoutMs} ms`)),
        options.timeoutMs,
      );
      child.once('error', reject);
      child.once('exit', (code, signal) =>
        reject(new Error(`${name} exited early (${signal ?? code}): ${proc.stderr.slice(-5).join(' | ')}`)),
      );
      lines.on('line', (line) => {
        const m = options.pattern.exec(line);
        if (m) {
          clearTimeout(timer);
          resolve(m);
        }
      });
    });
    child.removeAllListeners('exit');
    child.removeAllListeners('error');
    return { proc, match };
  } catch (error) {
    await stopChild(child);
    throw error;
  }
}

/** Sends SIGTERM and waits for the exit; SIGKILL after `graceMs`. Resolves at once if already gone. */
export async function stopChild(child: ChildProcess, graceMs = 5000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.stdin?.end();
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

/** Polls `url` with GET until it answers 200, or throws after `timeoutMs`. */
export async function waitFor200(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  while (Date.now() < deadline) {
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      if (res.status === 200) return;
      last = `HTTP ${res.status}`;
    } catch (error) {
      last = (error as Error).message;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${url} not ready after ${timeoutMs} ms (${last})`);
}
